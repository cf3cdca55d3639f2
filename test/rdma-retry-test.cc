/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The InfiniBand transport timer: 4.096 us x 2^AckTimeout, RetryCount retries without
// progress, then the error state, which names the queue pair and ends the run.

#include "hand-fabric.h"
#include "latency-premise.h"

#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/ib-ack-timeout.h"
#include "ns3/nstime.h"
#include "ns3/roce-network.h"
#include "ns3/simulator.h"
#include "ns3/switch-pipeline.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t kRate = 100'000'000'000;

class RdmaRetryTest : public testing::Test
{
  protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }

    /** Host a - switch - host b; a's port loses every frame with probability \p loss. */
    void
    Build(double loss)
    {
        HandFabric hand;
        const uint32_t sw = hand.AddSwitch();
        m_a = hand.AddHost();
        m_b = hand.AddHost();
        hand.AddLink(m_a, sw, kRate, MicroSeconds(1));
        hand.AddLink(m_b, sw, kRate, MicroSeconds(1));
        hand.Install(m_net, 4096);
        m_net.GetNic(m_a)->GetPort(0)->SetAttribute("LossProbability", DoubleValue(loss));
        m_net.GetNic(m_a)->TraceConnectWithoutContext(
            "QueuePairError",
            Callback<void, Ptr<RdmaQueuePair>, const std::string&>(
                [this](Ptr<RdmaQueuePair> qp, const std::string& report)
                {
                    m_errors.push_back(report);
                    m_errorAt = Simulator::Now();
                    m_errorQp = qp;
                }));
    }

    RoceNetwork m_net;
    uint32_t m_a{0};
    uint32_t m_b{0};
    std::vector<std::string> m_errors;
    Time m_errorAt;
    Ptr<RdmaQueuePair> m_errorQp;
};

} // namespace

TEST_F(RdmaRetryTest, TimeoutIsTheVerbsFormulaAndNcclsDefaults)
{
    EXPECT_EQ(IbLocalAckTimeout(1), NanoSeconds(8192));
    EXPECT_EQ(IbLocalAckTimeout(14), MicroSeconds(67108) + NanoSeconds(864));
    EXPECT_EQ(IbLocalAckTimeout(20), NanoSeconds(4096LL << 20)); // 4.29 s
    EXPECT_EQ(IbLocalAckTimeout(0), Time::Max());
    Ptr<RdmaNic> nic = CreateObject<RdmaNic>();
    UintegerValue timeout;
    UintegerValue retries;
    nic->GetAttribute("AckTimeout", timeout);
    nic->GetAttribute("RetryCount", retries);
    EXPECT_EQ(timeout.Get(), 20U); // NCCL_IB_TIMEOUT
    EXPECT_EQ(retries.Get(), 7U);  // NCCL_IB_RETRY_CNT
}

TEST_F(RdmaRetryTest, ExhaustedRetriesEndTheRunNamingTheQueuePair)
{
    Config::SetDefault("ns3::RdmaNic::AckTimeout", UintegerValue(4)); // 65.536 us
    Config::SetDefault("ns3::RdmaNic::RetryCount", UintegerValue(3));
    Build(1.0);
    Ptr<RdmaQueuePair> qp = m_net.Connect(m_a, m_b, 3);
    m_net.GetNic(m_a)->PostSend(qp, 10000, 1);
    // Something later that the stop must cut off.
    bool ranOn = false;
    Simulator::Schedule(Seconds(1), [&ranOn]() { ranOn = true; });
    Simulator::Run();
    ASSERT_EQ(m_errors.size(), 1U);
    EXPECT_FALSE(ranOn);
    EXPECT_EQ(m_errorQp, qp);
    EXPECT_TRUE(qp->IsInError());
    // Sent at 0, retried at T, 2T, 3T; the fourth expiry at 4T is one too many.
    EXPECT_EQ(qp->GetTimeouts(), 4U);
    EXPECT_GE(m_errorAt, IbLocalAckTimeout(4) * 4);
    EXPECT_LT(m_errorAt, IbLocalAckTimeout(4) * 4 + MicroSeconds(2));
    const std::string who =
        "node " + std::to_string(m_a) + " QP 0 to node " + std::to_string(m_b) + " ";
    EXPECT_NE(m_errors[0].find(who), std::string::npos) << m_errors[0];
    EXPECT_NE(m_errors[0].find("exhausted its 3 retries"), std::string::npos) << m_errors[0];
    EXPECT_EQ(m_net.GetNic(m_a)->GetCounters().queuePairErrors, 1U);
    EXPECT_FALSE(qp->IsIdle());
}

TEST_F(RdmaRetryTest, ProgressResetsTheRetryCount)
{
    // Half the frames lost, two retries allowed: the transfer still completes, since
    // every acknowledgement that moves forward restores the retries.
    Config::SetDefault("ns3::RdmaNic::AckTimeout", UintegerValue(4));
    Config::SetDefault("ns3::RdmaNic::RetryCount", UintegerValue(2));
    // The loss draws of this case were chosen on paths without switch or NIC latency
    // (doc/latency.md); with them another sequence of losses exhausts the two retries.
    WithoutSwitchAndNicLatency();
    Build(0.5);
    Ptr<RdmaQueuePair> qp = m_net.Connect(m_a, m_b, 3);
    m_net.GetNic(m_a)->PostSend(qp, 200000, 1);
    Simulator::Run();
    EXPECT_TRUE(m_errors.empty());
    EXPECT_TRUE(qp->IsIdle());
    EXPECT_GT(qp->GetTimeouts(), 2U);
}
