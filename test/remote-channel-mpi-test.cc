/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// A RoceRemoteChannel between two MPI processes of ns-3's distributed simulator: frames
// cross with the arrival times a RoceChannel gives them (closed form), every header field
// intact, PFC pauses act across, and the payload on the cable, summed over the processes,
// is conserved. Run as `mpiexec -n 2 remote-channel-mpi-test --engine=E`, E being
// granted-time-window (DistributedSimulatorImpl) or null-message (NullMessageSimulatorImpl),
// and one case per run (--gtest_filter): ns-3's MPI engines run one simulation a process.

#include "ns3/data-rate.h"
#include "ns3/global-value.h"
#include "ns3/mpi-interface.h"
#include "ns3/node.h"
#include "ns3/pfc-header.h"
#include "ns3/roce-header.h"
#include "ns3/roce-remote-channel.h"
#include "ns3/roce-wire.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstring>
#include <deque>
#include <iostream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t kRate = 100'000'000'000;
const Time kDelay = MicroSeconds(1);
constexpr uint32_t kFrames = 8;
constexpr uint32_t kPayload = 1000;

/** Rank 0's side: sends kFrames DATA frames with one INT hop, records the ACKs. */
class Sender : public RocePortOwner
{
  public:
    bool
    DequeueFrame(RocePort& port, RoceFrame& frame) override
    {
        if (sent == kFrames)
        {
            return false;
        }
        frame.header = MakeRoceHeader();
        RoceHeader& h = *frame.header;
        h.type = RoceHeader::DATA;
        h.priority = 3;
        h.Set(RoceHeader::WANT_INT);
        h.src = 0;
        h.dst = 1;
        h.srcQp = 11;
        h.dstQp = 22;
        h.seq = uint64_t(sent) * kPayload;
        h.payload = kPayload;
        h.timestampPs = Simulator::Now().GetPicoSeconds();
        IntHop hop;
        hop.timestamp = Simulator::Now();
        hop.txBytes = port.GetTxBytes();
        hop.rateBps = kRate;
        h.PushHop(hop);
        frame.wireBytes = h.GetWireBytes();
        frame.priority = 3;
        frame.payload = kPayload;
        ++sent;
        return true;
    }

    bool
    HasPending(const RocePort&) const override
    {
        return sent < kFrames;
    }

    void
    ReceiveFrame(RocePort&, RoceFrame&& frame) override
    {
        ackTimes.push_back(Simulator::Now());
        ackSeqs.push_back(frame.header->seq);
        ackEchoes.push_back(frame.header->timestampPs);
    }

    uint32_t sent{0};               //!< DATA frames sent
    std::vector<Time> ackTimes;     //!< when each ACK arrived
    std::vector<uint64_t> ackSeqs;  //!< their sequence numbers
    std::vector<int64_t> ackEchoes; //!< their echoed transmit times
};

/** Rank 1's side: answers every DATA frame with an ACK at once. */
class Echoer : public RocePortOwner
{
  public:
    bool
    DequeueFrame(RocePort& port, RoceFrame& frame) override
    {
        if (pending.empty())
        {
            return false;
        }
        frame = std::move(pending.front());
        pending.pop_front();
        return true;
    }

    bool
    HasPending(const RocePort&) const override
    {
        return !pending.empty();
    }

    void
    ReceiveFrame(RocePort& port, RoceFrame&& frame) override
    {
        const RoceHeader& d = *frame.header;
        arrivals.push_back(Simulator::Now());
        seqs.push_back(d.seq);
        hopTimes.push_back(d.nHops == 1 ? d.hops[0].timestamp : Time(-1));
        fieldsIntact = fieldsIntact && d.type == RoceHeader::DATA && d.priority == 3 &&
                       d.src == 0 && d.dst == 1 && d.srcQp == 11 && d.dstQp == 22 &&
                       d.payload == kPayload && d.Has(RoceHeader::WANT_INT) &&
                       d.hops[0].rateBps == kRate && frame.wireBytes == d.GetWireBytes();
        RoceFrame ack;
        ack.header = MakeRoceHeader();
        ack.header->type = RoceHeader::ACK;
        ack.header->priority = 3;
        ack.header->src = 1;
        ack.header->dst = 0;
        ack.header->seq = d.seq + d.payload;
        ack.header->timestampPs = d.timestampPs;
        ack.wireBytes = ack.header->GetWireBytes();
        ack.priority = 3;
        pending.push_back(std::move(ack));
        port.NotifyWork();
    }

