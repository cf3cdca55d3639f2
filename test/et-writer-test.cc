/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Writing Chakra traces: round trips through the compact and protobuf forms, byte
// compatibility with ASTRA-sim's files, attribute kinds chosen for other readers.
#include "et-test-support.h"

#include "ns3/et-node-codec.h"
#include "ns3/et-rank-files.h"
#include "ns3/et-reader.h"
#include "ns3/et-trace.h"
#include "ns3/et-writer.h"

#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <limits>

using namespace ns3;
using namespace ns3::ettest;

namespace
{

const std::string kMicrobenchmarks =
    std::string(MLFABRIC_SHARED_DIR) + "/data/astra-sim/workload/microbenchmarks";

/**
 * \param strings pool owning the names
 * \return nodes covering every field and attribute, the dependency list sizes that
 *         change EtIdList's storage (0, 1, 2, 3, 100), and extreme values
 */
std::vector<EtNode>
VarietyOfNodes(EtStringPool& strings)
{
    std::vector<EtNode> nodes;
    EtNode metadata;
    metadata.id = 0;
    metadata.type = EtNodeType::METADATA_NODE;
    metadata.name = strings.Intern("## process_group:init ##");
    metadata.inputsValues = strings.Intern(R"(['[{"pg_name": "0", "ranks": []}]'])");
    nodes.push_back(metadata);

    EtNode comp;
    comp.id = 1;
    comp.type = EtNodeType::COMP_NODE;
    comp.name = strings.Intern("aten::mm");
    comp.durationMicros = 1234;
    comp.SetNumOps(uint64_t{1} << 40);
    comp.SetTensorSize(uint64_t{3} << 33);
    comp.SetIsCpuOp(false);
    comp.dataDeps = {0};
    nodes.push_back(comp);

    EtNode coll;
    coll.id = uint64_t{1} << 50; // sparse PyTorch-style id
    coll.type = EtNodeType::COMM_COLL_NODE;
    coll.name = strings.Intern("ncclDevKernel_AllReduce_Sum_f32_RING_LL");
    coll.SetIsCpuOp(false);
    coll.SetCommType(EtCollectiveType::REDUCE_SCATTER_BLOCK);
    coll.SetCommSize(uint64_t{6} << 30); // 6 GiB: needs 64 bits
    coll.SetCommPriority(-1);
    coll.SetPgName(strings.Intern("17"));
    coll.SetInvolvedDims(0b1011, 4);
    coll.dataDeps = {1, 0};
    coll.ctrlDeps = {999999};
    nodes.push_back(coll);

    EtNode send;
    send.id = 3;
    send.type = EtNodeType::COMM_SEND_NODE;
    send.name = strings.Intern("send");
    send.SetCommSrc(0);
    send.SetCommDst(std::numeric_limits<int32_t>::max());
    send.SetCommTag(int64_t{1} << 40);                      // wider than ASTRA-sim's int32 tags
    send.SetCommSize(std::numeric_limits<uint64_t>::max()); // wider than int64
    send.dataDeps = {1, uint64_t{1} << 50, 0};
    nodes.push_back(send);

    EtNode recv;
    recv.id = 4;
    recv.type = EtNodeType::COMM_RECV_NODE;
    recv.name = strings.Intern("recv");
    recv.SetCommSrc(-5);
    recv.SetCommDst(1);
    recv.SetCommTag(std::numeric_limits<int64_t>::min());
    recv.SetIsCpuOp(true);
    for (uint64_t dep = 0; dep < 100; ++dep)
    {
        recv.ctrlDeps.push_back(1000 + dep);
    }
    nodes.push_back(recv);

    EtNode load;
    load.id = 5;
    load.type = EtNodeType::MEM_LOAD_NODE;
    load.SetTensorSize(0);
    load.SetInvolvedDims(0xffffffffu, 32);
    nodes.push_back(load);

    EtNode future; // a node type of a later schema, no name
    future.id = 6;
    future.type = static_cast<EtNodeType>(10);
    nodes.push_back(future);
    return nodes;
}

/** \return the nodes of a trace file, read with the streaming reader */
std::vector<EtNode>
ReadAll(EtReader& reader)
{
    std::vector<EtNode> nodes;
    EtNode node;
    while (reader.ReadNode(node))
    {
        nodes.push_back(node);
    }
    return nodes;
}

} // namespace

