/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
/**
 * \file
 * \ingroup mlfabric-fuzz
 * Fuzzes the HPCC simulator's configuration reader: the input is a config.txt.
 */
#include "fuzz-input.h"

#include "ns3/hpcc-config.h"

namespace
{

/** Check the ranges the reader promises. \param c the result */
void
CheckConfig(const ns3::HpccConfig& c)
{
    using ns3::Expect;
    Expect(c.packetPayloadSize >= 64 && c.packetPayloadSize <= 9000,
           "PACKET_PAYLOAD_SIZE is in [64, 9000]");
    Expect(c.simulatorStopTime > 0, "SIMULATOR_STOP_TIME is positive");
    Expect(c.errorRatePerLink >= 0 && c.errorRatePerLink <= 1, "ERROR_RATE_PER_LINK is in [0, 1]");
    Expect(c.bufferSizeMiB >= 1, "BUFFER_SIZE is at least 1 MiB");
    for (const auto& [rate, entry] : c.ecn)
    {
        Expect(rate >= 1, "an ECN map rate is at least 1 bit/s");
        Expect(entry.pmax >= 0 && entry.pmax <= 1, "PMAX_MAP values are in [0, 1]");
    }
    for (const auto& [key, line] : c.lines)
    {
        Expect(c.Has(key) && line >= 1, "every key read has its line");
    }
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
    const std::string path = ns3::WriteFuzzInput(data, size, "config.txt");
    ns3::RunReader([&]() { CheckConfig(ns3::ReadHpccConfig(path)); });
    return 0;
}
