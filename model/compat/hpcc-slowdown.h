/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_HPCC_SLOWDOWN_H
#define MLFABRIC_HPCC_SLOWDOWN_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-compat
 * FCT slowdown figures of a set of flows, as the HPCC simulator's analysis script
 * (analysis/fct_analysis.py) computes them.
 */
struct HpccSlowdownStats
{
    uint64_t flows{0}; //!< flows counted
    double mean{0};    //!< mean slowdown
    double p50{0};     //!< median: sorted[int(0.50 n)]
    double p95{0};     //!< sorted[int(0.95 n)]
    double p99{0};     //!< sorted[int(0.99 n)]
};

/**
 * \ingroup mlfabric-compat
 * The slowdown of the flows of one size bucket.
 */
struct HpccSlowdownBucket
{
    double fromPercentile{0}; //!< the bucket holds the flows from this size percentile
    uint64_t maxBytes{0};     //!< size of its largest flow
    HpccSlowdownStats stats;  //!< its slowdown
};

/**
 * \ingroup mlfabric-compat
 * One completed flow: its size and its slowdown.
 */
struct HpccFlowSlowdown
{
    uint64_t bytes{0};  //!< flow size
    double slowdown{1}; //!< fct / standalone fct, at least 1
};

/**
 * \ingroup mlfabric-compat
 * \param fctNs completion time
 * \param standaloneNs completion time alone in the network
 * \return fctNs / standaloneNs, or 1 if that is smaller (the script's clamp)
 */
double HpccSlowdown(uint64_t fctNs, uint64_t standaloneNs);

/**
 * \ingroup mlfabric-compat
 * \param slowdowns slowdowns in any order
 * \return their mean and percentiles; percentile p is element int(p n) of the sorted
 *         values (all zero when there are none)
 */
HpccSlowdownStats SummarizeSlowdown(std::vector<double> slowdowns);

/**
 * \ingroup mlfabric-compat
 * Split flows into buckets by size, as the script does: sort by size, then bucket k
 * holds the flows at sorted positions [k step n / 100, (k + 1) step n / 100).
 * Empty buckets are left out. (The script also drops the single largest flow, an
 * artefact of how it splits lines; all flows are kept here.)
 * \param flows the flows
 * \param stepPercent bucket width in percent of the flows, 1..100
 * \return the buckets, smallest flows first
 */
std::vector<HpccSlowdownBucket> SlowdownBySize(std::vector<HpccFlowSlowdown> flows,
                                               uint32_t stepPercent);

} // namespace ns3

#endif /* MLFABRIC_HPCC_SLOWDOWN_H */
