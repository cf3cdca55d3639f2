/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "in-switch-rendezvous.h"

#include "ns3/input-error.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InSwitchRendezvous");

std::vector<InSwitchRendezvous::Arrival>
InSwitchRendezvous::Add(Arrival arrival)
{
    const auto& c = arrival.contribution;
    const std::vector<uint32_t>& members = *c.members;
    const std::string who = "rank " + std::to_string(c.rank) + ": in-switch reduction over " +
                            std::to_string(members.size()) + " ranks";
    if (!std::binary_search(members.begin(), members.end(), c.rank))
    {
        throw InputError(who + " that does not include the rank");
    }
    Key key{c.tag, members};
    auto& open = m_open[key];
    for (const auto& other : open)
    {
        if (other.contribution.rank == c.rank)
        {
            throw InputError(who + ": the rank contributed twice");
        }
        if (other.contribution.bytes != c.bytes)
        {
            throw InputError(who + ": " + std::to_string(c.bytes) + " bytes, rank " +
                             std::to_string(other.contribution.rank) + " gave " +
                             std::to_string(other.contribution.bytes));
        }
    }
    open.push_back(std::move(arrival));
    if (open.size() < members.size())
    {
        return {};
    }
    std::vector<Arrival> all = std::move(open);
    m_open.erase(key);
    std::sort(all.begin(),
              all.end(),
              [](const Arrival& a, const Arrival& b)
              { return a.contribution.rank < b.contribution.rank; });
    NS_LOG_LOGIC("reduction " << c.tag << " complete with " << all.size() << " members");
    return all;
}

} // namespace ns3
