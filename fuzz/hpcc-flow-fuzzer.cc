/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
/**
 * \file
 * \ingroup mlfabric-fuzz
 * Fuzzes the HPCC simulator's flow file reader: the input is a flow.txt.
 */
#include "fuzz-input.h"

#include "ns3/hpcc-flow-file.h"

namespace
{

/** Check what the reader promises of every flow. \param flows the result */
void
CheckFlows(const std::vector<ns3::HpccFlow>& flows)
{
    using ns3::Expect;
    uint32_t line = 0;
    for (const auto& f : flows)
    {
        Expect(f.src != f.dst, "a flow joins two hosts");
        Expect(f.pg <= 7, "pg is at most 7");
        Expect(f.bytes >= 1, "a flow carries at least one byte");
        Expect(!f.start.IsStrictlyNegative(), "a flow starts at a time that is not negative");
        Expect(f.line > line, "flows keep the order of their lines");
        line = f.line;
    }
    const uint32_t unsorted = ns3::FirstUnsortedFlowLine(flows);
    Expect(unsorted == 0 || unsorted > flows.front().line, "an unsorted line follows the first");
}

} // namespace

extern "C" int
LLVMFuzzerInitialize(int*, char***)
{
    ns3::InitializeFuzzer();
    return 0;
}

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string path = ns3::WriteFuzzInput(data, size, "flow.txt");
    ns3::RunReader([&]() { CheckFlows(ns3::ReadHpccFlows(path)); });
    return 0;
}
