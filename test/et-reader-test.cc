/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Reading Chakra traces: ASTRA-sim's microbenchmark files, every attribute kind,
// framing edge cases, gzip, and each kind of malformed input.
#include "et-test-support.h"

#include "ns3/et-node-codec.h"
#include "ns3/et-rank-files.h"
#include "ns3/et-reader.h"
#include "ns3/et-trace.h"
#include "ns3/et-writer.h"

#include <google/protobuf/io/coded_stream.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <map>

using namespace ns3;
using namespace ns3::ettest;

namespace
{

const std::string kMicrobenchmarks =
    std::string(MLFABRIC_SHARED_DIR) + "/data/astra-sim/workload/microbenchmarks";

/** \return a Node with the given id, name and type */
ChakraProtoMsg::Node
MakeNode(uint64_t id, ChakraProtoMsg::NodeType type = ChakraProtoMsg::COMP_NODE)
{
    ChakraProtoMsg::Node node;
    node.set_id(id);
    node.set_name("node_" + std::to_string(id));
    node.set_type(type);
    return node;
}

/** \return the serialized GlobalMetadata every test file starts with */
std::string
MetadataBytes()
{
    ChakraProtoMsg::GlobalMetadata metadata;
    metadata.set_version("0.0.4");
    return metadata.SerializeAsString();
}

/** Write a trace of the given nodes to path. */
void
WriteTrace(const std::string& path, const std::vector<ChakraProtoMsg::Node>& nodes)
{
    std::string bytes = Frame(MetadataBytes());
    for (const auto& node : nodes)
    {
        bytes += Frame(node.SerializeAsString());
    }
    WriteBytes(path, bytes);
}

/** \return a trace file holding one node, decoded to its compact form */
EtNode
ReadSingleNode(const ScratchDir& dir, const ChakraProtoMsg::Node& node)
{
    std::string path = dir.File("single.0.et");
    WriteTrace(path, {node});
    EtTrace trace = EtTrace::Load(path);
    EXPECT_EQ(trace.GetNodeCount(), 1u);
    return trace.GetNode(0);
}

/** \return a node with one attribute named `name`, set by `set` */
ChakraProtoMsg::Node
NodeWithAttribute(const std::string& name,
                  const std::function<void(ChakraProtoMsg::AttributeProto&)>& set,
                  ChakraProtoMsg::NodeType type = ChakraProtoMsg::COMM_COLL_NODE)
{
    ChakraProtoMsg::Node node = MakeNode(42, type);
    auto* attribute = node.add_attr();
    attribute->set_name(name);
    set(*attribute);
    return node;
}

} // namespace

// The 83-byte example decoded byte by byte in the format reference (section 2).
TEST(EtReader, ReferenceExampleHasTheDocumentedBytes)
{
    std::string path = kMicrobenchmarks + "/all_reduce/4npus_1MB/all_reduce.1.et";
    std::string expected = std::string("\x07\x0a\x05", 3) + "0.0.4" + "\x4a" +
                           std::string("\x08\x01\x12\x14", 4) + "all_reduce_4npus_1MB" +
                           std::string("\x18\x07\x52\x0e\x0a\x09", 6) + "is_cpu_op" +
                           std::string("\xd8\x01\x00\x52\x0d\x0a\x09", 7) + "comm_type" +
                           std::string("\x48\x00\x52\x0f\x0a\x09", 6) + "comm_size" +
                           std::string("\x48\x80\x80\x40", 4);
    ASSERT_EQ(expected.size(), 83u);
    EXPECT_EQ(ReadBytes(path), expected);

    EtReader reader(path);
    EXPECT_EQ(reader.GetMetadata().version(), "0.0.4");
    EXPECT_FALSE(reader.IsGzip());
    EtNode node;
    ASSERT_TRUE(reader.ReadNode(node));
    EXPECT_EQ(node.id, 1u);
    EXPECT_EQ(node.name, "all_reduce_4npus_1MB");
    EXPECT_EQ(node.type, EtNodeType::COMM_COLL_NODE);
    EXPECT_TRUE(node.Has(ET_IS_CPU_OP));
    EXPECT_FALSE(node.isCpuOp);
    EXPECT_TRUE(node.Has(ET_COMM_TYPE));
    EXPECT_EQ(node.commType, EtCollectiveType::ALL_REDUCE);
    EXPECT_EQ(node.commSize, 1048576u);
    EXPECT_FALSE(node.Has(ET_COMM_SRC));
    EXPECT_FALSE(node.Has(ET_PG_NAME));
    EXPECT_FALSE(reader.ReadNode(node));
    EXPECT_EQ(reader.GetNodesRead(), 1u);
}

