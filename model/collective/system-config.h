/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_SYSTEM_CONFIG_H
#define MLFABRIC_SYSTEM_CONFIG_H

#include "ns3/collective-algorithm.h"
#include "ns3/collective-type.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * Order in which waiting collective chunks get a dimension queue.
 */
enum class SchedulingPolicy : uint8_t
{
    Lifo,     //!< the most recently issued collective first (ASTRA-sim's usual choice)
    Fifo,     //!< the oldest collective first
    Explicit, //!< by the trace's comm_priority, higher first
};

/**
 * \ingroup mlfabric-collective
 * How an all-reduce is spread over the dimensions.
 */
enum class CollectiveOptimization : uint8_t
{
    Baseline,     //!< a full all-reduce in every dimension, ascending
    LocalBwAware, //!< reduce-scatter up, all-reduce on the last dimension, all-gather down
};

/**
 * \ingroup mlfabric-collective
 * How a communicator group smaller than the world runs a collective.
 */
enum class GroupDecompositionMode : uint8_t
{
    Dimensions, //!< over the fabric dimensions its members span, as the world does
    MemberRing, //!< one ring over its sorted members, as ASTRA-sim 2.0 runs every group
};

/**
 * \ingroup mlfabric-collective
 * ASTRA-sim's system configuration (the --system-configuration JSON), every key of
 * ASTRA-sim 2.0 accepted, plus the command-line options that scale it.
 *
 * Units are ASTRA-sim's: times in ns, local-mem-bw in GB/s with GB = 10^9 B (so the
 * value is also bytes per ns), peak-perf in TFLOPS.
 */
struct SystemConfig
{
    std::string source{"<defaults>"}; //!< the file it came from, for messages

    SchedulingPolicy schedulingPolicy{SchedulingPolicy::Lifo}; //!< scheduling-policy
    CollectiveOptimization collectiveOptimization{
        CollectiveOptimization::Baseline}; //!< collective-optimization
    uint64_t endpointDelayNs{10};          //!< endpoint-delay: hand-off of each message, ns
    uint32_t activeChunksPerDimension{1};  //!< active-chunks-per-dimension
    uint32_t preferredDatasetSplits{1};    //!< preferred-dataset-splits: chunks per collective
    GroupDecompositionMode groupDecomposition{
        GroupDecompositionMode::Dimensions}; //!< group-decomposition (an mlfabric key)

    bool ncclCollNetEnable{false}; //!< nccl-collnet-enable: nccl may choose in-network reduction
    std::vector<AlgorithmSpec> allReduceImplementation;     //!< all-reduce-implementation
    std::vector<AlgorithmSpec> reduceScatterImplementation; //!< reduce-scatter-implementation
    std::vector<AlgorithmSpec> allGatherImplementation;     //!< all-gather-implementation
    std::vector<AlgorithmSpec> allToAllImplementation;      //!< all-to-all-implementation

    std::string allReduceCustom;             //!< all-reduce-implementation-custom: Chakra ET prefix
    std::string reduceScatterCustom;         //!< reduce-scatter-implementation-custom
    std::string allGatherCustom;             //!< all-gather-implementation-custom
    std::string allToAllCustom;              //!< all-to-all-implementation-custom
    std::string perNodeCustomImplementation; //!< per-node-custom-implementation: YAML path

    double localMemBwGBps{0};          //!< local-mem-bw, GB/s (10^9 B); 0 means not given
    double peakPerfTflops{0};          //!< peak-perf, TFLOPS
    bool rooflineEnabled{false};       //!< roofline-enabled
    bool traceEnabled{false};          //!< trace-enabled
    bool replayOnly{false};            //!< replay-only
    bool trackLocalMem{false};         //!< track-local-mem
    std::string localMemTraceFilename; //!< local-mem-trace-filename
    uint64_t localReductionDelay{1};   //!< local-reduction-delay (accepted, unused by 2.0)
    bool modelSharedBus{false};        //!< model-shared-bus (LogGP bus; accepted, not modelled)
    double logGpL{0};                  //!< L of LogGP
    double logGpO{0};                  //!< o of LogGP
    double logGpG{0};                  //!< g of LogGP
    double logGpBigG{0};               //!< G of LogGP

    uint32_t queuesPerDimension{1}; //!< --num-queues-per-dim (command line, not the JSON)
    double injectionScale{1.0};     //!< --injection-scale: multiplies endpoint-delay

    std::vector<std::string> warnings; //!< one line per ignored or unknown key

    /** \return endpoint-delay times injection-scale, truncated to ns as ASTRA-sim does */
    uint64_t GetEndpointDelayNs() const;

    /**
     * \param type a native collective (all-reduce, reduce-scatter, all-gather, all-to-all)
     * \return its per-dimension implementation list (empty if the file gave none)
     */
    const std::vector<AlgorithmSpec>& GetImplementation(CollectiveType type) const;

    /**
     * \param type a native collective
     * \return its custom-implementation ET prefix, empty if none
     */
    const std::string& GetCustomImplementation(CollectiveType type) const;
};

/**
 * \ingroup mlfabric-collective
 * Read an ASTRA-sim system JSON file. Unknown keys, and keys ASTRA-sim 2.0 itself
 * ignores, are reported as warnings (printed to stderr and kept in
 * SystemConfig::warnings); malformed values throw InputError naming the file, the line
 * and the key.
 * \param path the file
 * \return the configuration
 */
SystemConfig LoadSystemConfig(const std::string& path);

/**
 * \ingroup mlfabric-collective
 * Parse the text of a system JSON.
 * \param text the JSON
 * \param source name used in messages (usually the path)
 * \return the configuration, with its warnings (not printed)
 */
SystemConfig ParseSystemConfig(const std::string& text, const std::string& source);

} // namespace ns3

#endif /* MLFABRIC_SYSTEM_CONFIG_H */
