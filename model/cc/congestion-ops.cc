/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "congestion-ops.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCongestionOps");
NS_OBJECT_ENSURE_REGISTERED(RdmaCongestionOps);

TypeId
RdmaCongestionOps::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCongestionOps").SetParent<Object>().SetGroupName("Mlfabric");
    return tid;
}

void
RdmaCongestionOps::Init(CcQueuePairView* qp)
{
    m_qp = qp;
}

void
RdmaCongestionOps::Stop()
{
    m_qp = nullptr;
}

void
RdmaCongestionOps::OnSend(uint32_t payloadBytes)
{
}

void
RdmaCongestionOps::OnAck(const AckSample& ack)
{
}

void
RdmaCongestionOps::OnNack(const AckSample& ack)
{
}

void
RdmaCongestionOps::OnCnp()
{
}

void
RdmaCongestionOps::OnTimeout()
{
}

bool
RdmaCongestionOps::NeedsInt() const
{
    return false;
}

bool
RdmaCongestionOps::NeedsCnp() const
{
    return false;
}

bool
RdmaCongestionOps::NeedsTimestamp() const
{
    return false;
}

} // namespace ns3
