/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_RAIL_BUILDER_H
#define MLFABRIC_RAIL_BUILDER_H

#include "ns3/fabric.h"
#include "ns3/link-settings.h"

#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * The scale-out of a rail-optimized cluster: NIC i of every server is on rail i.
 *
 * Each rail has servers / serversPerRailSwitch rail switches (leaves); every rail switch
 * is linked to each of `spines` spines. With no spines the rails are separate networks
 * ("rail-only") and cross-rail traffic has to go through the servers' scale-up.
 */
struct RailSpec
{
    uint32_t servers{0};              //!< number of servers
    uint32_t serversPerRailSwitch{0}; //!< servers under one rail switch; 0 = all
    uint32_t spines{0};               //!< spine switches above the rails
    LinkSettings nicLink;             //!< NPU NIC - rail switch
    LinkSettings spineLink;           //!< rail switch - spine
};

/**
 * \ingroup mlfabric-fabric
 * Add the rails over the fabric's NPUs, server s holding ranks s*G .. s*G+G-1.
 * Rail switches are "rail<g>" (or "rail<g>-<c>" when a rail has several).
 * \param fabric fabric with servers x G NPUs
 * \param npusPerServer G, the number of rails
 * \param spec the rails
 * \param dimension dimension index of the new switches and links
 */
void AddRails(Fabric& fabric, uint32_t npusPerServer, const RailSpec& spec, int32_t dimension);

/**
 * \ingroup mlfabric-fabric
 * Rail bisection between rank halves (the first and second half of the servers):
 * M/2 x G x r_nic, limited to (M/2/m) x G x S x r_spine when the halves hold whole rail
 * switches (m servers each); 0 when neither applies or M is odd.
 * \param npusPerServer G
 * \param spec the rails
 * \return bit/s, or 0
 */
uint64_t RailBisectionBps(uint32_t npusPerServer, const RailSpec& spec);

/**
 * \ingroup mlfabric-fabric
 * A rail-optimized cluster: servers of G NPUs, each server with one scale-up switch
 * ("scale-up" dimension), and rails with spines ("rail" dimension). NPUs forward only
 * when there are no spines.
 * \param name fabric name
 * \param npusPerServer G
 * \param scaleUpLink NPU - scale-up switch
 * \param spec the rails
 * \return the fabric
 */
Fabric BuildRailOptimized(const std::string& name,
                          uint32_t npusPerServer,
                          const LinkSettings& scaleUpLink,
                          const RailSpec& spec);

} // namespace ns3

#endif /* MLFABRIC_RAIL_BUILDER_H */