// Section 4.2 of the reference: {all_reduce, all_gather, all_to_all, reduce_scatter} x
// {4, 8, 16} NPUs, one COMM_COLL node per file with id = rank, 1 MiB, comm_type 0/2/6/7,
// 81 to 88 bytes per file. Each file is also decoded independently, with protobuf's
// own stream reader, and must be consumed exactly to its end.
TEST(EtReader, EveryMicrobenchmarkLoadsAndMatchesTheReference)
{
    const std::map<std::string, EtCollectiveType> collectives{
        {"all_reduce", EtCollectiveType::ALL_REDUCE},
        {"all_gather", EtCollectiveType::ALL_GATHER},
        {"all_to_all", EtCollectiveType::ALL_TO_ALL},
        {"reduce_scatter", EtCollectiveType::REDUCE_SCATTER}};
    uint32_t filesRead = 0;
    for (const auto& [collective, commType] : collectives)
    {
        for (uint32_t npus : {4u, 8u, 16u})
        {
            std::string variant = std::to_string(npus) + "npus_1MB";
            std::string prefix =
                kMicrobenchmarks + "/" + collective + "/" + variant + "/" + collective;
            ASSERT_EQ(DiscoverEtRankCount(prefix), npus) << prefix;
            CheckEtRankFiles(prefix, npus);
            for (uint32_t rank = 0; rank < npus; ++rank)
            {
                std::string path = EtRankFilePath(prefix, rank);
                SCOPED_TRACE(path);
                EtTrace trace = EtTrace::Load(path);
                ++filesRead;
                EXPECT_EQ(trace.GetMetadata().version(), "0.0.4");
                ASSERT_EQ(trace.GetNodeCount(), 1u);
                const EtNode& node = trace.GetNode(0);
                EXPECT_EQ(node.id, rank);
                EXPECT_EQ(node.name, collective + "_" + variant);
                EXPECT_EQ(node.type, EtNodeType::COMM_COLL_NODE);
                EXPECT_EQ(node.commType, commType);
                EXPECT_EQ(node.commSize, 1u << 20);
                EXPECT_TRUE(node.Has(ET_IS_CPU_OP));
                EXPECT_FALSE(node.isCpuOp);
                EXPECT_TRUE(node.dataDeps.empty());
                EXPECT_EQ(trace.GetGraph().GetRoots(), std::vector<uint32_t>{0});

                std::string bytes = ReadBytes(path);
                EXPECT_GE(bytes.size(), 81u);
                EXPECT_LE(bytes.size(), 88u);
                google::protobuf::io::CodedInputStream in(
                    reinterpret_cast<const uint8_t*>(bytes.data()), static_cast<int>(bytes.size()));
                uint32_t length = 0;
                ChakraProtoMsg::GlobalMetadata metadata;
                ChakraProtoMsg::Node raw;
                ASSERT_TRUE(in.ReadVarint32(&length));
                auto limit = in.PushLimit(static_cast<int>(length));
                ASSERT_TRUE(metadata.ParseFromCodedStream(&in));
                in.PopLimit(limit);
                ASSERT_TRUE(in.ReadVarint32(&length));
                limit = in.PushLimit(static_cast<int>(length));
                ASSERT_TRUE(raw.ParseFromCodedStream(&in));
                in.PopLimit(limit);
                EXPECT_EQ(in.CurrentPosition(), static_cast<int>(bytes.size()));
                EXPECT_EQ(raw.id(), node.id);
                ASSERT_EQ(raw.attr_size(), 3);
                EXPECT_EQ(raw.attr(1).name(), "comm_type");
                EXPECT_EQ(raw.attr(1).int64_val(), static_cast<int64_t>(commType));
                EXPECT_EQ(raw.attr(2).name(), "comm_size");
                EXPECT_EQ(static_cast<uint64_t>(raw.attr(2).int64_val()), node.commSize);
            }
        }
    }
    EXPECT_EQ(filesRead, 4u * (4 + 8 + 16));
}

