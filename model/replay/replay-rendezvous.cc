/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-rendezvous.h"

namespace ns3
{

void
ReplayRendezvous::Offer(const Key& key, std::function<void()> launch)
{
    auto it = m_keys.find(key);
    if (it != m_keys.end() && it->second.receives > 0)
    {
        if (--it->second.receives == 0 && it->second.sends.empty())
        {
            m_keys.erase(it);
        }
        launch();
        return;
    }
    m_keys[key].sends.push_back(std::move(launch));
}

void
ReplayRendezvous::Accept(const Key& key)
{
    auto it = m_keys.find(key);
    if (it != m_keys.end() && !it->second.sends.empty())
    {
        std::function<void()> launch = std::move(it->second.sends.front());
        it->second.sends.pop_front();
        if (it->second.sends.empty() && it->second.receives == 0)
        {
            m_keys.erase(it);
        }
        launch();
        return;
    }
    ++m_keys[key].receives;
}

} // namespace ns3