TEST(EtWriter, CompactNodesRoundTripIdentically)
{
    ScratchDir dir;
    EtStringPool strings;
    std::vector<EtNode> written = VarietyOfNodes(strings);
    for (EtCompression compression : {EtCompression::NONE, EtCompression::GZIP})
    {
        std::string path = dir.File("variety.0.et");
        EtWriter writer(path, "1.0.0", compression);
        for (const EtNode& node : written)
        {
            writer.AddNode(node);
        }
        writer.Close();
        EXPECT_EQ(writer.GetNodeCount(), written.size());

        EtReader reader(path);
        EXPECT_EQ(reader.IsGzip(), compression == EtCompression::GZIP);
        EXPECT_EQ(reader.GetMetadata().version(), "1.0.0");
        std::vector<EtNode> read = ReadAll(reader);
        ASSERT_EQ(read.size(), written.size());
        for (size_t i = 0; i < written.size(); ++i)
        {
            EXPECT_EQ(read[i], written[i]) << "node at position " << i;
        }
        EXPECT_EQ(read[3].commSize, std::numeric_limits<uint64_t>::max());
        EXPECT_EQ(read[4].ctrlDeps.size(), 100u);
    }
}

// The protobuf path keeps everything, PyTorch extras included.
TEST(EtWriter, ProtobufNodesRoundTripIdentically)
{
    ScratchDir dir;
    std::string path = dir.File("pytorch.0.et");
    ChakraProtoMsg::GlobalMetadata metadata;
    auto* schema = metadata.add_attr();
    schema->set_name("schema");
    schema->set_string_val("1.0.2-chakra.0.0.4");

    std::vector<ChakraProtoMsg::Node> written(3);
    for (size_t i = 0; i < written.size(); ++i)
    {
        ChakraProtoMsg::Node& node = written[i];
        node.set_id(1000 + 7 * i);
        node.set_name("aten::addmm");
        node.set_type(ChakraProtoMsg::COMP_NODE);
        node.set_duration_micros(10 + i);
        node.set_start_time_micros(5);
        node.mutable_inputs()->set_values("[[1, 2, 0, 64, 4, 'cuda:0']]");
        node.mutable_inputs()->set_shapes("[[64]]");
        node.mutable_inputs()->set_types("['Tensor(float)']");
        node.mutable_outputs(); // present but empty, as the converter writes it
        auto* rf = node.add_attr();
        rf->set_name("rf_id");
        rf->set_int64_val(i);
        auto* list = node.add_attr();
        list->set_name("inputs");
        list->mutable_string_list()->add_values("x");
        auto* floats = node.add_attr();
        floats->set_name("scale");
        floats->mutable_double_list()->add_values(0.5);
        if (i > 0)
        {
            node.add_data_deps(written[i - 1].id());
            node.add_ctrl_deps(1);
        }
    }
    EtWriter writer(path, metadata);
    for (const auto& node : written)
    {
        writer.AddNode(node);
    }
    writer.Close();

    EtReader reader(path);
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(reader.GetMetadata(), metadata));
    ChakraProtoMsg::Node read;
    for (const auto& node : written)
    {
        ASSERT_TRUE(reader.ReadNode(read));
        EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(read, node))
            << read.DebugString();
        EXPECT_TRUE(read.has_outputs());
    }
    EXPECT_FALSE(reader.ReadNode(read));

    // The file is exactly the framed serializations, nothing more.
    std::string expected = Frame(metadata.SerializeAsString());
    for (const auto& node : written)
    {
        expected += Frame(node.SerializeAsString());
    }
    EXPECT_EQ(ReadBytes(path), expected);
}

// Reading an ASTRA-sim microbenchmark into compact nodes and writing it back gives the
// original bytes: our encoding is the one ASTRA-sim's generators use.
TEST(EtWriter, RewritingEveryMicrobenchmarkReproducesItsBytes)
{
    ScratchDir dir;
    uint32_t files = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(kMicrobenchmarks))
    {
        if (entry.path().extension() != ".et")
        {
            continue;
        }
        std::string original = entry.path().string();
        SCOPED_TRACE(original);
        EtTrace trace = EtTrace::Load(original);
        std::string copy = dir.File("copy.et");
        EtWriter writer(copy, trace.GetMetadata());
        for (const EtNode& node : trace.GetNodes())
        {
            writer.AddNode(node);
        }
        writer.Close();
        EXPECT_EQ(ReadBytes(copy), ReadBytes(original));
        ++files;
    }
    EXPECT_EQ(files, 112u);
}

