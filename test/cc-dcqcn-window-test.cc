/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// DCQCN with a window (--cc=dcqcn-window): the paper's rate control, and the BDP
// scaled by rate / line rate in flight at most.
#include "cc-fake-qp.h"

#include "ns3/boolean.h"
#include "ns3/cc-dcqcn-window.h"
#include "ns3/cc-registry.h"
#include "ns3/core-module.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

class DcqcnWindowTest : public testing::Test
{
  protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
    }

    FakeQueuePair qp; // 100 Gb/s, base RTT 10 us: BDP 125000 bytes
};

} // namespace

TEST_F(DcqcnWindowTest, WindowFollowsTheRate)
{
    Ptr<RdmaCongestionOps> any = CreateCongestionOps("dcqcn-window");
    Ptr<CcDcqcnWindow> cc = DynamicCast<CcDcqcnWindow>(any);
    ASSERT_NE(cc, nullptr);
    cc->Init(&qp);
    EXPECT_EQ(qp.rate, qp.lineRate);
    EXPECT_EQ(qp.window, 125000U);
    cc->OnCnp(); // alpha 1: the rate halves, and the window with it
    EXPECT_EQ(qp.rate, 50000000000ULL);
    EXPECT_EQ(qp.window, 62500U);
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), 1.0);
    cc->Stop();
}

TEST_F(DcqcnWindowTest, FixedWindowAndOneMtuFloor)
{
    Ptr<CcDcqcnWindow> fixed = CreateObject<CcDcqcnWindow>();
    fixed->SetAttribute("VariableWindow", BooleanValue(false));
    fixed->Init(&qp);
    fixed->OnCnp();
    EXPECT_EQ(qp.rate, 50000000000ULL);
    EXPECT_EQ(qp.window, 125000U);
    fixed->Stop();

    FakeQueuePair slow;
    slow.baseRtt = NanoSeconds(40); // BDP 500 bytes, below the 1000-byte MTU
    Ptr<CcDcqcnWindow> floor = CreateObject<CcDcqcnWindow>();
    floor->Init(&slow);
    EXPECT_EQ(slow.window, 1000U);
    floor->Stop();
}
