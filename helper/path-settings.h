/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_PATH_SETTINGS_H
#define MLFABRIC_PATH_SETTINGS_H

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace ns3
{

class ExampleCli;
class RoceNetwork;

/**
 * \ingroup mlfabric-helper
 * How a packet-level run spreads data over equal-cost paths and recovers from loss and
 * reordering, read back from the installed switches and NICs.
 */
struct PathSettings
{
    std::string loadBalancing;    //!< the switches' LoadBalancer, described; "none" without
    uint32_t switches{0};         //!< switches with several equal-cost ports somewhere
    bool mayReorder{false};       //!< the balancer may reorder a queue pair's packets
    uint32_t entropies{1};        //!< entropy values per queue pair (RdmaQueuePair::Entropies)
    std::string transport;        //!< "go-back-N", "selective repeat" or "unordered (RUD)"
    uint32_t bitmapPackets{0};    //!< selective repeat: receive bitmap reach
    uint32_t reorderPackets{0};   //!< sr, rud: reports past a gap that make it lost
    bool goBackNReordered{false}; //!< go-back-N with reordering paths: it will resend a lot
};

/**
 * \ingroup mlfabric-helper
 * Add --lb, --spray-order, --flowlet-gap, --entropies and --transport.
 * \param cli the example's command line, before Parse
 */
void AddPathOptions(ExampleCli& cli);

/**
 * \ingroup mlfabric-helper
 * Make the parsed path options the defaults of the switches and NICs built after it
 * (RoceSwitch::LoadBalancer, SprayBalancer::Order, FlowletBalancer::Gap,
 * RdmaQueuePair::Entropies, RdmaNic::Transport). Throws InputError naming the option
 * for a bad value.
 * \param cli the parsed command line
 */
void ApplyPathOptions(const ExampleCli& cli);

/**
 * \ingroup mlfabric-helper
 * \param net an installed network
 * \return its path settings
 */
PathSettings CollectPathSettings(const RoceNetwork& net);

/**
 * \ingroup mlfabric-helper
 * \param s path settings
 * \return "load balancing: ...; transport: ..." and, for go-back-N on reordering paths,
 *         a note that it discards reordered packets and resends from them
 */
std::string FormatPathSettings(const PathSettings& s);

/**
 * \ingroup mlfabric-helper
 * \param s path settings
 * \return {"load_balancing", "multipath_switches", "may_reorder", "entropies", "transport",
 *         "bitmap_packets", "reorder_packets", "go_back_n_reordered"}
 */
nlohmann::json PathSettingsToJson(const PathSettings& s);

} // namespace ns3

#endif /* MLFABRIC_PATH_SETTINGS_H */