    std::deque<RoceFrame> pending; //!< ACKs to send
    std::vector<Time> arrivals;    //!< when each DATA frame arrived
    std::vector<uint64_t> seqs;    //!< their sequence numbers
    std::vector<Time> hopTimes;    //!< their INT hop's timestamp
    bool fieldsIntact{true};       //!< every other field as sent
};

/** An owner with nothing to send that ignores what arrives. */
class Idle : public RocePortOwner
{
  public:
    bool
    DequeueFrame(RocePort&, RoceFrame&) override
    {
        return false;
    }

    void
    ReceiveFrame(RocePort&, RoceFrame&&) override
    {
    }
};

/** Two nodes, one per rank, their ports joined by a RoceRemoteChannel. */
struct TwoRanks
{
    TwoRanks()
    {
        for (uint32_t rank = 0; rank < 2; ++rank)
        {
            nodes[rank] = CreateObject<Node>(rank);
            ports[rank] = CreateObject<RocePort>();
            ports[rank]->SetAttribute("DataRate", DataRateValue(DataRate(kRate)));
            nodes[rank]->AddDevice(ports[rank]);
        }
        channel = CreateObject<RoceRemoteChannel>();
        channel->SetAttribute("Delay", TimeValue(kDelay));
        channel->Connect(ports[0], ports[1]);
    }

    Ptr<Node> nodes[2];
    Ptr<RocePort> ports[2];
    Ptr<RoceRemoteChannel> channel;
};

uint32_t
Rank()
{
    return MpiInterface::GetSystemId();
}

/** \return the sum of \p value over the ranks, modulo 2^64 */
uint64_t
SumOverRanks(uint64_t value)
{
    uint64_t sum = 0;
    MPI_Allreduce(&value, &sum, 1, MPI_UINT64_T, MPI_SUM, MpiInterface::GetCommunicator());
    return sum;
}

} // namespace

TEST(RemoteChannelMpi, FramesCrossAtTheirArrivalTimeWithEveryField)
{
    TwoRanks net;
    Sender sender;
    Echoer echoer;
    net.ports[0]->SetOwner(&sender, 0);
    net.ports[1]->SetOwner(&echoer, 0);
    if (Rank() == 0)
    {
        Simulator::ScheduleWithContext(
            net.nodes[0]->GetId(), Time(0), &RocePort::NotifyWork, net.ports[0]);
    }
    Simulator::Stop(MicroSeconds(20));
    Simulator::Run();

    // DATA: 1000 B, BTH, ICRC, one INT hop, Ethernet, IPv4, UDP, preamble, gap.
    const uint32_t dataWire = kPayload + wire::kDataOverhead + wire::kIntShim + wire::kIntHop;
    const Time tData = net.ports[0]->SerializationTime(dataWire);
    EXPECT_EQ(tData, PicoSeconds(uint64_t(dataWire) * 8 * 10)); // 10 ps a bit at 100 Gb/s
    RoceHeader ackHeader;
    ackHeader.type = RoceHeader::ACK;
    const Time tAck = net.ports[1]->SerializationTime(ackHeader.GetWireBytes());
    if (Rank() == 1)
    {
        // EXPECT, not ASSERT: both processes must reach the collective checks below.
        EXPECT_EQ(echoer.arrivals.size(), kFrames);
        EXPECT_TRUE(echoer.fieldsIntact);
        for (uint32_t i = 0; i < kFrames && i < echoer.arrivals.size(); ++i)
        {
            // Back to back from t = 0: frame i ends at (i + 1) T, then the cable's delay.
            EXPECT_EQ(echoer.arrivals[i], tData * (i + 1) + kDelay) << "frame " << i;
            EXPECT_EQ(echoer.seqs[i], uint64_t(i) * kPayload);
            EXPECT_EQ(echoer.hopTimes[i], tData * i);
        }
        EXPECT_EQ(net.channel->GetFramesReceivedAcross(), kFrames);
        EXPECT_EQ(net.channel->GetFramesSentAcross(), kFrames);
        EXPECT_EQ(net.ports[1]->GetCounters().rxPayload, uint64_t(kFrames) * kPayload);
    }
    else
    {
        EXPECT_EQ(sender.sent, kFrames);
        EXPECT_EQ(sender.ackTimes.size(), kFrames);
        for (uint32_t i = 0; i < kFrames && i < sender.ackTimes.size(); ++i)
        {
            // Each ACK leaves as its DATA frame arrives (the ACK is shorter, so the port
            // is idle) and crosses back.
            EXPECT_EQ(sender.ackTimes[i], tData * (i + 1) + kDelay + tAck + kDelay) << "ack " << i;
            EXPECT_EQ(sender.ackSeqs[i], uint64_t(i + 1) * kPayload);
            EXPECT_EQ(sender.ackEchoes[i], (tData * i).GetPicoSeconds());
        }
        EXPECT_EQ(net.channel->GetFramesSentAcross(), kFrames);
        EXPECT_EQ(net.ports[0]->GetCounters().txPayload, uint64_t(kFrames) * kPayload);
    }
    // Nothing is left on the cable: what one process sent, the other received.
    EXPECT_EQ(SumOverRanks(net.channel->GetPayloadInFlight()), 0u);
    EXPECT_EQ(SumOverRanks(net.ports[Rank()]->GetCounters().rxPayload),
              uint64_t(kFrames) * kPayload);
    Simulator::Destroy();
}

