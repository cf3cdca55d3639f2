/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Scale-up domains: a dimension declared scale_up gets credit flow control, its own
// framing and switch latency, and no RoCE congestion control.
//
// A ring all-reduce inside one scale-up domain takes the same time under every --cc,
// equal to its closed form: 2(n-1)/n of the data, each 256-byte packet with a 16-byte
// header, and a 16-byte acknowledgement per 64 packets coming the other way on the
// same wire, plus per step the cables, the switch latency and one packet's store and
// forward. A slow receiver backs up by credits alone: no drop, no PFC frame, the
// sending wire idle exactly as long as its credits are out, and the message done
// when the receiver has processed every framed byte at its rate.

#include "hpcc-message-run.h"
#include "program-run.h"
#include "replay-test-support.h"

#include "ns3/boolean.h"
#include "ns3/cc-hpcc.h"
#include "ns3/cc-none.h"
#include "ns3/cc-registry.h"
#include "ns3/cc-setup.h"
#include "ns3/config.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/effective-settings.h"
#include "ns3/egress-marking.h"
#include "ns3/fabric-loader.h"
#include "ns3/fabric-routing.h"
#include "ns3/input-error.h"
#include "ns3/network-stats.h"
#include "ns3/roce-network.h"
#include "ns3/roce-wire.h"
#include "ns3/simulator.h"
#include "ns3/traffic-scenario.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <iterator>

using namespace ns3;
using namespace ns3::replaytest;

namespace
{

constexpr double kRateGbps = 1600;
constexpr double kLatencyNs = 25;
constexpr double kSwitchNs = 150;
constexpr uint32_t kPayload = 256;
constexpr uint32_t kHeader = 16;

/** \return a one-server fabric: \p npus NPUs on a scale-up switch; \p scaleUp its value */
std::string
ScaleUpFabric(const ettest::ScratchDir& dir, uint32_t npus, const std::string& scaleUp)
{
    const std::string path = dir.File("scale-up.yaml");
    WriteText(path,
              "name: su\ndimensions:\n  - {name: nvlink, topology: Switch, npus: " +
                  std::to_string(npus) + ", rate: 1600Gbps, latency: 25ns, scale_up: " + scaleUp +
                  "}\n");
    return path;
}

/** Bytes per ns of the line rate. */
double
LineBytesPerNs()
{
    return kRateGbps / 8;
}

/** When each frame started on a port, its credit stalls, and when the message arrived. */
struct TxStarts
{
    std::vector<Time> at; //!< frame starts
    Time done;            //!< message received

    void
    Record(Ptr<const Packet>)
    {
        at.push_back(Simulator::Now());
    }

    std::vector<std::pair<Time, Time>> stalls; //!< credit stalls: when they ended, how long

    void
    Stall(uint8_t, Time d)
    {
        stalls.emplace_back(Simulator::Now(), d);
    }

    void
    Done(uint32_t, uint32_t, uint64_t, uint64_t)
    {
        done = Simulator::Now();
    }
};

class ScaleUpTest : public ::testing::Test
{
  protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
        Config::Reset();
    }
};

} // namespace