// Producers write comm_size as int64 (chakra, ASTRA-sim), uint64 (mpi converter, old
// text converter), int32 (STG ranks): every integer kind must read the same value.
TEST(EtReader, NumericAttributesAcceptEveryIntegerKind)
{
    ScratchDir dir;
    using Attr = ChakraProtoMsg::AttributeProto;
    const std::vector<std::function<void(Attr&)>> kinds{
        [](Attr& a) { a.set_int32_val(65536); },
        [](Attr& a) { a.set_int64_val(65536); },
        [](Attr& a) { a.set_uint32_val(65536); },
        [](Attr& a) { a.set_uint64_val(65536); },
        [](Attr& a) { a.set_sint32_val(65536); },
        [](Attr& a) { a.set_sint64_val(65536); },
        [](Attr& a) { a.set_fixed32_val(65536); },
        [](Attr& a) { a.set_fixed64_val(65536); },
        [](Attr& a) { a.set_sfixed32_val(65536); },
        [](Attr& a) { a.set_sfixed64_val(65536); },
    };
    for (size_t k = 0; k < kinds.size(); ++k)
    {
        SCOPED_TRACE("kind " + std::to_string(k));
        EtNode node = ReadSingleNode(dir, NodeWithAttribute("comm_size", kinds[k]));
        EXPECT_TRUE(node.Has(ET_COMM_SIZE));
        EXPECT_EQ(node.commSize, 65536u);
        node = ReadSingleNode(dir, NodeWithAttribute("comm_src", kinds[k]));
        EXPECT_EQ(node.commSrc, 65536);
        node = ReadSingleNode(dir, NodeWithAttribute("comm_tag", kinds[k]));
        EXPECT_EQ(node.commTag, 65536);
    }
    EtNode node = ReadSingleNode(
        dir, NodeWithAttribute("comm_size", [](Attr& a) { a.set_uint64_val(uint64_t{5} << 32); }));
    EXPECT_EQ(node.commSize, uint64_t{5} << 32) << "64-bit sizes survive";
    node =
        ReadSingleNode(dir, NodeWithAttribute("comm_tag", [](Attr& a) { a.set_sint64_val(-7); }));
    EXPECT_EQ(node.commTag, -7);
    node =
        ReadSingleNode(dir, NodeWithAttribute("num_ops", [](Attr& a) { a.set_int64_val(1e12); }));
    EXPECT_EQ(node.numOps, uint64_t{1000000000000});
}

// is_cpu_op is bool_val in chakra and ASTRA-sim traces but int32_val 0 in STG's.
TEST(EtReader, IsCpuOpAcceptsBoolOrInteger)
{
    ScratchDir dir;
    using Attr = ChakraProtoMsg::AttributeProto;
    EXPECT_TRUE(
        ReadSingleNode(dir, NodeWithAttribute("is_cpu_op", [](Attr& a) { a.set_bool_val(true); }))
            .isCpuOp);
    EXPECT_TRUE(
        ReadSingleNode(dir, NodeWithAttribute("is_cpu_op", [](Attr& a) { a.set_int32_val(1); }))
            .isCpuOp);
    EtNode node =
        ReadSingleNode(dir, NodeWithAttribute("is_cpu_op", [](Attr& a) { a.set_int32_val(0); }));
    EXPECT_TRUE(node.Has(ET_IS_CPU_OP));
    EXPECT_FALSE(node.isCpuOp);
    EXPECT_TRUE(
        ReadSingleNode(dir, NodeWithAttribute("is_cpu_op", [](Attr& a) { a.set_uint64_val(1); }))
            .isCpuOp);
    node = ReadSingleNode(dir, MakeNode(3));
    EXPECT_FALSE(node.Has(ET_IS_CPU_OP)) << "absent stays distinguishable from false";
    EXPECT_FALSE(node.isCpuOp);
}