TEST(RemoteChannelMpi, PfcPauseActsAcross)
{
    TwoRanks net;
    Idle idle[2];
    net.ports[0]->SetOwner(&idle[0], 0);
    net.ports[1]->SetOwner(&idle[1], 0);
    const uint16_t quanta = 1000; // 512,000 bit times: 5.12 us at 100 Gb/s
    const Time sendAt = MicroSeconds(2);
    // The pause takes hold one response time after the frame arrives across the ranks.
    const Time holdsAt = sendAt + net.ports[1]->SerializationTime(wire::kPfcWireBytes) + kDelay +
                         net.ports[0]->GetPfcResponseTime();
    const Time pause = net.ports[0]->QuantaTime(quanta);
    EXPECT_EQ(pause, NanoSeconds(5120));
    bool pausedBefore = true;
    bool pausedJustAfter = false;
    bool pausedAtEnd = true;
    if (Rank() == 1)
    {
        Simulator::ScheduleWithContext(
            net.nodes[1]->GetId(),
            sendAt,
            [&]
            {
                PfcHeader pfc;
                pfc.SetQuanta(3, quanta);
                Ptr<Packet> p = Create<Packet>();
                p->AddHeader(pfc);
                net.channel->Transmit(PeekPointer(net.ports[1]),
                                      p,
                                      wire::kPfcWireBytes,
                                      0,
                                      true,
                                      net.ports[1]->SerializationTime(wire::kPfcWireBytes));
            });
    }
    else
    {
        Simulator::ScheduleWithContext(net.nodes[0]->GetId(),
                                       holdsAt - NanoSeconds(1),
                                       [&] { pausedBefore = net.ports[0]->IsPaused(3); });
        Simulator::ScheduleWithContext(net.nodes[0]->GetId(),
                                       holdsAt + NanoSeconds(1),
                                       [&] { pausedJustAfter = net.ports[0]->IsPaused(3); });
        Simulator::ScheduleWithContext(net.nodes[0]->GetId(),
                                       holdsAt + pause + NanoSeconds(1),
                                       [&] { pausedAtEnd = net.ports[0]->IsPaused(3); });
    }
    Simulator::Stop(MicroSeconds(20));
    Simulator::Run();
    if (Rank() == 0)
    {
        EXPECT_FALSE(pausedBefore);
        EXPECT_TRUE(pausedJustAfter);
        EXPECT_FALSE(pausedAtEnd);
        EXPECT_EQ(net.ports[0]->GetCounters().pfcRx, 1u);
        EXPECT_EQ(net.channel->GetFramesReceivedAcross(), 1u);
    }
    else
    {
        EXPECT_EQ(net.channel->GetFramesSentAcross(), 1u);
    }
    Simulator::Destroy();
}

int
main(int argc, char** argv)
{
    std::string engine = "granted-time-window";
    std::vector<char*> args;
    for (int i = 0; i < argc; ++i)
    {
        if (std::strncmp(argv[i], "--engine=", 9) == 0)
        {
            engine = argv[i] + 9;
        }
        else
        {
            args.push_back(argv[i]);
        }
    }
    if (engine != "granted-time-window" && engine != "null-message")
    {
        std::cerr << "error: --engine: '" << engine
                  << "' is not granted-time-window or null-message\n";
        return 2;
    }
    int n = static_cast<int>(args.size());
    char** v = args.data();
    Time::SetResolution(Time::PS);
    GlobalValue::Bind("SimulatorImplementationType",
                      StringValue(engine == "null-message" ? "ns3::NullMessageSimulatorImpl"
                                                           : "ns3::DistributedSimulatorImpl"));
    MpiInterface::Enable(&n, &v);
    if (MpiInterface::GetSize() != 2)
    {
        std::cerr << "error: run on 2 MPI processes (mpiexec -n 2), not " << MpiInterface::GetSize()
                  << "\n";
        MpiInterface::Disable();
        return 2;
    }
    testing::InitGoogleTest(&n, v);
    const int status = RUN_ALL_TESTS();
    MpiInterface::Disable();
    return status;
}
