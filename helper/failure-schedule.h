/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_FAILURE_SCHEDULE_H
#define MLFABRIC_FAILURE_SCHEDULE_H

#include "ns3/failure-spec.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class RoceNetwork;

/**
 * \ingroup mlfabric-helper
 * Link and switch failures of a packet-level run, and what they cost.
 *
 * At its time a failure cuts its links (RocePort::SetLinkFailed at both ends): every
 * frame sent into them or on the cable is lost. DetectionDelay later every node's
 * routes are recomputed as all shortest paths over the links still up
 * (ComputeRoutingAvoiding) and installed at once; a node the failures cut off from a
 * destination keeps its old route, whose frames are lost. A restore brings the links
 * back and, DetectionDelay later, the routes that use them. The transports recover by
 * themselves (NACK, retransmission timeout).
 *
 * Per failure it reports the frames lost to it, the queue pairs whose routes changed
 * when it was detected and when its end was, and the time to recover: from the failure until every
 * queue pair that lost a data frame, an ACK or a NACK to it has had that loss repaired (its
 * acknowledged sequence has passed the lost frame).
 */
class FailureSchedule : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /** A schedule with no failures yet (Install adds them). */
    FailureSchedule() = default;

    /**
     * Schedule the failures on \p net; call before the simulation runs.
     * \param net the installed network, which must outlive the run
     * \param failures what fails and when (ParseFailureSpec)
     */
    void Install(RoceNetwork& net, const std::vector<FailureSpec>& failures);

    /** What one failure cost. */
    struct Outcome
    {
        std::string text;        //!< the --fail value
        Time down;               //!< when it failed
        Time up{Time::Max()};    //!< when it came back; Time::Max() if never
        uint64_t links{0};       //!< links it cut
        uint64_t lostFrames{0};  //!< frames lost on its links while it held them down
        uint64_t lostPayload{0}; //!< their message payload
        uint64_t reroutedQps{
            0}; //!< queue pairs whose routes changed when it, or its end, was detected
        uint64_t damagedQps{0};     //!< queue pairs that lost a data frame, ACK or NACK to it
        uint64_t unrecoveredQps{0}; //!< of those, the ones whose loss is still not repaired
        Time recoveryTime;          //!< failure to the last repair (zero if nothing lost)
    };

    /** \return one outcome per failure, in --fail order */
    std::vector<Outcome> GetOutcomes() const;
    /** \return the DetectionDelay attribute */
    Time GetDetectionDelay() const;

  protected:
    /** Forget the network and the failures. */
    void DoDispose() override;

  private:
    /** Failure \p i happens: cut its links. */
    void Fail(size_t i);
    /** Failure \p i ends: restore its links. */
    void Restore(size_t i);
    /** Failure \p i, or its end, has been detected: move the routes, count who moved. */
    void MoveRoutes(size_t i);
    /** Recompute and install every route over the links still up. */
    void Reroute();
    /** Record a frame lost on link \p link. */
    void OnLoss(uint32_t link, Ptr<const Packet> packet);
    /** Check which damaged queue pairs have repaired their losses. */
    void CheckRecovery();
    /** \return for every queue pair, the fabric links its routes may use */
    std::vector<std::vector<uint32_t>> QpRouteLinks() const;

    /** A queue pair: its node and number. */
    using QpKey = std::pair<uint32_t, uint32_t>;

    /** The state of one failure. */
    struct Event
    {
        FailureSpec spec;                     //!< what fails
        Outcome outcome;                      //!< its report
        std::map<QpKey, uint64_t> unrepaired; //!< queue pair -> sequence it must pass
        bool active{false};                   //!< its links are down
    };

    RoceNetwork* m_net{nullptr};      //!< the network the failures act on
    std::vector<Event> m_events;      //!< one per failure, in --fail order
    std::vector<uint32_t> m_downBy;   //!< per link: failures holding it down
    std::vector<int64_t> m_lastEvent; //!< per link: the last failure that cut it, or -1
    bool m_checkScheduled{false};     //!< a CheckRecovery is pending

    Time m_detectionDelay;        //!< DetectionDelay attribute
    Time m_recoveryCheckInterval; //!< RecoveryCheckInterval attribute
};

} // namespace ns3

#endif /* MLFABRIC_FAILURE_SCHEDULE_H */