TEST_F(ScaleUpTest, AllReduceIgnoresCongestionControlAndMatchesClosedForm)
{
    constexpr uint32_t n = 4;
    constexpr uint64_t bytes = 4 << 20;
    ettest::ScratchDir dir;
    const std::string prefix = dir.File("w");
    for (uint32_t r = 0; r < n; ++r)
    {
        WriteRank(prefix, r, {Collective(1, EtCollectiveType::ALL_REDUCE, bytes)});
    }
    const std::string fabric = ScaleUpFabric(dir, n, "true");
    const std::string system = WriteSystem(dir, "ring", 1);

    // Each step moves bytes/n in whole packets; they share their wires with the
    // header-only acknowledgements of the neighbour's packets, one per
    // ScaleUpAckInterval (64) packets.
    const double steps = 2.0 * (n - 1);
    const double packetWire = wire::LinkFramedBytes(kPayload, kHeader, kPayload, 16);
    const double ackWire = wire::LinkFramedBytes(0, kHeader, kPayload, 16);
    const double stepBytes = static_cast<double>(bytes) / n;
    const double stepPackets = stepBytes / kPayload;
    const double stepWireNs =
        (stepPackets * packetWire + std::ceil(stepPackets / 64) * ackWire) / LineBytesPerNs();
    const double endpointNs = 10; // WriteSystem's endpoint-delay, once per hand-off
    const double stepLatencyNs =
        2 * kLatencyNs + kSwitchNs + packetWire / LineBytesPerNs() + endpointNs;
    const double expected = endpointNs + steps * (stepWireNs + stepLatencyNs);

    double first = -1;
    for (const std::string& scheme : CcSchemeNames())
    {
        ReplayRunConfig config = RunConfig(prefix, fabric, system);
        config.network.cc.scheme = scheme;
        const ReplayResult r = RunReplay(config);
        ASSERT_TRUE(r.completed) << scheme;
        const double measured = LastFinishNs(r);
        if (first < 0)
        {
            first = measured;
            const double deviation = (measured - expected) / expected;
            RecordProperty("expected_ns", std::to_string(expected));
            RecordProperty("measured_ns", std::to_string(measured));
            EXPECT_LT(std::abs(deviation), 0.005)
                << "measured " << measured << " ns, closed form " << expected << " ns";
        }
        EXPECT_EQ(measured, first) << "--cc " << scheme << " changed a scale-up all-reduce";
        EXPECT_EQ(r.networkDeliveredBytes, static_cast<uint64_t>(steps * stepBytes * n)) << scheme;
        Simulator::Destroy();
        Config::Reset();
    }
}

