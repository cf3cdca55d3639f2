/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-system.h"

#include "ns3/reduction-engine.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>
#include <vector>

namespace ns3
{

namespace
{

/** \return the packet level's reduction engine settings, from its attribute defaults */
std::string
DescribePacketReductionEngine()
{
    Ptr<ReductionEngine> engine = CreateObject<ReductionEngine>();
    UintegerValue buffer;
    UintegerValue window;
    DataRateValue rate;
    TimeValue latency;
    engine->GetAttribute("BufferBytes", buffer);
    engine->GetAttribute("WindowBytes", window);
    engine->GetAttribute("ReductionRate", rate);
    engine->GetAttribute("Latency", latency);
    std::ostringstream text;
    text << "reduction buffer " << buffer.Get() << " B, ";
    if (window.Get() == 0)
    {
        text << "a reduction's window all of its free bytes";
    }
    else
    {
        text << "at most " << window.Get() << " B per reduction";
    }
    text << ", rate ";
    if (rate.Get().GetBitRate() == 0)
    {
        text << "unbounded";
    }
    else
    {
        text << rate.Get().GetBitRate() / 1e9 << " Gb/s";
    }
    text << ", latency " << latency.Get().GetNanoSeconds() << " ns";
    return text.str();
}

/** \return "[ring, direct]" */
std::string
DescribeImplementation(const std::vector<AlgorithmSpec>& specs)
{
    std::string text = "[";
    for (size_t i = 0; i < specs.size(); ++i)
    {
        text += (i ? ", " : "") + ToString(specs[i]);
    }
    return text + "]";
}

} // namespace

SystemConfig
DefaultReplaySystemConfig(size_t dimensions)
{
    SystemConfig c;
    c.source = "default system";
    const std::vector<AlgorithmSpec> ring(std::max<size_t>(dimensions, 1), AlgorithmSpec{});
    c.allReduceImplementation = ring;
    c.reduceScatterImplementation = ring;
    c.allGatherImplementation = ring;
    c.allToAllImplementation = ring;
    return c;
}

SystemConfig
TrimReplaySystemConfig(SystemConfig system, size_t dimensions)
{
    for (auto* list : {&system.allReduceImplementation,
                       &system.reduceScatterImplementation,
                       &system.allGatherImplementation,
                       &system.allToAllImplementation})
    {
        if (list->size() > dimensions)
        {
            list->resize(dimensions);
        }
    }
    return system;
}

std::string
DescribeReplaySystem(const SystemConfig& c)
{
    std::ostringstream text;
    const char* policy = c.schedulingPolicy == SchedulingPolicy::Lifo   ? "LIFO"
                         : c.schedulingPolicy == SchedulingPolicy::Fifo ? "FIFO"
                                                                        : "EXPLICIT";
    text << c.source << ": " << policy << ", "
         << (c.collectiveOptimization == CollectiveOptimization::LocalBwAware ? "localBWAware"
                                                                              : "baseline")
         << ", " << c.preferredDatasetSplits << " split(s), " << c.activeChunksPerDimension
         << " active chunk(s) per dimension, endpoint delay " << c.GetEndpointDelayNs()
         << " ns, all-reduce " << DescribeImplementation(c.allReduceImplementation)
         << ", reduce-scatter " << DescribeImplementation(c.reduceScatterImplementation)
         << ", all-gather " << DescribeImplementation(c.allGatherImplementation) << ", all-to-all "
         << DescribeImplementation(c.allToAllImplementation);
    if (c.groupDecomposition == GroupDecompositionMode::MemberRing)
    {
        text << ", groups as one ring over their members (group-decomposition member-ring)";
    }
    for (const AlgorithmSpec& spec : c.allReduceImplementation)
    {
        if (IsInNetwork(spec.algorithm))
        {
            text << ", all-reduce reduced in the switch of its dimension (analytical, flow "
                    "and packet backends; at packet and flow level "
                 << DescribePacketReductionEngine() << ")";
            break;
        }
    }
    for (const auto* list : {&c.reduceScatterImplementation, &c.allGatherImplementation})
    {
        auto inSwitch =
            std::find_if(list->begin(),
                         list->end(),
                         [](const AlgorithmSpec& spec) { return IsInNetwork(spec.algorithm); });
        if (inSwitch != list->end())
        {
            const bool nvls = inSwitch->algorithm == CollectiveAlgorithm::Nvls;
            text << ", "
                 << (list == &c.reduceScatterImplementation ? "reduce-scatter" : "all-gather")
                 << " through the " << (nvls ? "scale-up " : "") << "switch of its dimension ("
                 << (nvls ? "nvls" : "inNetwork") << ": analytical, flow and packet backends)";
        }
    }
    for (const auto* list :
         {&c.allReduceImplementation, &c.reduceScatterImplementation, &c.allGatherImplementation})
    {
        const bool pat = std::any_of(list->begin(),
                                     list->end(),
                                     [](const AlgorithmSpec& spec)
                                     { return spec.algorithm == CollectiveAlgorithm::Pat; });
        if (pat)
        {
            text << ", pat as NCCL's PAT in its log-step form (all blocks of a step in one "
                    "message)";
            break;
        }
    }
    if (c.localMemBwGBps > 0)
    {
        text << ", local-mem-bw " << c.localMemBwGBps << " GB/s";
    }
    if (c.rooflineEnabled)
    {
        text << ", roofline " << c.peakPerfTflops << " TFLOPS";
    }
    return text.str();
}

} // namespace ns3
