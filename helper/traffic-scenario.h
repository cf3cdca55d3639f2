/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_TRAFFIC_SCENARIO_H
#define MLFABRIC_TRAFFIC_SCENARIO_H

#include "ns3/cc-setup.h"
#include "ns3/effective-settings.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * A synthetic traffic pattern between the ranks of a fabric.
 */
enum class TrafficPattern
{
    PERMUTATION, //!< every rank sends to one other, each rank receives from one
    ALL_TO_ALL,  //!< every rank sends to every other
    INCAST,      //!< every rank but the last sends to the last
};

/**
 * \ingroup mlfabric-helper
 * \param name permutation, all-to-all or incast
 * \return the pattern; throws InputError naming the known ones otherwise
 */
TrafficPattern ParseTrafficPattern(const std::string& name);

/**
 * \ingroup mlfabric-helper
 * \param pattern a pattern
 * \return its name as ParseTrafficPattern reads it
 */
std::string TrafficPatternName(TrafficPattern pattern);

/**
 * \ingroup mlfabric-helper
 * One traffic run on a fabric file.
 */
struct TrafficConfig
{
    std::string fabricPath;                              //!< the fabric file
    TrafficPattern pattern{TrafficPattern::PERMUTATION}; //!< who sends to whom
    uint64_t messageBytes{1ULL << 20};                   //!< one message per flow
    uint64_t seed{1};                                    //!< the permutation's draw
    uint32_t mtu{4096};                                  //!< data payload per packet
    uint8_t priority{3};                                 //!< traffic class of the data
    CcSettings cc;                                       //!< congestion control
    Time stopTime{Seconds(10)};                          //!< give up here
    double loss{-1}; //!< per-frame loss on every link; <0: the fabric's
};

/**
 * \ingroup mlfabric-helper
 * One flow of a traffic run.
 */
struct TrafficFlow
{
    uint32_t srcRank{0};       //!< sending rank
    uint32_t dstRank{0};       //!< receiving rank
    Time received;             //!< its last byte arrived; 0 if never
    uint32_t timesReceived{0}; //!< how often the receiver reported it complete
};

/**
 * \ingroup mlfabric-helper
 * What a traffic run measured.
 */
struct TrafficResult
{
    std::vector<TrafficFlow> flows;  //!< in the order they were posted
    uint64_t bytesExpected{0};       //!< flows x message size
    uint64_t bytesDelivered{0};      //!< in-order payload at the receivers
    uint64_t duplicateBytes{0};      //!< payload that arrived again, discarded
    uint64_t outOfOrderBytes{0};     //!< payload dropped for arriving past a gap
    uint64_t retransmittedBytes{0};  //!< payload sent more than once
    uint64_t drops{0};               //!< buffer drops at switches and NPU relays
    uint64_t relayHeldCredits{0};    //!< scale-up to RoCE relayed frames that kept credits
    uint64_t lostFrames{0};          //!< frames lost on the wire
    uint64_t timeouts{0};            //!< retransmission timeouts
    uint32_t completedFlows{0};      //!< flows whose last byte arrived
    Time completion;                 //!< the last flow's completion
    double maxLinkUtilization{0};    //!< busiest port: wire bytes / (rate x completion)
    double maxFabricUtilization{0};  //!< the same over switch-to-switch ports
    double meanFabricUtilization{0}; //!< their mean
    uint64_t idealCompletionPs{0};   //!< busiest host port's bytes at line rate, wire size
    std::string scheme;              //!< congestion control the queue pairs ran
    EffectiveSettings effective;     //!< settings as installed
    uint64_t events{0};              //!< simulator events
    double wallSeconds{0};           //!< wall-clock time of the run
};

/**
 * \ingroup mlfabric-helper
 * The flows of \p pattern among \p ranks ranks, as (source, destination) rank pairs.
 * The permutation is a derangement drawn from \p seed (a Fisher-Yates shuffle on the
 * standard mt19937_64, redrawn until no rank sends to itself).
 * \param pattern the pattern
 * \param ranks how many ranks (at least 2)
 * \param seed the draw
 * \return the flows
 */
std::vector<std::pair<uint32_t, uint32_t>> TrafficFlows(TrafficPattern pattern,
                                                        uint32_t ranks,
                                                        uint64_t seed);

/**
 * \ingroup mlfabric-helper
 * Build the fabric, post one message per flow at time 0, run until every message has
 * arrived (or the stop time), tear the simulation down. Throws InputError for a bad
 * fabric or fewer than two ranks.
 * \param config the run
 * \return what it measured
 */
TrafficResult RunTraffic(const TrafficConfig& config);

} // namespace ns3

#endif /* MLFABRIC_TRAFFIC_SCENARIO_H */
