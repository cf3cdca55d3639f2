/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-job-placement.h"

#include "ns3/input-error.h"

#include <set>
#include <string>

namespace ns3
{

namespace
{

/** \return "job 'NAME': " */
std::string
JobWhere(const ReplayJobSpec& job)
{
    return "job '" + job.name + "': ";
}

} // namespace

std::vector<std::vector<uint32_t>>
PlaceReplayJobs(const std::vector<ReplayJobSpec>& jobs,
                const std::vector<uint32_t>& rankCounts,
                uint32_t npuCount)
{
    std::set<std::string> names;
    for (const auto& job : jobs)
    {
        if (!names.insert(job.name).second)
        {
            throw InputError(JobWhere(job) + "two jobs have this name (give each its own name=)");
        }
    }
    const size_t none = jobs.size();
    std::vector<size_t> owner(npuCount, none);
    std::vector<std::vector<uint32_t>> placed(jobs.size());
    for (size_t j = 0; j < jobs.size(); ++j)
    {
        const ReplayJobSpec& job = jobs[j];
        if (job.npus.empty())
        {
            continue;
        }
        for (uint32_t npu : job.npus)
        {
            if (npu >= npuCount)
            {
                throw InputError(JobWhere(job) + "NPU " + std::to_string(npu) +
                                 " is out of range (the fabric has " + std::to_string(npuCount) +
                                 " NPUs, 0-" + std::to_string(npuCount - 1) + ")");
            }
            if (owner[npu] == j)
            {
                throw InputError(JobWhere(job) + "NPU " + std::to_string(npu) + " is listed twice");
            }
            if (owner[npu] != none)
            {
                throw InputError(JobWhere(job) + "NPU " + std::to_string(npu) +
                                 " is also given to job '" + jobs[owner[npu]].name + "'");
            }
            owner[npu] = j;
        }
        if (job.npus.size() != rankCounts[j])
        {
            throw InputError(JobWhere(job) + "workload " + job.workload + " has " +
                             std::to_string(rankCounts[j]) + " ranks but npus= lists " +
                             std::to_string(job.npus.size()) + " NPUs");
        }
        placed[j] = job.npus;
    }
    uint32_t next = 0;
    for (size_t j = 0; j < jobs.size(); ++j)
    {
        if (!jobs[j].npus.empty())
        {
            continue;
        }
        while (placed[j].size() < rankCounts[j] && next < npuCount)
        {
            if (owner[next] == none)
            {
                owner[next] = j;
                placed[j].push_back(next);
            }
            ++next;
        }
        if (placed[j].size() < rankCounts[j])
        {
            uint32_t free = static_cast<uint32_t>(placed[j].size());
            throw InputError(JobWhere(jobs[j]) + "workload " + jobs[j].workload + " has " +
                             std::to_string(rankCounts[j]) + " ranks but only " +
                             std::to_string(free) + " of the fabric's " + std::to_string(npuCount) +
                             " NPUs are left for it");
        }
    }
    return placed;
}

std::vector<uint32_t>
ReplayJobDimensions(const std::vector<uint32_t>& fabricDimensions,
                    const std::vector<uint32_t>& npus)
{
    const auto n = static_cast<uint32_t>(npus.size());
    const std::vector<uint32_t> flat{n};
    for (uint32_t r = 1; r < n; ++r)
    {
        if (npus[r] != npus[0] + r)
        {
            return flat;
        }
    }
    uint64_t fabricNpus = 1;
    for (uint32_t d : fabricDimensions)
    {
        fabricNpus *= d;
    }
    if (n > 0 && npus[0] == 0 && n == fabricNpus)
    {
        // The whole fabric in order: its dimensions as they are, those of size 1 too.
        return fabricDimensions;
    }
    // Keep whole fabric dimensions while the block is aligned to them, then at most
    // one partial dimension that divides the next fabric dimension evenly.
    std::vector<uint32_t> dims;
    uint32_t inner = 1;
    uint32_t remaining = n;
    for (uint32_t d : fabricDimensions)
    {
        if (remaining == 1)
        {
            break;
        }
        if (remaining % d == 0 && npus[0] % (inner * d) == 0)
        {
            dims.push_back(d);
            inner *= d;
            remaining /= d;
            continue;
        }
        if (d % remaining == 0 && (npus[0] / inner) % remaining == 0)
        {
            dims.push_back(remaining);
            remaining = 1;
        }
        break;
    }
    return remaining == 1 && !dims.empty() ? dims : flat;
}

} // namespace ns3
