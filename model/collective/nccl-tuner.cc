/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "nccl-tuner.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NcclTuner");

namespace
{

// NCCL's tuner constants, Simple protocol (src/graph/tuning.cc, ncclTunerConstantsDefaults),
// in us. Intra-node latencies are NVLink's: a scale-up dimension is NVLink-class.
constexpr double kBaseLatencyRing = 8.4;
constexpr double kBaseLatencyTree = 8.4;
constexpr double kBaseLatencyPat = 8.0;
constexpr double kNvlinkLatencyRing = 3.4;
constexpr double kNvlinkLatencyTree = 4.0;
constexpr double kNvlinkLatencyCollNet = 3.7;
constexpr double kNvlinkLatencyNvls = 25.0;
constexpr double kNetLatencyRing = 14.0;
constexpr double kNetLatencyTree = 14.0;
constexpr double kNetLatencyCollNet = 31.0;
/** getNetOverhead on x86 Intel, times 3 for Simple: a floor on a ring's intra-node step. */
constexpr double kNetOverheadSimple = 3.0;
/** CollNet Direct's arity serialization per local rank. */
constexpr double kCollNetArityLatency = 0.4;
/** PAT's linear term per rank. */
constexpr double kPatLatencyPerRank = 2.8;
/** PAT's log term divides the network latency by this. */
constexpr double kPatLogLatencyDivisor = 3.5;

// Bandwidth factors (ncclTopoTuneModel's "model refinements"), Hopper (compute capability 90).
constexpr double kTreeFactor = 0.92;
constexpr double kPatFactor = 0.75;
constexpr double kNvlsEfficiencyHopper = 0.85;
constexpr double kCollNetHopperFactor = 0.85;
/** CollNet Direct's reduce-scatter and all-gather take this share of bwInter per local rank. */
constexpr double kCollNetGatherInterShare = 0.9;
/** NVLS channels on SM90 (src/transport/nvls.cc, NVLS_NCHANNELS_SM90). */
constexpr double kNvlsChannels = 16;
/** NVLS reduce-scatter and all-gather take at most this many local ranks (NCCL_MAX_NVLS_ARITY). */
constexpr uint32_t kNvlsMaxArity = 32;
/** The ring's plateau on several nodes (compute capability 80 and later). */
constexpr double kRingPlateauFactor = 1.4;
constexpr uint64_t kRingPlateauBytesPerRank = 64;

/** treeCorrectionFactor, Simple row: tree all-reduce bandwidth per log2(bytes / 64). */
constexpr double kTreeCorrectionSimple[23] = {0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.8,
                                              0.7, 0.6, 0.6, 0.5, 0.5, 0.5, 0.5, 0.6,
                                              0.7, 0.8, 0.7, 0.7, 0.8, 0.9, 0.9};

/** Floor of log2, -1 for 0 (NCCL's log2i). */
int
Log2Floor(uint64_t n)
{
    int l = -1;
    while (n != 0)
    {
        n >>= 1;
        ++l;
    }
    return l;
}

/** NCCL's nsteps: the ring's steps for \p type on \p ranks. */
double
RingSteps(CollectiveType type, uint32_t ranks)
{
    return type == CollectiveType::AllReduce ? 2.0 * (ranks - 1) : ranks - 1.0;
}

} // namespace

std::string
ToString(NcclAlgorithm algorithm)
{
    switch (algorithm)
    {
    case NcclAlgorithm::Ring:
        return "ring";
    case NcclAlgorithm::Tree:
        return "tree";
    case NcclAlgorithm::Nvls:
        return "nvls";
    case NcclAlgorithm::Pat:
        return "pat";
    case NcclAlgorithm::CollNet:
        return "collnet";
    }
    return "?";
}

double
NcclEstimate::TimeUs(CollectiveType type, uint64_t bytes, const NcclGroupShape& shape) const
{
    double bandwidth = algorithmGBps;
    double latency = latencyUs;
    const int logSize = Log2Floor(bytes >> 6);
    if (algorithm == NcclAlgorithm::Tree && type == CollectiveType::AllReduce && logSize >= 0 &&
        logSize < 23)
    {
        bandwidth *= kTreeCorrectionSimple[logSize];
    }
    if (algorithm == NcclAlgorithm::Ring && shape.nodes > 1 && type == CollectiveType::AllReduce &&
        bytes / (uint64_t{shape.channels} * shape.ranks) >= kRingPlateauBytesPerRank)
    {
        latency *= kRingPlateauFactor;
    }
    // bytes / (1000 * GB/s) is in us.
    return latency + static_cast<double>(bytes) / (1000.0 * bandwidth);
}

