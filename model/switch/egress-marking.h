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
 * What EditDepartingFrame did to a frame.
 */
struct DepartureEdit
{
    bool marked{false};  //!< CE was set
    bool stamped{false}; //!< an INT hop record was pushed
};

/**
 * \ingroup mlfabric-switch
 * The egress edits of a switch port, shared by switches and relaying NPUs: ECN-mark a
 * departing ECN-capable data packet with the probability of its priority's queue
 * length, and stamp an INT hop record (the port's transmitted bytes, rate and queue)
 * on one that asks for telemetry. Control packets are left as they are, and so is
 * everything leaving a port with link-level credit flow control (a scale-up port:
 * NVLink-class links have neither ECN nor INT).
 * \param q the departing frame, already out of its queue
 * \param port the egress port
 * \param ecn the port's marking ramp, or null when marking is off
 * \param rng draws the marking decision
 * \param priorityBytes bytes still queued at the frame's priority (what ECN reads)
 * \param portBytes bytes still queued at the port, every priority (what INT reports)
 * \return what was done; the frame's wire size follows its header
 */
DepartureEdit EditDepartingFrame(QueuedFrame& q,
                                 const RocePort& port,
                                 const EcnThresholds* ecn,
                                 UniformRandomVariable& rng,
                                 uint64_t priorityBytes,
                                 uint64_t portBytes);

} // namespace ns3

#endif /* MLFABRIC_EGRESS_MARKING_H */
