/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-result.h"

namespace ns3
{

std::vector<const ReplayRankStats*>
ReplayResult::GetAllRanks() const
{
    std::vector<const ReplayRankStats*> all;
    for (const auto& r : ranks)
    {
        all.push_back(&r);
    }
    for (const auto& job : jobs)
    {
        for (const auto& r : job.ranks)
        {
            all.push_back(&r);
        }
    }
    return all;
}

uint64_t
ReplayResult::GetBytesSent() const
{
    uint64_t bytes = 0;
    for (const auto* r : GetAllRanks())
    {
        bytes += r->bytesSent;
    }
    return bytes;
}

uint64_t
ReplayResult::GetBytesReceived() const
{
    uint64_t bytes = 0;
    for (const auto* r : GetAllRanks())
    {
        bytes += r->bytesReceived;
    }
    return bytes;
}

} // namespace ns3