TEST_F(ScaleUpTest, SlowReceiverBacksUpByCreditsWithoutLoss)
{
    ettest::ScratchDir dir;
    constexpr uint64_t vcBuffer = 32 * 1024;
    const LoadedFabric loaded = LoadFabric(
        ScaleUpFabric(dir, 2, "{vc_buffer: 32KiB, credit_latency: 40ns, switch_latency: 150ns}"));
    RoceNetwork net;
    const auto nodes =
        net.Install(loaded.fabric, ComputeRouting(loaded.fabric, loaded.routing), 4096);
    Ptr<RdmaNic> sender = net.GetNic(nodes[0]);
    Ptr<RdmaNic> receiver = net.GetNic(nodes[1]);
    const uint64_t rxBps = 400'000'000'000; // a quarter of the line rate
    receiver->SetAttribute("RxProcessingRate", DataRateValue(DataRate(rxBps)));

    ASSERT_TRUE(net.IsScaleUpPath(nodes[0], nodes[1]));
    Ptr<RocePort> out = sender->GetPort(0);
    TxStarts starts;
    out->TraceConnectWithoutContext("Tx", MakeCallback(&TxStarts::Record, &starts));
    Time received;
    receiver->TraceConnectWithoutContext("MessageReceived", MakeCallback(&TxStarts::Done, &starts));
    out->TraceConnectWithoutContext("CreditStall", MakeCallback(&TxStarts::Stall, &starts));
    // Connected after the traces: the first frame starts at once.
    Ptr<RdmaQueuePair> qp = net.Connect(nodes[0], nodes[1], 3);
    constexpr uint64_t message = 4 << 20;
    net.GetNic(nodes[0])->PostSend(qp, message, 7);
    Simulator::Run();
    received = starts.done;

    // Every byte exactly once, nothing dropped, no PFC frame anywhere.
    EXPECT_EQ(receiver->GetCounters().deliveredBytes, message);
    EXPECT_EQ(receiver->GetCounters().duplicateBytes, 0u);
    EXPECT_EQ(sender->GetCounters().retransmittedBytes, 0u);
    EXPECT_EQ(qp->GetSndUna(), message);
    Ptr<RoceSwitch> sw = net.GetSwitch(net.GetSwitches().front());
    EXPECT_EQ(sw->GetCounters().drops, 0u);
    EXPECT_LE(sw->GetMmu()->GetPeakUsedBytes(), 2 * vcBuffer) << "data and control VCs";
    for (uint32_t node = 0; node < loaded.fabric.GetNodeCount(); ++node)
    {
        for (const auto& port : net.GetPorts(node))
        {
            EXPECT_EQ(port->GetCounters().pfcPauseTx, 0u) << "node " << node;
            EXPECT_EQ(port->GetCounters().lostFrames, 0u) << "node " << node;
        }
    }

    // The sending wire idled exactly while its data channel was out of credits.
    const auto c = out->GetCounters();
    const uint32_t frameBytes = wire::LinkFramedBytes(kPayload, kHeader, kPayload, 16);
    const Time frameTime = out->SerializationTime(frameBytes);
    const auto frames = static_cast<uint32_t>(message / kPayload);
    ASSERT_EQ(starts.at.size(), frames);
    EXPECT_EQ(c.txBytes, uint64_t{frames} * frameBytes);
    Time idle;
    for (size_t i = 1; i < starts.at.size(); ++i)
    {
        const Time gap = starts.at[i] - starts.at[i - 1] - frameTime;
        ASSERT_GE(gap, Time(0));
        idle += gap;
    }
    EXPECT_GT(c.creditStalls, 0u);
    EXPECT_GT(idle, Time(0));
    EXPECT_EQ(idle, c.creditStallTime[3]);
    // Gap by gap: each idle interval is one stall, ending as the next frame starts.
    std::vector<std::pair<Time, Time>> gaps;
    for (size_t i = 1; i < starts.at.size(); ++i)
    {
        const Time gap = starts.at[i] - starts.at[i - 1] - frameTime;
        if (gap.IsStrictlyPositive())
        {
            gaps.emplace_back(starts.at[i], gap);
        }
    }
    EXPECT_EQ(gaps, starts.stalls);
    EXPECT_EQ(c.creditStallTime[7], Time(0));
    const Time firstTx = starts.at.front();

    // The receiver works without a break from the first arrival: the message is done
    // when it has processed every framed byte at its rate.
    const Time firstArrival = firstTx + frameTime + NanoSeconds(kLatencyNs) +
                              NanoSeconds(kSwitchNs) + frameTime + NanoSeconds(kLatencyNs);
    const Time perFrame = DataRate(rxBps).CalculateBytesTxTime(frameBytes);
    const Time expected = firstArrival + perFrame * frames;
    EXPECT_EQ(received, expected);
    // Credits went back in updates of at least 4 KiB (one frame may take an update
    // past it) or after 50 ns, not one per frame.
    const uint64_t updates = out->GetPeer()->GetCounters().creditUpdates;
    EXPECT_GE(updates, uint64_t{frames} * frameBytes / (4096 + frameBytes));
    EXPECT_LT(updates, frames / 4);
    // Credits are all back: nothing is held anywhere.
    EXPECT_EQ(out->GetCredits(3), vcBuffer);
    EXPECT_EQ(sw->GetMmu()->GetUsedBytes(), 0u);
}

