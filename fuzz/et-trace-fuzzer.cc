/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
/**
 * \file
 * \ingroup mlfabric-fuzz
 * Fuzzes the Chakra ET reader: the input is a whole .et file, plain or gzip.
 *
 * A gzip input is mutated in its decompressed form and compressed again (three times in
 * four), so that the fuzzer explores the trace inside as well as corrupt gzip data.
 */
#include "fuzz-input.h"

#include "ns3/et-trace.h"

#include <google/protobuf/stubs/logging.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t maxSize);

namespace
{

/** Largest decompressed input the mutator works on. */
constexpr size_t kMaxInflated = 1 << 20;

/**
 * \param data gzip bytes
 * \param size their number
 * \param out set to the decompressed bytes
 * \return false if the data is not a complete gzip stream of at most kMaxInflated bytes
 */
bool
Gunzip(const uint8_t* data, size_t size, std::vector<uint8_t>& out)
{
    z_stream stream{};
    if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK)
    {
        return false;
    }
    out.resize(kMaxInflated);
    stream.next_in = const_cast<uint8_t*>(data);
    stream.avail_in = static_cast<uInt>(size);
    stream.next_out = out.data();
    stream.avail_out = static_cast<uInt>(out.size());
    const int status = inflate(&stream, Z_FINISH);
    out.resize(stream.total_out);
    inflateEnd(&stream);
    return status == Z_STREAM_END;
}

/**
 * \param data bytes
 * \param size their number
 * \param out set to their gzip compression
 * \return false on a zlib failure
 */
bool
Gzip(const uint8_t* data, size_t size, std::vector<uint8_t>& out)
{
    z_stream stream{};
    if (deflateInit2(&stream, Z_BEST_SPEED, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) !=
        Z_OK)
    {
        return false;
    }
    out.resize(deflateBound(&stream, static_cast<uLong>(size)) + 32);
    stream.next_in = const_cast<uint8_t*>(data);
    stream.avail_in = static_cast<uInt>(size);
    stream.next_out = out.data();
    stream.avail_out = static_cast<uInt>(out.size());
    const int status = deflate(&stream, Z_FINISH);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    return status == Z_STREAM_END;
}

/** Check what the trace promises about its nodes and graph. */
void
CheckTrace(const ns3::EtTrace& trace)
{
    using ns3::Expect;
    const auto& graph = trace.GetGraph();
    uint64_t edges = 0;
    uint64_t parents = 0;
    for (uint32_t i = 0; i < trace.GetNodeCount(); ++i)
    {
        const auto found = trace.FindNode(trace.GetNode(i).id);
        Expect(found && *found == i, "FindNode finds every node at its position");
        for (uint32_t child : graph.GetChildren(i))
        {
            Expect(child < trace.GetNodeCount(), "children are node positions");
            ++edges;
        }
        parents += graph.GetParentCount(i);
    }
    Expect(edges == graph.GetEdgeCount() && parents == edges,
           "children, parents and edge count agree");
}

} // namespace

extern "C" int
LLVMFuzzerInitialize(int*, char***)
{
    ns3::InitializeFuzzer();
    // protobuf logs every string that is not UTF-8; the reader reports the node anyway.
    google::protobuf::SetLogHandler(nullptr);
    return 0;
}

extern "C" size_t
LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t maxSize, unsigned int seed)
{
    std::vector<uint8_t> inflated;
    const bool gzip = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
    if (!gzip || seed % 4 == 0 || !Gunzip(data, size, inflated))
    {
        return LLVMFuzzerMutate(data, size, maxSize);
    }
    const size_t used = inflated.size();
    inflated.resize(std::max(used * 2, size_t{64}));
    inflated.resize(LLVMFuzzerMutate(inflated.data(), used, inflated.size()));
    std::vector<uint8_t> compressed;
    if (!Gzip(inflated.data(), inflated.size(), compressed) || compressed.size() > maxSize)
    {
        return LLVMFuzzerMutate(data, size, maxSize);
    }
    std::memcpy(data, compressed.data(), compressed.size());
    return compressed.size();
}

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string path = ns3::WriteFuzzInput(data, size, "trace.0.et");
    // With ctrl_deps as dependencies a trace can only fail where it also fails without
    // them, or on a cycle through ctrl_deps: the second read is for traces that load.
    bool loaded = false;
    ns3::RunReader(
        [&]()
        {
            CheckTrace(ns3::EtTrace::Load(path));
            loaded = true;
        });
    if (loaded)
    {
        ns3::RunReader(
            [&]()
            {
                ns3::EtLoadOptions options;
                options.useCtrlDeps = true;
                CheckTrace(ns3::EtTrace::Load(path, options));
            });
    }
    return 0;
}
