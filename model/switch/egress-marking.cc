/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "egress-marking.h"

#include "ns3/int-hop.h"
#include "ns3/roce-header.h"
#include "ns3/simulator.h"

namespace ns3
{

double
EcnThresholds::Probability(uint64_t queueBytes) const
{
    if (queueBytes <= kminBytes)
    {
        return 0;
    }
    if (queueBytes >= kmaxBytes)
    {
        return 1;
    }
    return pmax * static_cast<double>(queueBytes - kminBytes) /
           static_cast<double>(kmaxBytes - kminBytes);
}

DepartureEdit
EditDepartingFrame(QueuedFrame& q,
                   const RocePort& port,
                   const EcnThresholds* ecn,
                   UniformRandomVariable& rng,
                   uint64_t priorityBytes,
                   uint64_t portBytes)
{
    DepartureEdit edit;
    // Scale-up links (credit flow control, NVLink/NVSwitch class) carry neither ECN
    // nor INT: a path's telemetry comes from its RoCE hops alone.
    if (!q.isData || port.HasCreditFlowControl())
    {
        return edit;
    }
    const bool ect = (q.flags & RoceHeader::ECT) && !(q.flags & RoceHeader::CE);
    const bool mark = ecn != nullptr && ect && rng.GetValue() < ecn->Probability(priorityBytes);
    const bool stamp = (q.flags & RoceHeader::WANT_INT) != 0;
    if (!mark && !stamp)
    {
        return edit;
    }
    // The frame carries its header decoded: edit it in place.
    RoceHeader& h = *q.frame.header;
    if (mark)
    {
        h.Set(RoceHeader::CE);
        edit.marked = true;
    }
    if (stamp)
    {
        IntHop hop;
        hop.timestamp = Simulator::Now();
        hop.txBytes = port.GetTxBytes();
        hop.qlenBytes = portBytes;
        hop.rateBps = port.GetRateBps();
        edit.stamped = h.PushHop(hop);
    }
    q.frame.wireBytes = h.GetWireBytes();
    return edit;
}

} // namespace ns3
