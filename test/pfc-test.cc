/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// IEEE 802.1Qbb pause semantics of a RocePort: quanta, expiry, refresh, resume.

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/enum.h"
#include "ns3/node.h"
#include "ns3/pfc-header.h"
#include "ns3/roce-channel.h"
#include "ns3/roce-port.h"
#include "ns3/roce-wire.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t kRate = 100'000'000'000;
const Time kDelay = MicroSeconds(1);

/** An owner that always has a frame of priority 3 to send and counts what it sends. */
class SaturatedOwner : public RocePortOwner
{
  public:
    bool
    DequeueFrame(RocePort& port, RoceFrame& frame) override
    {
        if (port.IsPaused(3))
        {
            return false;
        }
        frame.packet = Create<Packet>(1000);
        frame.wireBytes = 1000;
        frame.priority = 3;
        sendTimes.push_back(Simulator::Now());
        return true;
    }

    void
    ReceiveFrame(RocePort&, RoceFrame&&) override
    {
    }

    std::vector<Time> sendTimes; //!< when each frame started
};

class PfcTest : public testing::Test
{
  public:
    void
    SetUp() override
    {
        for (auto& p : m_ports)
        {
            p = CreateObject<RocePort>();
            p->SetAttribute("DataRate", DataRateValue(DataRate(kRate)));
            // Pauses act on arrival here; test/pfc-response-test.cc adds the response time.
            p->SetAttribute("PfcResponseTime", TimeValue(Time(0)));
            Ptr<Node> node = CreateObject<Node>();
            node->AddDevice(p);
        }
        m_channel = CreateObject<RoceChannel>();
        m_channel->SetAttribute("Delay", TimeValue(kDelay));
        m_channel->Connect(m_ports[0], m_ports[1]);
        m_ports[0]->SetOwner(&m_sender, 0);
        m_ports[1]->SetOwner(&m_receiver, 0);
    }

    void
    TearDown() override
    {
        Simulator::Destroy();
    }

    /** Send a pause frame with \p quanta for priority 3 from port 1 to port 0. */
    void
    SendPause(uint16_t quanta)
    {
        PfcHeader pfc;
        pfc.SetQuanta(3, quanta);
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(pfc);
        m_channel->Transmit(PeekPointer(m_ports[1]),
                            p,
                            wire::kPfcWireBytes,
                            0,
                            true,
                            m_ports[1]->SerializationTime(wire::kPfcWireBytes));
    }

    /** \return the time a PFC frame takes to reach the other end */
    Time
    PfcFlight() const
    {
        return m_ports[1]->SerializationTime(wire::kPfcWireBytes) + kDelay;
    }

    Ptr<RocePort> m_ports[2];
    Ptr<RoceChannel> m_channel;
    SaturatedOwner m_sender;
    SaturatedOwner m_receiver;
};

/** Largest gap between consecutive sends after \p from. */
Time
LargestGap(const std::vector<Time>& times, Time from)
{
    Time gap;
    for (size_t i = 1; i < times.size(); ++i)
    {
        if (times[i - 1] >= from)
        {
            gap = std::max(gap, times[i] - times[i - 1]);
        }
    }
    return gap;
}

} // namespace

// Q quanta stop the priority for Q x 512 bit times; it then resumes on its own.
TEST_F(PfcTest, PauseExpiresAfterItsQuanta)
{
    const uint16_t quanta = 1000; // 512,000 bits = 5.12 us at 100 Gb/s
    const Time pause = NanoSeconds(5120);
    EXPECT_EQ(m_ports[0]->QuantaTime(quanta), pause);

    Simulator::Schedule(MicroSeconds(10), &PfcTest::SendPause, this, quanta);
    const Time arrival = MicroSeconds(10) + PfcFlight();
    bool pausedJustAfter = false;
    bool pausedBeforeEnd = true;
    bool pausedAfterEnd = true;
    Simulator::Schedule(Time(0), &RocePort::NotifyWork, m_ports[0]);
    Simulator::Schedule(arrival + NanoSeconds(1),
                        [&] { pausedJustAfter = m_ports[0]->IsPaused(3); });
    Simulator::Schedule(arrival + pause - NanoSeconds(1),
                        [&] { pausedBeforeEnd = m_ports[0]->IsPaused(3); });
    Simulator::Schedule(arrival + pause + NanoSeconds(1),
                        [&] { pausedAfterEnd = m_ports[0]->IsPaused(3); });
    Simulator::Stop(MicroSeconds(40));
    Simulator::Run();

    EXPECT_TRUE(pausedJustAfter);
    EXPECT_TRUE(pausedBeforeEnd);
    EXPECT_FALSE(pausedAfterEnd);
    EXPECT_EQ(m_ports[0]->GetCounters().pausedTime[3], pause);
    EXPECT_EQ(m_ports[0]->GetCounters().pfcRx, 1u);
    // The sender went quiet for the pause (less the frame in flight) and resumed unprompted.
    const Time gap = LargestGap(m_sender.sendTimes, MicroSeconds(9));
    EXPECT_GE(gap, pause);
    EXPECT_LE(gap, pause + m_ports[0]->SerializationTime(1000));
    EXPECT_GT(m_sender.sendTimes.back(), arrival + pause);
}