TEST(EtReader, ReadsTheOtherAttributesAstraSimUses)
{
    ScratchDir dir;
    ChakraProtoMsg::Node proto = MakeNode(9, ChakraProtoMsg::COMM_COLL_NODE);
    auto add = [&proto](const char* name)
    {
        auto* a = proto.add_attr();
        a->set_name(name);
        return a;
    };
    add("pg_name")->set_string_val("3");
    auto* dims = add("involved_dim")->mutable_bool_list();
    for (bool d : {true, false, true})
    {
        dims->add_values(d);
    }
    add("comm_priority")->set_int32_val(2);
    add("tensor_size")->set_uint64_val(4096);
    add("rf_id")->set_int64_val(77);       // PyTorch extra: ignored
    add("op_schema")->set_string_val("x"); // ignored
    add("comm_size")->set_int64_val(100);
    add("comm_size")->set_int64_val(200); // a second one: the first wins
    EtNode node = ReadSingleNode(dir, proto);
    EXPECT_EQ(node.pgName, "3");
    EXPECT_EQ(node.involvedDimCount, 3);
    EXPECT_EQ(node.involvedDims, 0b101u);
    EXPECT_EQ(node.commPriority, 2);
    EXPECT_EQ(node.tensorSize, 4096u);
    EXPECT_EQ(node.commSize, 100u);
    EXPECT_EQ(node.present,
              ET_PG_NAME | ET_INVOLVED_DIM | ET_COMM_PRIORITY | ET_TENSOR_SIZE | ET_COMM_SIZE);

    // A METADATA node keeps inputs.values: ASTRA-sim reads its process groups there.
    ChakraProtoMsg::Node metadata = MakeNode(1, ChakraProtoMsg::METADATA_NODE);
    std::string groups = R"(['[{"pg_name": "0", "ranks": [], "group_size": 8}]'])";
    metadata.mutable_inputs()->set_values(groups);
    EXPECT_EQ(ReadSingleNode(dir, metadata).inputsValues, groups);

    // pg_name written as an integer reads as its decimal text.
    node = ReadSingleNode(dir, NodeWithAttribute("pg_name", [](auto& a) { a.set_int64_val(12); }));
    EXPECT_EQ(node.pgName, "12");
}

TEST(EtReader, UnusableAttributeNamesFileNodeAndAttribute)
{
    ScratchDir dir;
    std::string path = dir.File("single.0.et");
    using Attr = ChakraProtoMsg::AttributeProto;
    auto expectRejected = [&](const std::string& name,
                              const std::function<void(Attr&)>& set,
                              const std::string& shown)
    {
        SCOPED_TRACE(name + " " + shown);
        WriteTrace(path, {NodeWithAttribute(name, set)});
        ExpectInputError([&] { EtTrace::Load(path); }, {path, "node 42", name, shown});
    };
    expectRejected(
        "comm_size", [](Attr& a) { a.set_double_val(2.5); }, "double_val 2.5");
    expectRejected(
        "comm_size", [](Attr& a) { a.set_int64_val(-4); }, "int64_val -4");
    expectRejected(
        "comm_size", [](Attr& a) { a.set_string_val("1MB"); }, "string_val");
    expectRejected(
        "is_cpu_op", [](Attr& a) { a.set_int32_val(2); }, "int32_val 2");
    expectRejected(
        "comm_src", [](Attr& a) { a.set_int64_val(int64_t{1} << 40); }, "int64_val");
    expectRejected(
        "comm_type", [](Attr& a) { a.set_int64_val(12); }, "int64_val 12");
    expectRejected(
        "involved_dim", [](Attr& a) { a.set_bool_val(true); }, "bool_val");
    expectRejected(
        "comm_tag", [](Attr& a) { a.set_uint64_val(~uint64_t{0}); }, "uint64_val");

    // collectiveapi puts the node type (5) in comm_type of a SEND: valid number, kept;
    // an out-of-range value on a node that is no collective is ignored.
    EtNode node = ReadSingleNode(
        dir,
        NodeWithAttribute(
            "comm_type", [](Attr& a) { a.set_int64_val(12); }, ChakraProtoMsg::COMM_SEND_NODE));
    EXPECT_FALSE(node.Has(ET_COMM_TYPE));
}

