/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-routes.h"

#include "ns3/fabric.h"

#include <algorithm>
#include <limits>

namespace ns3
{

Time
HpccRoute::RoundTrip() const
{
    return PicoSeconds(2 * delayPs + serializationPs);
}

HpccRoutes::HpccRoutes(const Fabric& fabric)
    : m_fabric(fabric)
{
}

std::vector<HpccRoute>
HpccRoutes::From(uint32_t src, uint32_t bytesPerLink) const
{
    std::vector<HpccRoute> routes(m_fabric.GetNodeCount());
    routes.at(src).reachable = true;
    routes[src].bottleneckBps = std::numeric_limits<uint64_t>::max();
    std::vector<uint32_t> queue{src};
    const auto bits = static_cast<unsigned __int128>(bytesPerLink) * 8;
    for (size_t head = 0; head < queue.size(); ++head)
    {
        const uint32_t node = queue[head];
        if (node != src && m_fabric.IsNpu(node))
        {
            continue; // hosts end routes, they do not carry them
        }
        const HpccRoute& here = routes[node];
        for (const FabricPort& port : m_fabric.GetPorts(node))
        {
            HpccRoute& next = routes[port.peer];
            if (next.reachable)
            {
                continue;
            }
            const LinkSettings& s = m_fabric.GetLink(port.link).settings;
            next.reachable = true;
            next.links = here.links + 1;
            next.delayPs = here.delayPs + s.delayPs;
            next.serializationPs = here.serializationPs +
                                   static_cast<int64_t>(bits * 1'000'000'000'000ULL / s.rateBps);
            next.bottleneckBps = std::min(here.bottleneckBps, s.rateBps);
            queue.push_back(port.peer);
        }
    }
    return routes;
}

uint64_t
HpccRoutes::Bdp(Time rtt, uint64_t rateBps)
{
    const auto bits = static_cast<unsigned __int128>(rtt.GetPicoSeconds()) * rateBps;
    return static_cast<uint64_t>(bits / 8 / 1'000'000'000'000ULL);
}

} // namespace ns3
