/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "egress-marking.h"

#include "ns3/int-hop.h"
#include "ns3/pint-telemetry.h"
#include "ns3/roce-header.h"
#include "ns3/simulator.h"

#include <algorithm>

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

bool
MarkArrivingFrame(QueuedFrame& q,
                  const EcnThresholds& ecn,
                  UniformRandomVariable& rng,
                  uint64_t priorityBytes)
{
    const bool ect = q.isData && (q.flags & RoceHeader::ECT) && !(q.flags & RoceHeader::CE);
    if (!ect || rng.GetValue() >= ecn.Probability(priorityBytes))
    {
        return false;
    }
    q.frame.header->Set(RoceHeader::CE);
    q.flags |= RoceHeader::CE;
    return true;
}

DepartureEdit
EditDepartingFrame(QueuedFrame& q,
                   RocePort& port,
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
    const bool pint = (q.flags & RoceHeader::WANT_PINT) != 0;
    if (!mark && !stamp && !pint)
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
    if (pint)
    {
        const double u = port.GetPintUtilization().Update(Simulator::Now(),
                                                          port.GetTxBytes(),
                                                          portBytes,
                                                          port.GetRateBps(),
                                                          PicoSeconds(h.pintEwmaPs));
        const uint16_t power = PintCode(h.pintLogBase).Encode(u, rng.GetValue());
        h.pintPower = std::max(h.pintPower, power);
        edit.stamped = true;
    }
    q.frame.wireBytes = h.GetWireBytes();
    return edit;
}

} // namespace ns3