std::vector<NcclEstimate>
NcclEstimates(CollectiveType type, const NcclGroupShape& shape)
{
    std::vector<NcclEstimate> estimates;
    const bool allReduce = type == CollectiveType::AllReduce;
    const bool gatherOrScatter =
        type == CollectiveType::AllGather || type == CollectiveType::ReduceScatter;
    if ((!allReduce && !gatherOrScatter) || shape.ranks < 2 || shape.nodes == 0)
    {
        return estimates;
    }
    const double n = shape.ranks;
    const double nodes = shape.nodes;
    const double perNode = n / nodes;
    const double steps = RingSteps(type, shape.ranks);
    // NCCL takes the intra-node graph's bandwidth up to two nodes, the inter-node one beyond.
    const double bw = shape.nodes <= 2 ? shape.intraGBps : shape.interGBps;
    const int logNodes = Log2Floor(shape.nodes);

    NcclEstimate ring{NcclAlgorithm::Ring, kBaseLatencyRing, bw * n / steps};
    {
        const double interSteps = shape.nodes == 1 ? 0 : allReduce ? 2 * (nodes - 1) : nodes - 1;
        const double intraLatency =
            shape.nodes > 1 ? std::max(kNvlinkLatencyRing, kNetOverheadSimple) : kNvlinkLatencyRing;
        const double interLatency = perNode == 1 ? kNetLatencyTree : kNetLatencyRing;
        ring.latencyUs += (steps - interSteps) * intraLatency + interSteps * interLatency;
    }
    estimates.push_back(ring);

    if (allReduce)
    {
        NcclEstimate tree{NcclAlgorithm::Tree, kBaseLatencyTree, bw * kTreeFactor * 0.5};
        tree.latencyUs += 2 * ((perNode - 1) * kNvlinkLatencyTree + logNodes * kNetLatencyTree);
        estimates.push_back(tree);
    }
    if (shape.nvls && shape.nodes == 1 && (allReduce || shape.ranks <= kNvlsMaxArity))
    {
        // An all-reduce pipelines the reduce and the broadcast: twice the per-channel
        // bandwidth. A reduce-scatter or all-gather (NCCL 2.19 on) moves (ppn - 1) / ppn
        // of it through the switch.
        const double factor = allReduce ? 2.0 : (perNode - 1) / perNode;
        const double busBw =
            shape.intraGBps * kNvlsEfficiencyHopper * (kNvlsChannels - 1) / kNvlsChannels * factor;
        estimates.push_back({NcclAlgorithm::Nvls, kNvlinkLatencyNvls, busBw * n / steps});
    }
    if (gatherOrScatter && perNode == 1 && shape.nodes >= 2)
    {
        NcclEstimate pat{NcclAlgorithm::Pat, kBaseLatencyPat, bw * kPatFactor};
        pat.latencyUs +=
            logNodes * (kNetLatencyTree / kPatLogLatencyDivisor) + n * kPatLatencyPerRank;
        estimates.push_back(pat);
    }
    if (shape.collNet && shape.nodes >= 2)
    {
        const double interLatency = perNode == 1 ? kNetLatencyTree : kNetLatencyCollNet;
        const double latency = 2 * (std::min(1.0, perNode - 1) * kNvlinkLatencyCollNet +
                                    (perNode - 1) * kCollNetArityLatency) +
                               interLatency;
        // CollNet's graph runs through the NIC: the slower of the two bandwidths, one NIC
        // per rank (NCCL's GPU/NIC factor 1). An all-reduce halves it; a reduce-scatter or
        // all-gather (NCCL 2.20 on) has every local rank's NIC carry its share, and NCCL
        // takes that bandwidth as the algorithm's, unconverted.
        const double busBw =
            allReduce
                ? std::min(shape.intraGBps, shape.interGBps) * kCollNetHopperFactor * 0.5
                : perNode * std::min(shape.intraGBps, kCollNetGatherInterShare * shape.interGBps);
        estimates.push_back({NcclAlgorithm::CollNet, latency, busBw});
    }
    return estimates;
}

NcclAlgorithm
ChooseNcclAlgorithm(CollectiveType type, uint64_t bytes, const NcclGroupShape& shape)
{
    NcclAlgorithm best = NcclAlgorithm::Ring;
    double bestTime = -1;
    for (const NcclEstimate& e : NcclEstimates(type, shape))
    {
        const double t = e.TimeUs(type, bytes, shape);
        if (bestTime < 0 || t < bestTime)
        {
            best = e.algorithm;
            bestTime = t;
        }
    }
    NS_LOG_LOGIC(ToString(type) << " of " << bytes << " B on " << shape.ranks
                                << " ranks: " << ToString(best));
    return best;
}

std::string
DescribeNcclChoice(CollectiveType type, const NcclGroupShape& shape)
{
    auto sizeText = [](int log2)
    {
        static const char* units[] = {"B", "KiB", "MiB", "GiB"};
        return std::to_string(1ULL << (log2 % 10)) + " " + units[log2 / 10];
    };
    constexpr int kFirst = 10;
    constexpr int kLast = 34;
    std::string text;
    NcclAlgorithm current = ChooseNcclAlgorithm(type, 1ULL << kFirst, shape);
    text = ToString(current);
    for (int l = kFirst + 1; l <= kLast; ++l)
    {
        const NcclAlgorithm next = ChooseNcclAlgorithm(type, 1ULL << l, shape);
        if (next != current)
        {
            text += " below " + sizeText(l) + ", " + ToString(next) + " from " + sizeText(l);
            current = next;
        }
    }
    return text;
}

} // namespace ns3
