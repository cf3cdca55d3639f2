/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The HPCC simulator's window around a rate-based scheme: base window at line rate,
// scaled with the rate (VAR_WIN), or fixed.

#include "cc-fake-qp.h"

#include "ns3/boolean.h"
#include "ns3/cc-peer-window.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/** A CcPeerWindow around \p scheme controlling \p qp. */
Ptr<CcPeerWindow>
Make(FakeQueuePair& qp, const std::string& scheme, bool variable)
{
    auto cc = CreateObject<CcPeerWindow>();
    cc->SetAttribute("Scheme", StringValue(scheme));
    cc->SetAttribute("VariableWindow", BooleanValue(variable));
    cc->Init(&qp);
    return cc;
}

/** An ACK that echoes an ECN mark. */
AckSample
MarkedAck()
{
    AckSample ack;
    ack.ecnEcho = true;
    return ack;
}

} // namespace

TEST(CcPeerWindow, BaseWindowAtLineRate)
{
    FakeQueuePair qp;
    const auto cc = Make(qp, "dcqcn-hpccns3", true);
    EXPECT_EQ(cc->GetName(), "dcqcn-hpccns3");
    EXPECT_EQ(cc->GetInner()->GetName(), "dcqcn-hpccns3");
    EXPECT_FALSE(cc->NeedsCnp());
    EXPECT_EQ(qp.rate, qp.lineRate);
    EXPECT_EQ(qp.window, 0u); // no base window yet
    cc->SetBaseWindow(153000);
    EXPECT_EQ(qp.window, 153000u);
    cc->SetBaseWindow(0);
    EXPECT_EQ(qp.window, 0u);
    // The paper DCQCN asks for CNPs; the wrapper passes that on.
    FakeQueuePair other;
    EXPECT_TRUE(Make(other, "dcqcn", true)->NeedsCnp());
    Simulator::Destroy();
}

TEST(CcPeerWindow, VariableWindowFollowsTheRate)
{
    FakeQueuePair qp;
    const auto cc = Make(qp, "dcqcn-hpccns3", true);
    cc->SetBaseWindow(153000);
    // The first signal keeps the rate (RateOnFirstCnp 1); the second, in a later
    // decrease slot, cuts it by alpha / 2 = 1/2 (alpha starts at 1).
    cc->OnAck(MarkedAck());
    Simulator::Stop(MicroSeconds(5));
    Simulator::Run();
    cc->OnAck(MarkedAck());
    Simulator::Stop(MicroSeconds(5));
    Simulator::Run();
    ASSERT_LT(qp.rate, qp.lineRate);
    EXPECT_EQ(qp.window, 153000 * qp.rate / qp.lineRate);
    cc->Stop();
    Simulator::Destroy();
}

TEST(CcPeerWindow, FixedWindowIgnoresTheRate)
{
    FakeQueuePair qp;
    const auto cc = Make(qp, "dcqcn-hpccns3", false);
    cc->SetBaseWindow(52000);
    cc->OnAck(MarkedAck());
    Simulator::Stop(MicroSeconds(5));
    Simulator::Run();
    cc->OnAck(MarkedAck());
    Simulator::Stop(MicroSeconds(5));
    Simulator::Run();
    ASSERT_LT(qp.rate, qp.lineRate);
    EXPECT_EQ(qp.window, 52000u);
    // After Stop nothing reaches the inner scheme.
    cc->Stop();
    cc->OnAck(MarkedAck());
    Simulator::Destroy();
}
