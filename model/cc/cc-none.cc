/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cc-none.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CcNone");
NS_OBJECT_ENSURE_REGISTERED(CcNone);

TypeId
CcNone::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CcNone")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("Mlfabric")
            .AddConstructor<CcNone>()
            .AddAttribute("WindowBytes",
                          "Fixed send window, bytes; 0 (the default) disables the window",
                          UintegerValue(0),
                          MakeUintegerAccessor(&CcNone::m_windowBytes),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

std::string
CcNone::GetName() const
{
    return "none";
}

void
CcNone::Init(CcQueuePairView* qp)
{
    RdmaCongestionOps::Init(qp);
    ApplyRate(qp->GetLineRateBps());
    ApplyWindow(m_windowBytes);
}

} // namespace ns3