// ASTRA-sim's first feeder asks for one specific kind per attribute (reference §3.2)
// and reads any other as 0: the writer must use those kinds.
TEST(EtWriter, WritesTheAttributeKindsAstraSimReads)
{
    EtStringPool strings;
    EtNode node;
    node.id = 1;
    node.type = EtNodeType::COMM_SEND_NODE;
    node.SetIsCpuOp(false);
    node.SetNumOps(10);
    node.SetTensorSize(20);
    node.SetCommType(EtCollectiveType::ALL_GATHER);
    node.SetCommPriority(1);
    node.SetCommSize(30);
    node.SetCommSrc(2);
    node.SetCommDst(3);
    node.SetCommTag(4);
    node.SetPgName(strings.Intern("5"));
    node.SetInvolvedDims(0b01, 2);
    ChakraProtoMsg::Node proto;
    EncodeEtNode(node, proto);
    using Attr = ChakraProtoMsg::AttributeProto;
    const std::vector<std::pair<std::string, Attr::ValueCase>> expected{
        {"is_cpu_op", Attr::kBoolVal},
        {"num_ops", Attr::kInt64Val},
        {"tensor_size", Attr::kUint64Val},
        {"comm_type", Attr::kInt64Val},
        {"comm_priority", Attr::kInt32Val},
        {"comm_size", Attr::kInt64Val},
        {"comm_src", Attr::kInt32Val},
        {"comm_dst", Attr::kInt32Val},
        {"comm_tag", Attr::kInt32Val},
        {"pg_name", Attr::kStringVal},
        {"involved_dim", Attr::kBoolList}};
    ASSERT_EQ(proto.attr_size(), static_cast<int>(expected.size()));
    for (size_t i = 0; i < expected.size(); ++i)
    {
        EXPECT_EQ(proto.attr(i).name(), expected[i].first);
        EXPECT_EQ(proto.attr(i).value_case(), expected[i].second) << expected[i].first;
    }
    EXPECT_EQ(proto.attr(10).bool_list().values_size(), 2);

    // Values that need more bits take a wider kind instead of wrapping.
    node.SetCommSize(std::numeric_limits<uint64_t>::max());
    node.SetCommTag(int64_t{1} << 33);
    EncodeEtNode(node, proto);
    EXPECT_EQ(proto.attr(5).value_case(), Attr::kUint64Val);
    EXPECT_EQ(proto.attr(8).value_case(), Attr::kInt64Val);

    // Attributes not marked present are not written.
    EncodeEtNode(EtNode(), proto);
    EXPECT_EQ(proto.attr_size(), 0);
}

// Single nodes of PyTorch traces can be large; the reader's buffer must grow.
TEST(EtWriter, MessagesLargerThanTheReadBufferRoundTrip)
{
    ScratchDir dir;
    std::string path = dir.File("large.0.et");
    EtStringPool strings;
    std::string groups(3 << 20, 'g');
    EtNode metadata;
    metadata.id = 1;
    metadata.type = EtNodeType::METADATA_NODE;
    metadata.inputsValues = groups;
    EtNode after;
    after.id = 2;
    after.dataDeps = {1};
    {
        EtWriter writer(path, kEtSchemaVersion, EtCompression::GZIP);
        writer.AddNode(metadata);
        writer.AddNode(after);
    } // the destructor closes
    EtTrace trace = EtTrace::Load(path);
    ASSERT_EQ(trace.GetNodeCount(), 2u);
    EXPECT_EQ(trace.GetNode(0).inputsValues, groups);
    EXPECT_EQ(trace.GetNode(1), after);
}

TEST(EtWriter, UnwritablePathIsAnInputError)
{
    ScratchDir dir;
    std::string path = dir.File("no-such-dir/x.0.et");
    ExpectInputError([&] { EtWriter writer(path); }, {path, "cannot create"});
}

// A generator writes one file per rank; the rank helpers find them again.
TEST(EtWriter, PerRankFilesAreFoundByPrefix)
{
    ScratchDir dir;
    std::string prefix = dir.File("gen");
    for (uint32_t rank = 0; rank < 6; ++rank)
    {
        EtWriter writer(EtRankFilePath(prefix, rank));
        EtNode node;
        node.id = rank;
        node.type = EtNodeType::COMM_COLL_NODE;
        node.SetCommType(EtCollectiveType::ALL_REDUCE);
        node.SetCommSize(1024 * (rank + 1));
        writer.AddNode(node);
        writer.Close();
    }
    ASSERT_EQ(DiscoverEtRankCount(prefix), 6u);
    for (uint32_t rank = 0; rank < 6; ++rank)
    {
        EtTrace trace = EtTrace::Load(EtRankFilePath(prefix, rank));
        EXPECT_EQ(trace.GetNode(0).commSize, 1024u * (rank + 1));
    }
}
