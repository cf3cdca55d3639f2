/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Your own ns-3 program on mlfabric: two NPUs on one switch, the RDMA stack with DCQCN,
// one 1 MiB message, and the time its last byte arrives.
#include "ns3/core-module.h"
#include "ns3/mlfabric-module.h"

#include <iostream>

using namespace ns3;

/** Trace sink of the receiving NIC: a message's last byte arrived in order. */
void
RecordArrival(Time* at, uint32_t srcNode, uint32_t qpn, uint64_t bytes, uint64_t tag)
{
    *at = Simulator::Now();
}

int
main(int argc, char** argv)
{
    // mlfabric models serialization to the picosecond; it refuses a coarser resolution.
    Time::SetResolution(Time::PS);
    CommandLine cmd;
    cmd.Parse(argc, argv);

    // The fabric: pure data. Two NPUs on one switch, 100 Gb/s links of 1 us.
    LinkSettings link;
    link.rateBps = 100'000'000'000;
    link.delayPs = 1'000'000;
    Fabric fabric("two-npus");
    const uint32_t tor = fabric.AddSwitch("tor", "leaf", 1);
    for (uint32_t rank = 0; rank < 2; ++rank)
    {
        fabric.AddLink(fabric.AddNpu(), tor, link);
    }
    const RoutingTable routes = ComputeRouting(fabric, RoutingAlgorithm::ShortestPath);

    // The packet network built from it: an RdmaNic per NPU, a RoceSwitch, PFC on, DCQCN.
    Config::SetDefault("ns3::RdmaNic::CongestionControl", TypeIdValue(CcDcqcn::GetTypeId()));
    RoceNetwork net;
    const std::vector<uint32_t> node = net.Install(fabric, routes, 4096);

    // One message from rank 0 to rank 1 on traffic class 3.
    const uint64_t bytes = 1 << 20;
    Time arrived;
    net.GetNic(node[1])->TraceConnectWithoutContext(
        "MessageReceived",
        MakeBoundCallback(&RecordArrival, &arrived));
    Ptr<RdmaQueuePair> qp = net.Connect(node[0], node[1], 3);
    net.GetNic(node[0])->PostSend(qp, bytes, /*tag=*/1);

    Simulator::Run();
    std::cout << "1 MiB from rank 0 to rank 1: last byte after " << arrived.GetPicoSeconds() / 1e3
              << " ns" << std::endl;
    Simulator::Destroy();
    return 0;
}