// Fields of later schemas (here Node.storage = 11 and NodeType 9 of an open pull
// request) must be skipped, not rejected.
TEST(EtReader, SkipsUnknownFieldsAndKeepsUnknownNodeTypes)
{
    ScratchDir dir;
    std::string path = dir.File("future.0.et");
    ChakraProtoMsg::Node known = MakeNode(5);
    known.set_type(static_cast<ChakraProtoMsg::NodeType>(9));
    known.set_duration_micros(12);
    // Field 11, length-delimited, holding {field 1: varint 3}; then field 40 as fixed64.
    std::string unknown =
        std::string("\x5a\x02\x08\x03", 4) + std::string("\xc1\x02", 2) + std::string(8, '\x01');
    std::string metadataWithUnknown = MetadataBytes() + std::string("\x18\x07", 2);
    WriteBytes(path, Frame(metadataWithUnknown) + Frame(known.SerializeAsString() + unknown));
    EtTrace trace = EtTrace::Load(path);
    ASSERT_EQ(trace.GetNodeCount(), 1u);
    const EtNode& node = trace.GetNode(0);
    EXPECT_EQ(node.id, 5u);
    EXPECT_EQ(static_cast<int>(node.type), 9);
    EXPECT_FALSE(IsKnownNodeType(node.type));
    EXPECT_EQ(ToString(node.type), "NODE_TYPE_9");
    EXPECT_EQ(node.durationMicros, 12u);
    EXPECT_EQ(trace.GetMetadata().version(), "0.0.4");
}

// Writers emit deps packed; a conforming reader also accepts them unpacked.
TEST(EtReader, AcceptsPackedAndUnpackedDependencies)
{
    ScratchDir dir;
    std::string path = dir.File("deps.0.et");
    ChakraProtoMsg::Node parentA = MakeNode(300);
    ChakraProtoMsg::Node parentB = MakeNode(2);
    ChakraProtoMsg::Node child = MakeNode(7);
    // data_deps unpacked (tag 0x28 per element), ctrl_deps packed (tag 0x22).
    std::string deps = "\x28" + Varint(300) + "\x28" + Varint(2) + "\x22" + Varint(2) + Varint(300);
    WriteBytes(path,
               Frame(MetadataBytes()) + Frame(parentA.SerializeAsString()) +
                   Frame(parentB.SerializeAsString()) + Frame(child.SerializeAsString() + deps));
    EtTrace trace = EtTrace::Load(path);
    const EtNode& node = trace.GetNode(2);
    EXPECT_EQ(node.dataDeps, (EtIdList{300, 2}));
    EXPECT_EQ(node.ctrlDeps, (EtIdList{300}));
    EXPECT_EQ(trace.GetGraph().GetParentCount(2), 2u);
}

TEST(EtReader, AcceptsZeroLengthMessages)
{
    ScratchDir dir;
    std::string path = dir.File("empty-messages.0.et");
    WriteBytes(path, std::string("\x00\x00", 2)); // empty GlobalMetadata, one empty Node
    EtTrace trace = EtTrace::Load(path);
    EXPECT_EQ(trace.GetMetadata().version(), "");
    ASSERT_EQ(trace.GetNodeCount(), 1u);
    EXPECT_EQ(trace.GetNode(0).id, 0u);
    EXPECT_EQ(trace.GetNode(0).type, EtNodeType::INVALID_NODE);

    WriteBytes(path, std::string("\x00", 1)); // metadata only: a trace with no node
    EXPECT_EQ(EtTrace::Load(path).GetNodeCount(), 0u);
}

