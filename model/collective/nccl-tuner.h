/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_NCCL_TUNER_H
#define MLFABRIC_NCCL_TUNER_H

#include "ns3/collective-type.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * The algorithms NCCL's tuner chooses among for all-reduce, reduce-scatter and all-gather.
 */
enum class NcclAlgorithm : uint8_t
{
    Ring,    //!< NCCL_ALGO_RING
    Tree,    //!< NCCL_ALGO_TREE (double binary tree; all-reduce only)
    Nvls,    //!< NCCL_ALGO_NVLS (in the scale-up switch; one node, at most 32 ranks for RS/AG)
    Pat,     //!< NCCL_ALGO_PAT (all-gather and reduce-scatter, one rank per node)
    CollNet, //!< NCCL_ALGO_COLLNET_DIRECT (in a scale-out switch; AR, and RS/AG from 2.20)
};

/**
 * \ingroup mlfabric-collective
 * \param algorithm an algorithm
 * \return its NCCL name in lower case: ring, tree, nvls, pat, collnet
 */
std::string ToString(NcclAlgorithm algorithm);

/**
 * \ingroup mlfabric-collective
 * What NCCL's tuner knows of a communicator: its size, how it spreads over nodes (scale-up
 * domains), the bus bandwidth of a rank inside a node and across nodes (NCCL's bwIntra and
 * bwInter, all channels together), and which in-switch reductions the fabric offers.
 */
struct NcclGroupShape
{
    uint32_t ranks{1};    //!< ranks of the communicator
    uint32_t nodes{1};    //!< scale-up domains it spans; ranks / nodes per node
    double intraGBps{0};  //!< bwIntra: a rank's bandwidth inside its node, GB/s (10^9 B)
    double interGBps{0};  //!< bwInter: a rank's bandwidth to other nodes, GB/s (10^9 B)
    bool nvls{false};     //!< the group sits on one scale-up switch that reduces in the switch
    bool collNet{false};  //!< the scale-out switches reduce in the network
    uint32_t channels{1}; //!< channels, for the ring's plateau rule
};

/**
 * \ingroup mlfabric-collective
 * One fabric dimension as the nccl choice sees it.
 */
struct NcclDimension
{
    double npuGBps{0};      //!< an NPU's link bandwidth in the dimension, GB/s (10^9 B)
    bool scaleUp{false};    //!< a scale-up domain: its extent makes up NCCL's node
    bool oneSwitch{false};  //!< one switch joins the dimension's NPUs (it can reduce in-switch)
    bool switchTree{false}; //!< levels of switches join them: all-reduce on a SHARP tree
};

/**
 * \ingroup mlfabric-collective
 * NCCL's model of one algorithm on one collective and communicator, Simple protocol.
 */
struct NcclEstimate
{
    NcclAlgorithm algorithm{NcclAlgorithm::Ring}; //!< the algorithm
    double latencyUs{0};                          //!< base plus per-step latency, us
    double algorithmGBps{0};                      //!< bus bandwidth times the algorithm factor

    /**
     * NCCL's ncclTopoGetAlgoTime for one operation: latency (ring: 1.4 times on several
     * nodes once a rank's share of a channel reaches 64 B) plus bytes over the algorithm
     * bandwidth (tree all-reduce: times NCCL's per-size correction factor).
     * \param type the collective
     * \param bytes its size (NCCL's nBytes: the buffer of the whole collective)
     * \param shape the communicator
     * \return the time, us
     */
    double TimeUs(CollectiveType type, uint64_t bytes, const NcclGroupShape& shape) const;
};

/**
 * \ingroup mlfabric-collective
 * NCCL's tuner model (src/graph/tuning.cc, ncclTopoTuneModel) for the Simple protocol.
 * \param type AllReduce, ReduceScatter or AllGather (anything else: an empty list)
 * \param shape the communicator
 * \return an estimate per algorithm that can run \p type on \p shape, ring first
 */
std::vector<NcclEstimate> NcclEstimates(CollectiveType type, const NcclGroupShape& shape);

/**
 * \ingroup mlfabric-collective
 * The algorithm NCCL's tuner picks: the one of least estimated time, ring on a tie.
 * \param type AllReduce, ReduceScatter or AllGather
 * \param bytes the collective's size
 * \param shape the communicator
 * \return the chosen algorithm (ring where no estimate exists)
 */
NcclAlgorithm ChooseNcclAlgorithm(CollectiveType type, uint64_t bytes, const NcclGroupShape& shape);

/**
 * \ingroup mlfabric-collective
 * The choice over sizes as text, e.g. "tree below 128 MiB, ring from 128 MiB": sizes in
 * powers of two from 1 KiB to 16 GiB, each range named by its first size.
 * \param type the collective
 * \param shape the communicator
 * \return the size classes and their algorithms
 */
std::string DescribeNcclChoice(CollectiveType type, const NcclGroupShape& shape);

} // namespace ns3

#endif /* MLFABRIC_NCCL_TUNER_H */
