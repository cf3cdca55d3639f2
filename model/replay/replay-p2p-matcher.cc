/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-p2p-matcher.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReplayP2pMatcher");

std::optional<uint64_t>
ReplayP2pMatcher::Arrive(const Key& key, uint64_t bytes)
{
    auto it = m_keys.find(key);
    if (it != m_keys.end() && !it->second.posted.empty())
    {
        const uint64_t token = it->second.posted.front();
        it->second.posted.pop_front();
        --m_waitingReceives;
        if (it->second.posted.empty() && it->second.arrived.empty())
        {
            m_keys.erase(it);
        }
        return token;
    }
    m_keys[key].arrived.push_back(bytes);
    ++m_unclaimed;
    return std::nullopt;
}

std::optional<uint64_t>
ReplayP2pMatcher::Post(const Key& key, uint64_t token)
{
    auto it = m_keys.find(key);
    if (it != m_keys.end() && !it->second.arrived.empty())
    {
        const uint64_t bytes = it->second.arrived.front();
        it->second.arrived.pop_front();
        --m_unclaimed;
        if (it->second.posted.empty() && it->second.arrived.empty())
        {
            m_keys.erase(it);
        }
        return bytes;
    }
    m_keys[key].posted.push_back(token);
    ++m_waitingReceives;
    return std::nullopt;
}

uint64_t
ReplayP2pMatcher::GetWaitingReceives() const
{
    return m_waitingReceives;
}

uint64_t
ReplayP2pMatcher::GetUnclaimedMessages() const
{
    return m_unclaimed;
}

std::vector<std::string>
ReplayP2pMatcher::Describe(size_t limit) const
{
    std::vector<std::string> lines;
    for (const auto& [key, q] : m_keys)
    {
        if (lines.size() == limit)
        {
            break;
        }
        const auto& [src, dst, tag] = key;
        const std::string which = "rank " + std::to_string(src) + " -> rank " +
                                  std::to_string(dst) + " tag " + std::to_string(tag);
        if (!q.posted.empty())
        {
            lines.push_back(std::to_string(q.posted.size()) + " receive(s) of " + which +
                            " wait for a send");
        }
        else
        {
            lines.push_back(std::to_string(q.arrived.size()) + " message(s) of " + which +
                            " arrived without a receive");
        }
    }
    return lines;
}

} // namespace ns3