// gzip is recognised by its magic bytes, whatever the file is called; the compressed
// file here is made by zlib directly from an ASTRA-sim file, not by our writer.
TEST(EtReader, ReadsGzipCompressedTraces)
{
    ScratchDir dir;
    std::string plainPath = kMicrobenchmarks + "/all_to_all/8npus_1MB/all_to_all.5.et";
    std::string plain = ReadBytes(plainPath);
    std::string gzipPath = dir.File("all_to_all.5.et");
    gzFile out = gzopen(gzipPath.c_str(), "wb");
    ASSERT_NE(out, nullptr);
    ASSERT_EQ(gzwrite(out, plain.data(), plain.size()), static_cast<int>(plain.size()));
    ASSERT_EQ(gzclose(out), Z_OK);
    std::string compressed = ReadBytes(gzipPath);
    ASSERT_EQ(compressed.substr(0, 2), "\x1f\x8b");
    ASSERT_NE(compressed, plain);

    EtReader reader(gzipPath);
    EXPECT_TRUE(reader.IsGzip());
    EtTrace fromGzip = EtTrace::Load(gzipPath);
    EtTrace fromPlain = EtTrace::Load(plainPath);
    ASSERT_EQ(fromGzip.GetNodeCount(), 1u);
    EXPECT_EQ(fromGzip.GetNode(0), fromPlain.GetNode(0));
    EXPECT_EQ(fromGzip.GetNode(0).commType, EtCollectiveType::ALL_TO_ALL);

    // A gzip stream cut short is reported, not read as a shorter trace.
    WriteBytes(gzipPath, compressed.substr(0, compressed.size() - 12));
    ExpectInputError([&] { EtTrace::Load(gzipPath); }, {gzipPath, "gzip"});
}

TEST(EtReader, TruncatedFileNamesFileAndLastNode)
{
    ScratchDir dir;
    std::string path = dir.File("cut.0.et");
    ChakraProtoMsg::Node big = MakeNode(30);
    big.set_name(std::string(200, 'n')); // a message over 127 bytes: two-byte length
    WriteTrace(path, {MakeNode(10), MakeNode(20), big});
    std::string bytes = ReadBytes(path);

    WriteBytes(path, bytes.substr(0, bytes.size() - 5)); // inside the last message
    ExpectInputError([&] { EtTrace::Load(path); },
                     {path, "truncated", "message 3", "after node 20"});

    size_t bigStart = bytes.size() - Frame(big.SerializeAsString()).size();
    WriteBytes(path, bytes.substr(0, bigStart + 1)); // inside the two-byte length varint
    ExpectInputError([&] { EtTrace::Load(path); }, {path, "truncated", "after node 20"});
}

TEST(EtReader, BadVarintNamesFileAndLastNode)
{
    ScratchDir dir;
    std::string path = dir.File("varint.0.et");
    WriteTrace(path, {MakeNode(10), MakeNode(11)});
    WriteBytes(path, ReadBytes(path) + std::string(6, '\xff'));
    ExpectInputError([&] { EtTrace::Load(path); },
                     {path, "bad length varint", "message 3", "after node 11"});

    // Five bytes but a value above 32 bits.
    WriteBytes(path, Frame(MetadataBytes()) + std::string("\xff\xff\xff\xff\x7f", 5));
    ExpectInputError([&] { EtTrace::Load(path); }, {path, "32 bits", "before the first node"});
}

TEST(EtReader, UnparsableMessagesAreReported)
{
    ScratchDir dir;
    std::string path = dir.File("garbage.0.et");
    // Field 1 with wire type 7 does not exist.
    WriteBytes(path, Frame(MetadataBytes()) + Frame(std::string("\x0f\x01", 2)));
    ExpectInputError([&] { EtTrace::Load(path); }, {path, "not a valid Chakra Node"});

    WriteBytes(path, "");
    ExpectInputError([&] { EtTrace::Load(path); }, {path, "is empty"});

    // A pre-0.0.4 trace starts directly with a Node: field 1 is its varint id.
    WriteBytes(path, Frame(MakeNode(4).SerializeAsString()));
    ExpectInputError([&] { EtTrace::Load(path); }, {path, "older than schema 0.0.4"});

    std::string missing = dir.File("absent.0.et");
    ExpectInputError([&] { EtTrace::Load(missing); }, {missing, "no such file"});
}

