/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-slowdown.h"

#include "ns3/abort.h"

#include <algorithm>
#include <numeric>

namespace ns3
{

double
HpccSlowdown(uint64_t fctNs, uint64_t standaloneNs)
{
    if (standaloneNs == 0)
    {
        return 1;
    }
    const double s = static_cast<double>(fctNs) / static_cast<double>(standaloneNs);
    return s < 1 ? 1 : s;
}

HpccSlowdownStats
SummarizeSlowdown(std::vector<double> slowdowns)
{
    HpccSlowdownStats s;
    s.flows = slowdowns.size();
    if (slowdowns.empty())
    {
        return s;
    }
    std::sort(slowdowns.begin(), slowdowns.end());
    const auto at = [&slowdowns](double p)
    {
        return slowdowns[static_cast<size_t>(static_cast<double>(slowdowns.size()) * p)];
    };
    s.mean = std::accumulate(slowdowns.begin(), slowdowns.end(), 0.0) /
             static_cast<double>(slowdowns.size());
    s.p50 = at(0.50);
    s.p95 = at(0.95);
    s.p99 = at(0.99);
    return s;
}

std::vector<HpccSlowdownBucket>
SlowdownBySize(std::vector<HpccFlowSlowdown> flows, uint32_t stepPercent)
{
    NS_ABORT_MSG_IF(stepPercent == 0 || stepPercent > 100, "bucket step " << stepPercent);
    std::sort(flows.begin(),
              flows.end(),
              [](const HpccFlowSlowdown& a, const HpccFlowSlowdown& b)
              { return a.bytes != b.bytes ? a.bytes < b.bytes : a.slowdown < b.slowdown; });
    const size_t n = flows.size();
    std::vector<HpccSlowdownBucket> buckets;
    for (uint32_t from = 0; from < 100; from += stepPercent)
    {
        const size_t lo = from * n / 100;
        const size_t hi = std::min<size_t>(100, from + stepPercent) * n / 100;
        if (hi <= lo)
        {
            continue;
        }
        std::vector<double> values;
        for (size_t i = lo; i < hi; ++i)
        {
            values.push_back(flows[i].slowdown);
        }
        HpccSlowdownBucket b;
        b.fromPercentile = from;
        b.maxBytes = flows[hi - 1].bytes;
        b.stats = SummarizeSlowdown(std::move(values));
        buckets.push_back(b);
    }
    return buckets;
}

} // namespace ns3
