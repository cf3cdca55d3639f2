/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_FABRIC_FIGURES_H
#define MLFABRIC_FABRIC_FIGURES_H

#include "ns3/channel-dependency-graph.h"
#include "ns3/fabric.h"
#include "ns3/routing-table.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-fabric
 * Figures of one dimension.
 */
struct DimensionFigures
{
    std::string name;            //!< dimension name
    std::string topology;        //!< dimension topology
    uint32_t size{0};            //!< NPUs (or servers) along it
    uint32_t links{0};           //!< links of the dimension
    uint64_t linkRateBps{0};     //!< fastest link rate in it
    uint64_t npuBandwidthBps{0}; //!< mean over NPUs of the rates of their own links in it
};

/**
 * \ingroup mlfabric-fabric
 * What fabric-info reports about a fabric and its routing.
 */
struct FabricFigures
{
    std::string name;                         //!< fabric name
    uint32_t nodes{0};                        //!< NPUs and switches
    uint32_t npus{0};                         //!< NPUs
    uint32_t switches{0};                     //!< switches
    uint32_t links{0};                        //!< full-duplex links
    std::map<uint64_t, uint32_t> linksByRate; //!< rate (bit/s) -> link count
    std::vector<DimensionFigures> dimensions; //!< per dimension, if known
    uint64_t bisectionBps{0};                 //!< the structural value, else the cut
    std::string bisectionMethod;              //!< "structure" or "rank-halves cut"
    uint64_t rankHalvesCutBps{0};             //!< ComputeRankHalvesCut
    uint32_t diameter{0};                     //!< most hops between two NPUs (shortest)
    uint32_t longestRoute{0};                 //!< most hops of a route of the routing
    uint32_t ecmpMax{0};                      //!< widest ECMP set
    double ecmpMean{0};                       //!< mean size of the non-empty sets
    std::string routing;                      //!< routing algorithm name
    bool npuForwarding{false};                //!< NPUs may carry transit traffic
    uint32_t channels{0};                     //!< link directions
    uint64_t dependencies{0};                 //!< channel dependencies
    bool cdgCyclic{false};                    //!< a dependency cycle exists
    std::string cdgCycle;                     //!< one cycle, as channel names
};

/**
 * \ingroup mlfabric-fabric
 * Compute the figures. The diameter counts hops along paths whose inner nodes forward;
 * ECMP figures cover every (node, destination) entry with at least one port, the
 * destination's own node excluded.
 * \param fabric the fabric
 * \param routing its routing
 * \param cdg the routing's channel dependency graph
 * \return the figures
 */
FabricFigures ComputeFabricFigures(const Fabric& fabric,
                                   const RoutingTable& routing,
                                   const ChannelDependencyGraph& cdg);

/**
 * \ingroup mlfabric-fabric
 * \param figures the figures
 * \return them as JSON, with the keys npus, switches, links, ... (rates in bit/s)
 */
nlohmann::json FabricFiguresToJson(const FabricFigures& figures);

} // namespace ns3

#endif /* MLFABRIC_FABRIC_FIGURES_H */
