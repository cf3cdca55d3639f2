/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cc-hpcc-pint.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/pint-telemetry.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CcHpccPint");
NS_OBJECT_ENSURE_REGISTERED(CcHpccPint);

TypeId
CcHpccPint::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CcHpccPint")
            .SetParent<CcHpcc>()
            .SetGroupName("Mlfabric")
            .AddConstructor<CcHpccPint>()
            .AddAttribute("LogBase",
                          "Log base b of the utilisation code; the decoded value is within a "
                          "factor b of the switch's; range (1, 2]; default 1.05 (the HPCC "
                          "simulator's PINT_LOG_BASE; its run.py passes 1.01)",
                          DoubleValue(1.05),
                          MakeDoubleAccessor(&CcHpccPint::m_logBase),
                          MakeDoubleChecker<double>(1.000001, 2.0))
            .AddAttribute("SampleProbability",
                          "Probability that an ACK's PINT value updates the window; range "
                          "(0, 1]; default 1 (the HPCC simulator's PINT_PROB)",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&CcHpccPint::m_sampleProbability),
                          MakeDoubleChecker<double>(1e-9, 1.0))
            .AddAttribute("UtilizationPeriod",
                          "T of the switches' utilisation EWMA, carried by the data packets; "
                          "0 s: the queue pair's base RTT (the HPCC simulator uses the "
                          "largest base RTT, which is the queue pair's with GLOBAL_T 1); "
                          "default 0 s",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&CcHpccPint::m_period),
                          MakeTimeChecker(Seconds(0)));
    return tid;
}

CcHpccPint::CcHpccPint()
    : m_sampling(CreateObject<UniformRandomVariable>())
{
}

std::string
CcHpccPint::GetName() const
{
    return "hpcc-pint";
}

bool
CcHpccPint::NeedsInt() const
{
    return false;
}

int64_t
CcHpccPint::AssignStreams(int64_t stream)
{
    m_sampling->SetStream(stream);
    return 1;
}

void
CcHpccPint::Init(CcQueuePairView* qp)
{
    CcHpcc::Init(qp);
    m_effectivePeriod = m_period.IsStrictlyPositive() ? m_period : qp->GetBaseRtt();
}

PintSettings
CcHpccPint::GetPintSettings() const
{
    return {m_logBase, m_effectivePeriod};
}

bool
CcHpccPint::MeasureUtilization(const AckSample& ack)
{
    if (!ack.hasPint)
    {
        return false;
    }
    if (m_sampleProbability < 1 && m_sampling->GetValue() >= m_sampleProbability)
    {
        return false;
    }
    if (IsFirstRttPending())
    {
        StartFirstRtt();
        return false;
    }
    const double u = PintCode(m_logBase).Decode(ack.pintPower);
    SetUtilization(u);
    NS_LOG_LOGIC(this << " PINT code " << ack.pintPower << " U " << u);
    return true;
}

} // namespace ns3
