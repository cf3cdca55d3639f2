/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_INCAST_SCENARIO_H
#define MLFABRIC_INCAST_SCENARIO_H

#include "ns3/cc-setup.h"
#include "ns3/effective-settings.h"
#include "ns3/fabric.h"
#include "ns3/failure-schedule.h"
#include "ns3/invariant-options.h"
#include "ns3/nstime.h"
#include "ns3/process-group.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * An N-to-1 incast through one switch: the demo of the data plane and its tests.
 */
struct IncastConfig
{
    uint32_t senders{16};              //!< hosts sending to the one receiver
    uint64_t messageBytes{4ULL << 20}; //!< one message per sender
    uint64_t rateBps{100'000'000'000}; //!< every link
    Time delay{MicroSeconds(1)};       //!< every link, one way
    uint32_t mtu{4096};                //!< data payload per packet
    uint8_t priority{3};               //!< traffic class of the data (lossless)
    bool pfc{true};                    //!< PFC on the lossless priority
    uint64_t bufferBytes{32ULL << 20}; //!< switch buffer
    double loss{0};                    //!< per-frame loss on every link
    CcSettings cc;                     //!< congestion control, presets, ECN thresholds
    Time stopTime{Seconds(10)};        //!< give up here (a hang is a failure)
    std::string fabricPath;            //!< a fabric file instead of the one switch
    int64_t receiverRank{-1};          //!< with a fabric: the receiver; -1 = last rank
    Time invariantPeriod{0};           //!< check the InvariantChecker rules this often; 0 = off
    std::vector<std::string> failures; //!< --fail values (ParseFailureSpec)
    bool trim{false};                  //!< packet trimming at the switches (TrimEnabled)
    std::shared_ptr<ProcessGroup> processes; //!< a distributed run's processes; null: one
    std::string partitionPath;               //!< distributed: the partition file; empty: automatic
};

/** \ingroup mlfabric-helper
 * Per-sender outcome. */
struct IncastFlow
{
    uint32_t sender{0};             //!< node id
    Time completion;                //!< sender-side completion (last byte acknowledged); 0 if not
    Time received;                  //!< receiver-side completion (last byte arrived); 0 if not
    uint32_t timesReceived{0};      //!< how often the receiver reported this message
    uint64_t retransmittedBytes{0}; //!< bytes the sender sent more than once
};

/**
 * \ingroup mlfabric-helper
 * Per-port PFC outcome (ports that sent or received PFC).
 */
struct IncastPort
{
    std::string name;           //!< e.g. "switch 3 port 1" or "host 2 port 0"
    uint32_t node{0};           //!< node id
    uint32_t port{0};           //!< port index at the node
    uint64_t pauseFramesTx{0};  //!< pause frames sent from this port
    uint64_t resumeFramesTx{0}; //!< resume frames sent from this port
    Time pausedTime;            //!< time this port's transmitter was paused
};

/**
 * \ingroup mlfabric-helper
 * What an incast run measured.
 */
struct IncastResult
{
    std::vector<IncastFlow> flows;   //!< one per sender
    std::vector<IncastPort> ports;   //!< ports with PFC activity
    uint64_t bytesExpected{0};       //!< senders x message size
    uint64_t bytesDelivered{0};      //!< in-order payload bytes at the receiver
    uint64_t drops{0};               //!< buffer drops, switches and NPU relays
    uint64_t lostFrames{0};          //!< frames lost on the wire
    uint64_t pfcPauseFrames{0};      //!< pause frames sent, all ports
    uint64_t timeouts{0};            //!< retransmission timeouts, all senders
    uint64_t nacks{0};               //!< NACKs sent by the receiver
    uint64_t ecnMarks{0};            //!< CE marks, switches and NPU relays
    uint64_t cnps{0};                //!< CNPs sent, all NICs
    Time pausedTime;                 //!< time transmitters were paused by PFC, all ports
    std::string scheme;              //!< congestion control the queue pairs ran (GetName)
    std::string ecnMap;              //!< the ECN map of the congestion control, text form
    EffectiveSettings effective;     //!< lossless priorities and ECN thresholds as installed
    uint64_t rateChanges{0};         //!< pacing-rate changes of the congestion control
    uint64_t windowChanges{0};       //!< window changes of the congestion control
    std::string bottleneck;          //!< egress port with the longest mean queue
    uint64_t peakQueueBytes{0};      //!< its longest queue
    double meanQueueBytes{0};        //!< its time-weighted mean queue up to lastCompletion
    uint64_t bufferBytes{0};         //!< switch buffer size
    uint64_t maxBufferBytes{0};      //!< peak switch buffer use
    uint64_t egressDrops{0};         //!< switch drops by the lossy egress threshold (in drops)
    uint64_t peakHeadroomBytes{0};   //!< most PFC headroom in use at once, any switch
    uint64_t headroomPoolBytes{0};   //!< its shared headroom pool (0: per-queue headroom)
    uint64_t queueHeadroomBytes{0};  //!< its lossless queues' headroom added up
    uint64_t relayDrops{0};          //!< drops at NPU relays (counted in drops too)
    uint64_t relayEcnMarks{0};       //!< CE marks at NPU relays (counted in ecnMarks too)
    uint64_t relayHolds{0};          //!< times a relay ingress queue held its upstream
    uint64_t relayPeakQueueBytes{0}; //!< longest relay egress queue, any NPU
    uint64_t relayBufferBytes{0};    //!< the relay buffer of the NPU with the peak use
    uint64_t relayPeakUsedBytes{0};  //!< peak relay buffer use, any NPU
    Time lastCompletion;             //!< completion of the last message
    uint64_t events{0};              //!< simulator events executed
    double wallSeconds{0};           //!< wall-clock time of the run
    InvariantReport invariants;      //!< with an invariant period: what the checks found
    uint64_t trims{0};               //!< data packets the switches cut to their header
    std::string failureHeader;       //!< DescribeFailures; empty without failures
    std::vector<FailureSchedule::Outcome> failures; //!< one per --fail value
    std::string partition;               //!< distributed: DescribeFabricPartition, engine
    std::vector<uint64_t> processEvents; //!< distributed: events of each process
    std::vector<double> processSeconds;  //!< distributed: wall-clock time of each process
    // For the gather across processes: the nodes of three peaks (the last in node order
    // among equals); none where this process has no such node.
    std::optional<uint32_t> bufferNode;   //!< the switch of maxBufferBytes
    std::optional<uint32_t> headroomNode; //!< the switch of peakHeadroomBytes
    std::optional<uint32_t> relayNode;    //!< the NPU of relayPeakUsedBytes
    std::string queueCaveat; //!< distributed: why the queue figures may not be exact; "" if exact
};

/**
 * The incast's one switch as a fabric: the switch (node 0, the configured buffer), the
 * receiver (rank 0) and the senders (ranks 1..N), each NPU on one link of the
 * configured rate, delay and loss; ECN and PFC left to the run's defaults.
 * \param config the scenario
 * \return the fabric
 */
Fabric BuildIncastStar(const IncastConfig& config);

/**
 * Build and run an incast, then tear the simulation down.
 *
 * Without a fabric file the senders and the receiver share one switch whose links have
 * the configured rate and delay. With one, the receiver is a rank of the fabric and the
 * senders are the first ranks after it, wrapping around; links keep the fabric's own
 * rates and delays. Congestion control is installed with InstallCongestionControl once
 * the network is built. The queue figures are taken when the last message completes
 * (at the end of the run if one never does). Throws InputError for a bad fabric, too
 * few ranks or bad congestion-control settings.
 * \param config the scenario
 * \return what it measured
 */
IncastResult RunIncast(const IncastConfig& config);

} // namespace ns3

#endif /* MLFABRIC_INCAST_SCENARIO_H */
