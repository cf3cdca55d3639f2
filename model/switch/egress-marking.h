/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_EGRESS_MARKING_H
#define MLFABRIC_EGRESS_MARKING_H

#include "ns3/egress-queues.h"
#include "ns3/random-variable-stream.h"
#include "ns3/roce-port.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-switch
 * ECN marking at an egress queue, RED-style on the queue's bytes.
 *
 * Below Kmin nothing is marked, above Kmax everything; in between the probability
 * rises linearly from 0 to Pmax.
 */
struct EcnThresholds
{
    uint64_t kminBytes{100 * 1024}; //!< start of the marking ramp
    uint64_t kmaxBytes{400 * 1024}; //!< end of the ramp
    double pmax{0.2};               //!< marking probability at Kmax

    /** \param queueBytes queue length \return the marking probability */
    double Probability(uint64_t queueBytes) const;
};

/**
 * \ingroup mlfabric-switch
 * Where a switch port decides ECN marking, on the instantaneous queue of the packet's
 * priority either way.
 */
enum EcnMarkPoint
{
    MARK_AT_DEQUEUE, //!< as the packet leaves, on the bytes still queued behind it
    MARK_AT_ENQUEUE, //!< as the packet arrives, on the bytes queued with it included
};

/**
 * \ingroup mlfabric-switch
 * Mark an arriving ECN-capable data packet CE with the probability of the queue it
 * joins (MARK_AT_ENQUEUE): the packet whose arrival takes the queue past a step
 * threshold is the first one marked.
 * \param q the arriving frame, not yet queued
 * \param ecn the marking ramp of its egress port and priority
 * \param rng draws the marking decision
 * \param priorityBytes bytes queued at the frame's priority, the frame included
 * \return true if CE was set
 */
bool MarkArrivingFrame(QueuedFrame& q,
                       const EcnThresholds& ecn,
                       UniformRandomVariable& rng,
                       uint64_t priorityBytes);

/**
 * \ingroup mlfabric-switch
 * What EditDepartingFrame did to a frame.
 */
struct DepartureEdit
{
    bool marked{false};  //!< CE was set
    bool stamped{false}; //!< an INT hop record was pushed, or the PINT field updated
};

/**
 * \ingroup mlfabric-switch
 * The egress edits of a switch port, shared by switches and relaying NPUs: ECN-mark a
 * departing ECN-capable data packet with the probability of its priority's queue
 * length, and stamp an INT hop record (the port's transmitted bytes, rate and queue)
 * on one that asks for telemetry, or fold the port's utilisation into the PINT field of
 * one that asks for HPCC-PINT (keeping the path's largest code). Control packets are
 * left as they are, and so is everything leaving a port with link-level credit flow
 * control (a scale-up port: NVLink-class links have neither ECN nor INT).
 * \param q the departing frame, already out of its queue
 * \param port the egress port
 * \param ecn the port's marking ramp, or null when marking is off
 * \param rng draws the marking decision
 * \param priorityBytes bytes still queued at the frame's priority (what ECN reads)
 * \param portBytes bytes still queued at the port, every priority (what INT reports)
 * \return what was done; the frame's wire size follows its header
 */
DepartureEdit EditDepartingFrame(QueuedFrame& q,
                                 RocePort& port,
                                 const EcnThresholds* ecn,
                                 UniformRandomVariable& rng,
                                 uint64_t priorityBytes,
                                 uint64_t portBytes);

} // namespace ns3

#endif /* MLFABRIC_EGRESS_MARKING_H */