TEST(EtReader, DuplicateIdNamesFileAndNode)
{
    ScratchDir dir;
    std::string path = dir.File("dup.0.et");
    WriteTrace(path, {MakeNode(3), MakeNode(7), MakeNode(5), MakeNode(7)});
    ExpectInputError([&] { EtTrace::Load(path); },
                     {path, "node 7", "duplicate node id", "2 and 4"});
}

TEST(EtReader, MissingDataDependencyNamesFileAndNode)
{
    ScratchDir dir;
    std::string path = dir.File("missing.0.et");
    ChakraProtoMsg::Node child = MakeNode(5);
    child.add_data_deps(1);
    child.add_data_deps(99);
    WriteTrace(path, {MakeNode(1), child});
    ExpectInputError([&] { EtTrace::Load(path); },
                     {path, "node 5", "data dependency on node 99", "not in the file"});
}

TEST(EtReader, CycleNamesFileAndTheNodesOnIt)
{
    ScratchDir dir;
    std::string path = dir.File("cycle.0.et");
    // 1 <- 2 <- 3 <- 4 <- 2: a cycle 2, 3, 4 behind root 1, plus 5 hanging off 4.
    std::vector<ChakraProtoMsg::Node> nodes{
        MakeNode(1), MakeNode(2), MakeNode(3), MakeNode(4), MakeNode(5)};
    nodes[1].add_data_deps(1);
    nodes[1].add_data_deps(4);
    nodes[2].add_data_deps(2);
    nodes[3].add_data_deps(3);
    nodes[4].add_data_deps(4);
    WriteTrace(path, nodes);
    std::string message =
        ExpectInputError([&] { EtTrace::Load(path); }, {path, "dependency cycle", "(3 nodes)"});
    for (const char* id : {"2 depends on", "3 depends on", "4 depends on"})
    {
        EXPECT_NE(message.find(id), std::string::npos) << message;
    }
    EXPECT_EQ(message.find("1 depends on"), std::string::npos) << message;

    nodes = {MakeNode(8)};
    nodes[0].add_data_deps(8);
    WriteTrace(path, nodes);
    ExpectInputError([&] { EtTrace::Load(path); },
                     {path, "node 8", "dependency cycle: 8 depends on 8 (1 nodes)"});
}

// PyTorch traces put the caller op in ctrl_deps, often a node that is not in the file;
// STG uses ctrl_deps as real edges. Dangling ones are counted; edges only on request.
TEST(EtReader, CtrlDepsAreOptInAndDanglingOnesAreCounted)
{
    ScratchDir dir;
    std::string path = dir.File("ctrl.0.et");
    std::vector<ChakraProtoMsg::Node> nodes{MakeNode(1), MakeNode(2), MakeNode(3)};
    nodes[1].add_ctrl_deps(1);
    nodes[1].add_ctrl_deps(1000); // absent
    nodes[2].add_data_deps(1);
    nodes[2].add_ctrl_deps(2000); // absent
    WriteTrace(path, nodes);

    EtTrace dataOnly = EtTrace::Load(path);
    EXPECT_EQ(dataOnly.GetDanglingCtrlDepCount(), 2u);
    EXPECT_FALSE(dataOnly.GetGraph().UsesCtrlDeps());
    EXPECT_EQ(dataOnly.GetGraph().GetEdgeCount(), 1u);
    EXPECT_EQ(dataOnly.GetGraph().GetRoots(), (std::vector<uint32_t>{0, 1}));

    EtTrace withCtrl = EtTrace::Load(path, EtLoadOptions{true});
    EXPECT_EQ(withCtrl.GetDanglingCtrlDepCount(), 2u);
    EXPECT_EQ(withCtrl.GetGraph().GetEdgeCount(), 2u);
    EXPECT_EQ(withCtrl.GetGraph().GetRoots(), std::vector<uint32_t>{0});
    EtIndexRange children = withCtrl.GetGraph().GetChildren(0);
    EXPECT_EQ(std::vector<uint32_t>(children.begin(), children.end()),
              (std::vector<uint32_t>{1, 2}));

    // A cycle made of ctrl_deps only matters when they are edges.
    nodes[0].add_ctrl_deps(2);
    WriteTrace(path, nodes);
    EXPECT_NO_THROW(EtTrace::Load(path));
    ExpectInputError([&] { EtTrace::Load(path, EtLoadOptions{true}); }, {path, "dependency cycle"});
}

