/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_COLLECTIVE_ALGORITHM_H
#define MLFABRIC_COLLECTIVE_ALGORITHM_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * The per-dimension collective algorithms of ASTRA-sim's system layer.
 */
enum class CollectiveAlgorithm : uint8_t
{
    Ring,             //!< neighbour-to-neighbour steps around the dimension's ring
    Direct,           //!< every peer directly, a window of messages in flight
    HalvingDoubling,  //!< recursive halving / doubling, partner distance a power of two
    DoubleBinaryTree, //!< two in-order binary trees, alternating per chunk (all-reduce only)
    Nvls,      //!< in the scale-up switch (NVLink SHARP: all-reduce, reduce-scatter, all-gather)
    InNetwork, //!< in a scale-out switch (SHARP, CollNet: all-reduce, reduce-scatter, all-gather)
    Pat,       //!< NCCL's Parallel Aggregated Trees (all-gather and reduce-scatter only)
};

/**
 * \ingroup mlfabric-collective
 * \param algorithm an algorithm
 * \return true if the dimension's switch reduces the data (Nvls, InNetwork)
 */
inline bool
IsInNetwork(CollectiveAlgorithm algorithm)
{
    return algorithm == CollectiveAlgorithm::Nvls || algorithm == CollectiveAlgorithm::InNetwork;
}

/**
 * \ingroup mlfabric-collective
 * One entry of an "*-implementation" list of ASTRA-sim's system JSON.
 */
struct AlgorithmSpec
{
    CollectiveAlgorithm algorithm{CollectiveAlgorithm::Ring}; //!< the algorithm
    uint32_t window{0}; //!< Direct only: messages in flight; 0 means one per peer
    bool flat{false};   //!< the "one*" variants: one dimension spanning every NPU
    bool nccl{false};   //!< "nccl": the planner picks per collective as NCCL's tuner does

    /** \param other another spec \return true if both are the same */
    bool
    operator==(const AlgorithmSpec& other) const
    {
        return algorithm == other.algorithm && window == other.window && flat == other.flat &&
               nccl == other.nccl;
    }
};

/**
 * \ingroup mlfabric-collective
 * Parse an implementation name: ring, oneRing, direct, directN, oneDirect, oneDirectN,
 * halvingDoubling, oneHalvingDoubling, doubleBinaryTree, nvls, inNetwork, pat, onePat,
 * nccl (N = window, decimal).
 * \param text the name
 * \param where file, line and key, for the error message
 * \return the spec
 * Throws InputError on an unknown name or a bad window.
 */
AlgorithmSpec ParseAlgorithmSpec(const std::string& text, const std::string& where);

/**
 * \ingroup mlfabric-collective
 * \param spec an implementation
 * \return its ASTRA-sim name, e.g. "direct4" or "oneRing"
 */
std::string ToString(const AlgorithmSpec& spec);

} // namespace ns3

#endif /* MLFABRIC_COLLECTIVE_ALGORITHM_H */