// A second pause before expiry restarts the timer from its arrival.
TEST_F(PfcTest, RefreshExtendsThePause)
{
    const uint16_t quanta = 1000;
    const Time pause = m_ports[0]->QuantaTime(quanta);
    Simulator::Schedule(MicroSeconds(10), &PfcTest::SendPause, this, quanta);
    Simulator::Schedule(MicroSeconds(13), &PfcTest::SendPause, this, quanta);
    const Time end = MicroSeconds(13) + PfcFlight() + pause;
    bool pausedBeforeEnd = false;
    bool pausedAfterEnd = true;
    Simulator::Schedule(end - NanoSeconds(1), [&] { pausedBeforeEnd = m_ports[0]->IsPaused(3); });
    Simulator::Schedule(end + NanoSeconds(1), [&] { pausedAfterEnd = m_ports[0]->IsPaused(3); });
    Simulator::Stop(MicroSeconds(40));
    Simulator::Run();
    EXPECT_TRUE(pausedBeforeEnd);
    EXPECT_FALSE(pausedAfterEnd);
    EXPECT_EQ(m_ports[0]->GetCounters().pausedTime[3], end - (MicroSeconds(10) + PfcFlight()));
}

// Zero quanta resume at once.
TEST_F(PfcTest, ZeroQuantaResume)
{
    Simulator::Schedule(MicroSeconds(10), &PfcTest::SendPause, this, PfcHeader::kMaxQuanta);
    Simulator::Schedule(MicroSeconds(20), &PfcTest::SendPause, this, 0);
    bool pausedBetween = false;
    bool pausedAfter = true;
    Simulator::Schedule(MicroSeconds(15), [&] { pausedBetween = m_ports[0]->IsPaused(3); });
    Simulator::Schedule(MicroSeconds(20) + PfcFlight() + NanoSeconds(1),
                        [&] { pausedAfter = m_ports[0]->IsPaused(3); });
    Simulator::Stop(MicroSeconds(40));
    Simulator::Run();
    EXPECT_TRUE(pausedBetween);
    EXPECT_FALSE(pausedAfter);
    EXPECT_EQ(m_ports[0]->GetCounters().pausedTime[3], MicroSeconds(10));
}

// A held XOFF is refreshed before the peer's timer runs out, so the peer never resumes.
TEST_F(PfcTest, HeldXoffIsRefreshedUntilXon)
{
    m_ports[1]->SetAttribute("PauseQuanta", UintegerValue(1000));
    Simulator::Schedule(MicroSeconds(10), &RocePort::SetPfcXoff, m_ports[1], 3, true);
    Simulator::Schedule(MicroSeconds(60), &RocePort::SetPfcXoff, m_ports[1], 3, false);
    Simulator::Schedule(Time(0), &RocePort::NotifyWork, m_ports[0]);
    Simulator::Stop(MicroSeconds(100));
    Simulator::Run();
    const auto rx = m_ports[0]->GetCounters();
    const auto tx = m_ports[1]->GetCounters();
    // 50 us held with a 5.12 us pause refreshed at half its length: about 20 frames.
    EXPECT_GE(tx.pfcPauseTx, 19u);
    EXPECT_LE(tx.pfcPauseTx, 21u);
    EXPECT_EQ(tx.pfcResumeTx, 1u);
    // Paused from the first frame's arrival to the resume frame's, without a gap.
    EXPECT_NEAR(rx.pausedTime[3].GetSeconds(), 50e-6, 0.1e-6);
    EXPECT_GE(LargestGap(m_sender.sendTimes, MicroSeconds(9)), MicroSeconds(49));
}

// With PauseExpires off (the HPCC ns-3 simulator's behaviour) a pause lasts until resumed.
TEST_F(PfcTest, WithoutExpiryAPauseLastsUntilResumed)
{
    m_ports[0]->SetAttribute("PauseExpires", BooleanValue(false));
    Simulator::Schedule(MicroSeconds(10), &PfcTest::SendPause, this, 1000);
    Simulator::Schedule(MicroSeconds(30), &PfcTest::SendPause, this, 0);
    bool pausedLongAfterQuanta = false;
    Simulator::Schedule(MicroSeconds(25), [&] { pausedLongAfterQuanta = m_ports[0]->IsPaused(3); });
    Simulator::Stop(MicroSeconds(40));
    Simulator::Run();
    EXPECT_TRUE(pausedLongAfterQuanta);
    EXPECT_EQ(m_ports[0]->GetCounters().pausedTime[3], MicroSeconds(20));
}

// The watchdog breaks a pause that never ends and ignores pauses while it restores.
TEST_F(PfcTest, WatchdogBreaksAPauseStorm)
{
    m_ports[0]->SetAttribute("PfcWatchdogAction", EnumValue(RocePort::WATCHDOG_FORWARD));
    m_ports[0]->SetAttribute("PfcWatchdogTimeout", TimeValue(MicroSeconds(100)));
    m_ports[0]->SetAttribute("PfcWatchdogRestore", TimeValue(MicroSeconds(50)));
    m_ports[1]->SetAttribute("PauseQuanta", UintegerValue(1000));
    Simulator::Schedule(MicroSeconds(10), &RocePort::SetPfcXoff, m_ports[1], 3, true);
    Simulator::Schedule(Time(0), &RocePort::NotifyWork, m_ports[0]);
    Simulator::Stop(MicroSeconds(400));
    Simulator::Run();
    const auto c = m_ports[0]->GetCounters();
    // Paused at 11 us, broken at 111 us, ignoring until 161 us, paused again by the next
    // refresh, broken at about 263 us: two storms in 400 us.
    EXPECT_EQ(c.watchdogTriggers, 2u);
    EXPECT_GT(c.pfcIgnored, 0u);
    size_t sentWhileRestoring = 0;
    for (const Time& t : m_sender.sendTimes)
    {
        sentWhileRestoring += t > MicroSeconds(112) && t < MicroSeconds(160);
    }
    // 48 us at 100 Gb/s of 1000-byte frames: 600 frames.
    EXPECT_NEAR(double(sentWhileRestoring), 600.0, 10.0);
}