namespace
{

/** \return the InputError message that reading fabric \p path throws, or "" */
std::string
LoadError(const std::string& path)
{
    try
    {
        LoadFabric(path);
    }
    catch (const InputError& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

TEST_F(ScaleUpTest, BadScaleUpKeysNameFileLineAndKey)
{
    ettest::ScratchDir dir;
    const struct
    {
        std::string value;  //!< the scale_up value
        std::string expect; //!< part of the message
    } cases[] = {
        {"{vc_bufer: 1MiB}", "dimensions[0].scale_up.vc_bufer: unknown key"},
        {"maybe", "dimensions[0].scale_up"},
        {"{vc_buffer: 0B}", "dimensions[0].scale_up.vc_buffer: must be > 0"},
        {"{flit: 0B}", "dimensions[0].scale_up.flit: must be between 1 B and 4096 B"},
        {"{payload: 256}", "dimensions[0].scale_up.payload"},
        {"{switch_latency: 150}", "dimensions[0].scale_up.switch_latency"},
        {"true, pfc_priorities: [3]", "dimensions[0].pfc_priorities: does not apply"},
    };
    for (const auto& c : cases)
    {
        const std::string path = ScaleUpFabric(dir, 4, c.value);
        const std::string message = LoadError(path);
        EXPECT_NE(message.find(path + ":3: "), std::string::npos) << c.value << ": " << message;
        EXPECT_NE(message.find(c.expect), std::string::npos) << c.value << ": " << message;
    }
    EXPECT_EQ(LoadError(ScaleUpFabric(dir, 4, "false")), "");

    // The example programs end such errors with status 2.
    const ProgramRun info =
        RunProgram(std::string(MLFABRIC_EXAMPLES_DIR) +
                   "/fabric-info --svg=0 --fabric=" + ScaleUpFabric(dir, 4, "{vc_bufer: 1MiB}"));
    EXPECT_EQ(info.status, 2) << info.output;
    EXPECT_NE(info.output.find("scale_up.vc_bufer: unknown key"), std::string::npos) << info.output;
}

TEST_F(ScaleUpTest, CreditBufferBelowTheLargestFrameIsRefused)
{
    ettest::ScratchDir dir;
    const LoadedFabric loaded = LoadFabric(ScaleUpFabric(dir, 2, "{vc_buffer: 4KiB}"));
    RoceNetwork net;
    try
    {
        net.Install(loaded.fabric, ComputeRouting(loaded.fabric, loaded.routing), 4096);
        FAIL() << "a 4 KiB credit buffer cannot hold a 4096-byte payload in 16 packets";
    }
    catch (const InputError& e)
    {
        EXPECT_NE(std::string(e.what()).find("dimension 'nvlink': scale_up.vc_buffer of 4096 B "
                                             "cannot hold its largest frame (4352 B)"),
                  std::string::npos)
            << e.what();
    }
}

TEST_F(ScaleUpTest, RunHeaderStatesFlowControlAndCongestionControlPerClass)
{
    ettest::ScratchDir dir;
    const LoadedFabric loaded =
        LoadFabric(std::string(MLFABRIC_SOURCE_DIR) + "/fabrics/two-dim-4x2.yaml");
    Config::SetDefault("ns3::RdmaNic::CongestionControl", TypeIdValue(CcNone::GetTypeId()));
    RoceNetwork net;
    net.Install(loaded.fabric, ComputeRouting(loaded.fabric, loaded.routing), 4096);
    const EffectiveSettings s = CollectEffectiveSettings(net);
    const std::string text = FormatEffectiveSettings(s);
    EXPECT_NE(text.find("flow control: scale-up credits 131072 B per VC"), std::string::npos)
        << text;
    EXPECT_NE(text.find("scale-out PFC"), std::string::npos) << text;
    EXPECT_NE(text.find("on scale-up NIC ports (8)"), std::string::npos) << text;
    EXPECT_NE(text.find("on RoCE NIC ports (8)"), std::string::npos) << text;
    const auto json = EffectiveSettingsToJson(s);
    EXPECT_EQ(json["flow_control"][0]["kind"], "credit");
    EXPECT_EQ(json["flow_control"][1]["kind"], "pfc");
    EXPECT_EQ(json["congestion_control"][1]["scheme"], "ns3::CcNone");
    // Within a server the path is scale-up (no congestion control); across, it is not.
    EXPECT_TRUE(net.IsScaleUpPath(loaded.fabric.GetNpuNode(0), loaded.fabric.GetNpuNode(3)));
    EXPECT_FALSE(net.IsScaleUpPath(loaded.fabric.GetNpuNode(0), loaded.fabric.GetNpuNode(4)));
    // Scale-up ports have no PFC; RoCE ports keep the file's priority 3.
    const FabricLink& up = loaded.fabric.GetLink(0);
    EXPECT_EQ(net.GetLosslessPriorities(up.nodeA, up.portA), 0);
    EXPECT_TRUE(net.GetLinkPorts(0).first->HasCreditFlowControl());
}

// On a rail fabric every GPU relays from its scale-up link to its NIC (PXN's path). The
// run header says that such frames are staged, or, with staging off, that they hold
// their scale-up credits until they leave.
TEST_F(ScaleUpTest, RunHeaderSaysHowRelaysHandScaleUpFramesToRoce)
{
    const LoadedFabric loaded =
        LoadFabric(std::string(MLFABRIC_SOURCE_DIR) + "/fabrics/rail-4x8.yaml");
    Config::SetDefault("ns3::RdmaNic::CongestionControl", TypeIdValue(CcNone::GetTypeId()));
    for (const bool staging : {true, false})
    {
        Config::SetDefault("ns3::NpuRelay::StageHandOvers", BooleanValue(staging));
        RoceNetwork net;
        net.Install(loaded.fabric, ComputeRouting(loaded.fabric, loaded.routing), 4096);
        const EffectiveSettings s = CollectEffectiveSettings(net);
        EXPECT_EQ(s.relays.npus, 32U);
        EXPECT_EQ(s.relays.handOvers, 32U);
        EXPECT_EQ(s.relays.stagedHandOvers, staging ? 32U : 0U);
        const std::string text = FormatEffectiveSettings(s);
        const std::string staged = "on 32 NPUs a frame relayed from a scale-up link to a RoCE "
                                   "port (PXN's path) is staged: it gives its scale-up credits "
                                   "back on arrival";
        const std::string held = "on 32 NPUs (StageHandOvers off) a frame relayed from a "
                                 "scale-up link to a RoCE port holds its scale-up credits";
        EXPECT_EQ(text.find(staged) != std::string::npos, staging) << text;
        EXPECT_EQ(text.find(held) != std::string::npos, !staging) << text;
        const auto json = EffectiveSettingsToJson(s)["npu_relays"];
        EXPECT_EQ(json["scale_up_to_roce"], 32);
        EXPECT_EQ(json["scale_up_to_roce_staged"], staging ? 32 : 0);
        Simulator::Destroy();
    }
}

// An all-to-all without congestion control overruns the relays that hand scale-up frames
// to their NICs: what their pool cannot stage keeps its credits, and the run counts it.
// Staging off, no frame is staged or counted; every byte arrives either way.
TEST_F(ScaleUpTest, OverrunRelaysCountTheFramesThatKeptTheirCredits)
{
    std::vector<TrafficResult> runs;
    for (const bool staging : {true, false})
    {
        Config::SetDefault("ns3::NpuRelay::StageHandOvers", BooleanValue(staging));
        TrafficConfig config;
        config.fabricPath = std::string(MLFABRIC_SOURCE_DIR) + "/fabrics/two-dim-4x2.yaml";
        config.pattern = TrafficPattern::ALL_TO_ALL;
        config.messageBytes = 1 << 20;
        runs.push_back(RunTraffic(config));
        Simulator::Destroy();
    }
    EXPECT_GT(runs[0].relayHeldCredits, 0U);
    EXPECT_EQ(runs[1].relayHeldCredits, 0U);
    for (const TrafficResult& r : runs)
    {
        EXPECT_EQ(r.bytesDelivered, r.bytesExpected);
        EXPECT_EQ(r.drops, 0U);
    }
    EXPECT_NE(RelayHeldCreditsWarning(runs[0].relayHeldCredits)
                  .find(std::to_string(runs[0].relayHeldCredits) +
                        " frame(s) relayed from scale-up links to RoCE ports held"),
              std::string::npos);
}

// Scale-up ports neither mark ECN nor stamp INT: the same departing frame, asking for
// both on a port whose ramp marks everything, is edited on a RoCE port and left as it
// is on a credit-controlled one.
TEST_F(ScaleUpTest, ScaleUpPortsNeitherMarkNorStamp)
{
    const EcnThresholds always{0, 1, 1.0};
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
    for (const bool scaleUp : {false, true})
    {
        Ptr<RocePort> port = CreateObject<RocePort>();
        port->SetAttribute("CreditFlowControl", BooleanValue(scaleUp));
        QueuedFrame q;
        q.frame.header = MakeRoceHeader();
        q.frame.header->payload = 4096;
        q.frame.header->Set(RoceHeader::ECT);
        q.frame.header->Set(RoceHeader::WANT_INT);
        q.flags = q.frame.header->flags;
        q.isData = true;
        const DepartureEdit edit = EditDepartingFrame(q, *port, &always, *rng, 1 << 20, 1 << 20);
        EXPECT_EQ(edit.marked, !scaleUp) << (scaleUp ? "scale-up" : "RoCE");
        EXPECT_EQ(edit.stamped, !scaleUp) << (scaleUp ? "scale-up" : "RoCE");
        EXPECT_EQ(q.frame.header->nHops, scaleUp ? 0u : 1u);
        EXPECT_EQ(q.frame.header->Has(RoceHeader::CE), !scaleUp);
        port->Dispose();
    }
}

// A queue pair from one server to another crosses the scale-up switch, a relaying NPU
// and the RoCE Clos: only the RoCE egresses (the relay's and the switches') stamp INT,
// HPCC sees that many hops, leaves its initial window and carries >= 90 % of the NIC's
// line rate.
TEST_F(ScaleUpTest, MixedPathTelemetryComesFromRoceHopsOnly)
{
    const LoadedFabric loaded =
        LoadFabric(std::string(MLFABRIC_SOURCE_DIR) + "/fabrics/two-dim-4x2.yaml");
    const Fabric& f = loaded.fabric;
    RoceNetwork net;
    net.Install(f, ComputeRouting(f, loaded.routing), 4096);
    CcSettings cc;
    cc.scheme = "hpcc";
    InstallCongestionControl(net, cc);
    const uint32_t src = f.GetNpuNode(0);
    const uint32_t dst = f.GetNpuNode(5);

    // Walk the installed route: count the scale-up links and the RoCE links that a
    // switch or a relaying NPU transmits on (the sender's own NIC stamps nothing).
    uint32_t scaleUpLinks = 0;
    uint32_t stampingHops = 0;
    for (uint32_t node = src; node != dst;)
    {
        const PortSet egress = net.GetRoutes().GetEgressPorts(node, 5);
        ASSERT_FALSE(egress.empty());
        const FabricPort& p = f.GetPort(node, *egress.begin());
        if (f.GetLinkScaleUp(p.link))
        {
            ++scaleUpLinks;
        }
        else if (node != src)
        {
            ++stampingHops;
        }
        node = p.peer;
    }
    ASSERT_GT(scaleUpLinks, 0u) << "the path must cross the scale-up dimension";
    ASSERT_GT(stampingHops, 0u);
    ASSERT_FALSE(net.IsScaleUpPath(src, dst));

    Ptr<RdmaQueuePair> qp = net.Connect(src, dst, 3);
    Ptr<CcHpcc> hpcc = DynamicCast<CcHpcc>(qp->GetCongestionOps());
    ASSERT_TRUE(hpcc);
    const uint64_t initialWindow = hpcc->GetWindow();
    constexpr uint64_t bytes = 8 << 20;
    const auto [done, minWindow] = hpcctest::RunHpccMessage(net.GetNic(src), qp, hpcc, bytes);
    ASSERT_TRUE(done.IsStrictlyPositive());
    ASSERT_EQ(net.GetNic(src)->GetCounters().retransmittedBytes, 0u);

    uint64_t scaleUpStamps = 0;
    uint64_t roceStamps = 0;
    for (uint32_t s : net.GetSwitches())
    {
        const bool scaleUpSwitch = net.GetPorts(s).front()->HasCreditFlowControl();
        (scaleUpSwitch ? scaleUpStamps : roceStamps) += net.GetSwitch(s)->GetCounters().intStamps;
    }
    for (uint32_t h : net.GetHosts())
    {
        if (net.GetNic(h)->GetRelay())
        {
            roceStamps += net.GetNic(h)->GetRelay()->GetCounters().intStamps;
        }
    }
    const uint64_t packets = bytes / 4096;
    EXPECT_EQ(scaleUpStamps, 0u);
    EXPECT_EQ(roceStamps, packets * stampingHops);
    EXPECT_LT(minWindow, initialWindow);
    // The message's wire bits over its completion time, against the NIC's line rate.
    RoceHeader full;
    full.payload = 4096;
    full.Set(RoceHeader::WANT_INT); // the fewest wire bits: no hop record yet
    const double wireBits = static_cast<double>(packets) * full.GetWireBytes() * 8;
    EXPECT_GE(wireBits / done.GetSeconds(), 0.9 * 200e9) << done;
}

// A queue pair inside a scale-up domain is acknowledged per 64 packets and per message
// end, not per packet; over a lossy scale-up wire go-back-N still delivers every byte
// exactly once, and a window the coalesced ACKs cannot open is refused.
TEST_F(ScaleUpTest, ScaleUpAcksCoalesceAndRecoveryStaysExact)
{
    ettest::ScratchDir dir;
    const std::string fabric = ScaleUpFabric(dir, 2, "true");
    const uint64_t messages[] = {1 << 20, 100'000, 256};
    for (const double loss : {0.0, 0.002})
    {
        const LoadedFabric loaded = LoadFabric(fabric);
        RoceNetwork net;
        const auto nodes =
            net.Install(loaded.fabric, ComputeRouting(loaded.fabric, loaded.routing), 4096);
        Ptr<RdmaNic> sender = net.GetNic(nodes[0]);
        Ptr<RdmaNic> receiver = net.GetNic(nodes[1]);
        sender->SetAttribute("RetransmitTimeout", TimeValue(MicroSeconds(20)));
        sender->GetPort(0)->SetAttribute("LossProbability", DoubleValue(loss));
        Ptr<RdmaQueuePair> qp = net.Connect(nodes[0], nodes[1], 3);
        uint64_t total = 0;
        uint64_t expectedAcks = 0;
        for (uint64_t m : messages)
        {
            sender->PostSend(qp, m, 1);
            total += m;
            const uint64_t packets = (m + kPayload - 1) / kPayload;
            expectedAcks += packets / 64 + (packets % 64 ? 1 : 0);
        }
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        EXPECT_EQ(qp->GetSndUna(), total) << "loss " << loss;
        EXPECT_EQ(receiver->GetCounters().deliveredBytes, total) << "loss " << loss;
        EXPECT_EQ(receiver->GetCounters().duplicateBytes, 0u) << "loss " << loss;
        if (loss == 0)
        {
            EXPECT_EQ(receiver->GetCounters().acksTx, expectedAcks);
            EXPECT_EQ(sender->GetCounters().retransmittedBytes, 0u);
        }
        else
        {
            EXPECT_GT(sender->GetPort(0)->GetCounters().lostFrames, 0u);
            EXPECT_GT(sender->GetCounters().retransmittedBytes, 0u);
        }
        Simulator::Destroy();
        Config::Reset();
    }

    Config::SetDefault("ns3::CcNone::WindowBytes", UintegerValue(4096));
    const LoadedFabric loaded = LoadFabric(fabric);
    RoceNetwork net;
    const auto nodes =
        net.Install(loaded.fabric, ComputeRouting(loaded.fabric, loaded.routing), 4096);
    try
    {
        net.Connect(nodes[0], nodes[1], 3);
        FAIL() << "a 4 KiB window cannot wait for an ACK per 16 KiB";
    }
    catch (const InputError& e)
    {
        EXPECT_NE(std::string(e.what()).find("ScaleUpAckInterval"), std::string::npos) << e.what();
    }
}

// Dimension-order routing turns from the scale-up dimension into the scale-out one at an
// NPU: the reader lets such NPUs forward, and a fabric that forbids it is refused by name.
TEST_F(ScaleUpTest, DimensionOrderTurnsNeedForwardingNpus)
{
    const std::string path = std::string(MLFABRIC_SOURCE_DIR) + "/fabrics/two-dim-4x2.yaml";
    const LoadedFabric loaded = LoadFabric(path);
    EXPECT_TRUE(loaded.fabric.GetNode(loaded.fabric.GetNpuNode(0)).forwards);

    const ettest::ScratchDir dir;
    std::ifstream in(path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string forbidding = dir.File("no-forwarding.yaml");
    WriteText(forbidding, text + "npu_forwarding: false\n");
    const LoadedFabric refused = LoadFabric(forbidding);
    RoceNetwork net;
    try
    {
        net.Install(refused.fabric, ComputeRouting(refused.fabric, refused.routing), 4096);
        FAIL() << "a route through a non-forwarding NPU was installed";
    }
    catch (const InputError& e)
    {
        EXPECT_NE(std::string(e.what()).find("dimension-order routing sends traffic for rank"),
                  std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("which does not forward"), std::string::npos)
            << e.what();
    }
}
