/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
/**
 * \file
 * \ingroup mlfabric-fuzz
 * Fuzzes the ASTRA-sim system configuration reader: the input is the JSON text.
 */
#include "fuzz-input.h"

#include "ns3/system-config.h"

#include <string>

namespace
{

/** Check the documented bounds of a configuration. \param config the result */
void
CheckConfig(const ns3::SystemConfig& config)
{
    using ns3::Expect;
    Expect(config.activeChunksPerDimension >= 1, "active-chunks-per-dimension is at least 1");
    Expect(config.GetEndpointDelayNs() <= 9200000000000000,
           "endpoint-delay in picoseconds fits 63 bits");
    Expect(config.preferredDatasetSplits >= 1, "preferred-dataset-splits is at least 1");
    Expect(config.localMemBwGBps >= 0 && config.peakPerfTflops >= 0, "rates are not negative");
    Expect(config.logGpL >= 0 && config.logGpO >= 0 && config.logGpG >= 0 && config.logGpBigG >= 0,
           "LogGP parameters are not negative");
    for (const auto* list : {&config.allReduceImplementation,
                             &config.reduceScatterImplementation,
                             &config.allGatherImplementation,
                             &config.allToAllImplementation})
    {
        for (const auto& spec : *list)
        {
            Expect(ns3::ParseAlgorithmSpec(ns3::ToString(spec), "fuzz") == spec,
                   "an implementation reads back from its name");
        }
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
    const std::string text(reinterpret_cast<const char*>(data), size);
    ns3::RunReader([&]() { CheckConfig(ns3::ParseSystemConfig(text, "system.json")); });
    return 0;
}
