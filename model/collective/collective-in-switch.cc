/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-in-switch.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InSwitchPhase");

InSwitchPhase::InSwitchPhase(const PhaseContext& context)
    : PhaseExecution(context)
{
}

void
InSwitchPhase::Start(PhaseIo& io)
{
    io.Wait(Context().handoffNs);
}

void
InSwitchPhase::OnTimer(PhaseIo& io)
{
    if (m_received)
    {
        Finish();
        return;
    }
    NS_LOG_FUNCTION(this << Context().index << Context().spec.inputBytes);
    using Op = NetworkBackend::InSwitchOp;
    const CollectiveType type = Context().spec.op;
    const Op op = type == CollectiveType::ReduceScatter ? Op::ReduceScatter
                  : type == CollectiveType::AllGather   ? Op::AllGather
                                                        : Op::AllReduce;
    io.ReduceInSwitch(Context().spec.inputBytes, op);
    // The result is reported as a message from this rank's own position.
    PostReceive(Context().index, io);
}

void
InSwitchPhase::OnReceived(uint32_t, PhaseIo& io)
{
    m_received = true;
    io.Wait(Context().handoffNs);
}

} // namespace ns3