// Parents may follow their children in the file; the graph is by position.
TEST(EtReader, GraphHandlesForwardReferencesAndDiamonds)
{
    ScratchDir dir;
    std::string path = dir.File("diamond.0.et");
    // File order: 40, 20, 30, 10. Edges 10->20, 10->30, 20->40, 30->40.
    std::vector<ChakraProtoMsg::Node> nodes{MakeNode(40), MakeNode(20), MakeNode(30), MakeNode(10)};
    nodes[0].add_data_deps(20);
    nodes[0].add_data_deps(30);
    nodes[1].add_data_deps(10);
    nodes[2].add_data_deps(10);
    WriteTrace(path, nodes);
    EtTrace trace = EtTrace::Load(path);
    const EtDependencyGraph& graph = trace.GetGraph();
    EXPECT_EQ(graph.GetRoots(), std::vector<uint32_t>{3});
    EXPECT_EQ(graph.GetParentCount(0), 2u);
    EXPECT_EQ(graph.GetParentCount(3), 0u);
    EXPECT_EQ(graph.GetEdgeCount(), 4u);
    EtIndexRange fromRoot = graph.GetChildren(3);
    EXPECT_EQ(std::vector<uint32_t>(fromRoot.begin(), fromRoot.end()),
              (std::vector<uint32_t>{1, 2}));
    EXPECT_EQ(graph.GetChildren(1).size(), 1u);
    EXPECT_EQ(*graph.GetChildren(1).begin(), 0u);
    EXPECT_EQ(graph.GetChildren(0).size(), 0u);
    EXPECT_EQ(trace.FindNode(30), std::optional<uint32_t>(2));
    EXPECT_EQ(trace.FindNode(31), std::nullopt);
}

TEST(EtReader, MissingRankFileIsNamed)
{
    ScratchDir dir;
    std::string prefix = dir.File("workload");
    ExpectInputError([&] { DiscoverEtRankCount(prefix); }, {prefix + ".0.et", "missing rank file"});
    for (uint32_t rank : {0u, 1u, 3u})
    {
        WriteTrace(EtRankFilePath(prefix, rank), {MakeNode(rank)});
    }
    WriteBytes(prefix + ".01.et", ""); // not a rank name ASTRA-sim writes
    WriteBytes(prefix + ".x.et", "");  // not a rank
    WriteBytes(prefix + "2.2.et", ""); // another prefix
    ExpectInputError([&] { DiscoverEtRankCount(prefix); },
                     {prefix + ".2.et", "missing rank file", "rank 3 exists"});
    ExpectInputError([&] { CheckEtRankFiles(prefix, 3); },
                     {prefix + ".2.et", "missing rank file", "3 ranks"});
    EXPECT_NO_THROW(CheckEtRankFiles(prefix, 2));

    WriteTrace(EtRankFilePath(prefix, 2), {MakeNode(2)});
    EXPECT_EQ(DiscoverEtRankCount(prefix), 4u);
    ExpectInputError([&] { CheckEtRankFiles(prefix, 5); }, {prefix + ".4.et"});
}

// The streaming reader returns nodes one at a time, without building the trace.
TEST(EtReader, StreamsNodesInFileOrder)
{
    ScratchDir dir;
    std::string path = dir.File("stream.0.et");
    std::vector<ChakraProtoMsg::Node> nodes;
    for (uint64_t id = 100; id > 90; --id)
    {
        nodes.push_back(MakeNode(id));
    }
    WriteTrace(path, nodes);
    EtReader reader(path);
    ChakraProtoMsg::Node raw;
    uint64_t expected = 100;
    while (reader.ReadNode(raw))
    {
        EXPECT_EQ(raw.id(), expected--);
    }
    EXPECT_EQ(reader.GetNodesRead(), 10u);
}
