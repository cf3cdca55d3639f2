/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "unordered-messages.h"

namespace ns3
{

bool
UnorderedMessages::Arrive(
    uint64_t begin, uint64_t newBytes, uint64_t end, bool last, uint64_t tag, Completed& done)
{
    auto it = m_partial.find(begin);
    if (it == m_partial.end())
    {
        if (newBytes == 0)
        {
            return false; // a copy of a message already complete
        }
        it = m_partial.emplace(begin, Partial{}).first;
    }
    Partial& p = it->second;
    p.arrived += newBytes;
    p.tag = tag;
    if (last)
    {
        p.end = end;
    }
    if (p.end == 0 || p.arrived < p.end - begin)
    {
        return false;
    }
    done.begin = begin;
    done.end = p.end;
    done.tag = p.tag;
    m_partial.erase(it);
    return true;
}

uint64_t
UnorderedMessages::GetPartial() const
{
    return m_partial.size();
}

} // namespace ns3
