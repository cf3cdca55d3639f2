/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Cost and speedup of ns-3's distributed simulator on mlfabric's cables.
//
// C cables of RoceRemoteChannel, each with a saturated sender of F data frames at both
// ends. Run alone (--engine=sequential, ns-3's default simulator: every node on process
// 0) or under `mpiexec -n 2` with --engine=granted-time-window or null-message: then the
// left end of every cable belongs to process 0 and the right end to process 1, so every
// frame crosses processes, and --local-cables=L more cables per process stay inside it
// (work that does not cross). --frames=0 leaves only the engine's synchronisation: its
// cost per lookahead window. Prints one line per process and a total on process 0.

#include "ns3/command-line.h"
#include "ns3/data-rate.h"
#include "ns3/global-value.h"
#include "ns3/mpi-interface.h"
#include "ns3/node.h"
#include "ns3/roce-header.h"
#include "ns3/roce-remote-channel.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** Sends `frames` data frames of 1000 B back to back; counts what arrives. */
class Saturated : public RocePortOwner
{
  public:
    explicit Saturated(uint64_t frames)
        : m_left(frames)
    {
    }

    bool
    DequeueFrame(RocePort&, RoceFrame& frame) override
    {
        if (m_left == 0)
        {
            return false;
        }
        --m_left;
        frame.header = MakeRoceHeader();
        frame.header->payload = 1000;
        frame.wireBytes = frame.header->GetWireBytes();
        frame.payload = 1000;
        return true;
    }

    bool
    HasPending(const RocePort&) const override
    {
        return m_left > 0;
    }

    void
    ReceiveFrame(RocePort&, RoceFrame&&) override
    {
        ++received;
    }

    uint64_t received{0}; //!< frames arrived

  private:
    uint64_t m_left; //!< frames still to send
};

} // namespace

int
main(int argc, char** argv)
{
    std::string engine = "sequential";
    uint32_t cables = 8;
    uint32_t localCables = 0;
    uint64_t frames = 20000;
    Time delay = MicroSeconds(1);
    Time stop = MilliSeconds(2);
    CommandLine cmd(__FILE__);
    cmd.AddValue("engine", "sequential, granted-time-window or null-message", engine);
    cmd.AddValue("cables", "cables across the two processes", cables);
    cmd.AddValue("local-cables", "cables inside each process", localCables);
    cmd.AddValue("frames", "data frames each end sends", frames);
    cmd.AddValue("delay", "cable delay: the lookahead", delay);
    cmd.AddValue("stop", "simulated time", stop);
    Time::SetResolution(Time::PS);
    cmd.Parse(argc, argv);
    const bool distributed = engine != "sequential";
    if (distributed && engine != "granted-time-window" && engine != "null-message")
    {
        std::fprintf(stderr,
                     "error: --engine: '%s' is not sequential, granted-time-window "
                     "or null-message\n",
                     engine.c_str());
        return 2;
    }
    if (distributed)
    {
        GlobalValue::Bind("SimulatorImplementationType",
                          StringValue(engine == "null-message" ? "ns3::NullMessageSimulatorImpl"
                                                               : "ns3::DistributedSimulatorImpl"));
        MpiInterface::Enable(&argc, &argv);
        if (MpiInterface::GetSize() != 2)
        {
            std::fprintf(
                stderr, "error: run on 2 MPI processes, not %u\n", MpiInterface::GetSize());
            MpiInterface::Disable();
            return 2;
        }
    }
    const uint32_t rank = distributed ? MpiInterface::GetSystemId() : 0;

    std::vector<std::unique_ptr<Saturated>> owners;
    std::vector<Ptr<RocePort>> localPorts;
    auto cable = [&](uint32_t leftRank, uint32_t rightRank)
    {
        Ptr<RocePort> ends[2];
        const uint32_t ranks[2] = {leftRank, rightRank};
        for (int i = 0; i < 2; ++i)
        {
            Ptr<Node> node = CreateObject<Node>(distributed ? ranks[i] : 0);
            ends[i] = CreateObject<RocePort>();
            ends[i]->SetAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
            node->AddDevice(ends[i]);
            owners.push_back(std::make_unique<Saturated>(frames));
            ends[i]->SetOwner(owners.back().get(), 0);
            if (!distributed || ranks[i] == rank)
            {
                localPorts.push_back(ends[i]);
            }
        }
        Ptr<RoceRemoteChannel> channel = CreateObject<RoceRemoteChannel>();
        channel->SetAttribute("Delay", TimeValue(delay));
        channel->Connect(ends[0], ends[1]);
    };
    for (uint32_t c = 0; c < cables; ++c)
    {
        cable(0, 1);
    }
    for (uint32_t r = 0; r < 2; ++r)
    {
        for (uint32_t c = 0; c < localCables; ++c)
        {
            cable(r, r);
        }
    }
    for (const auto& port : localPorts)
    {
        Simulator::ScheduleWithContext(
            port->GetNode()->GetId(), Time(0), &RocePort::NotifyWork, port);
    }
    Simulator::Stop(stop);
    const auto start = std::chrono::steady_clock::now();
    Simulator::Run();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    uint64_t events = Simulator::GetEventCount();
    uint64_t received = 0;
    for (const auto& port : localPorts)
    {
        received += port->GetCounters().rxFrames;
    }
    std::printf("rank %u: engine %s, %llu events in %.3f s wall, %.3f M events/s, "
                "%llu frames received, lookahead %.3f us (%.0f windows in the simulated time)\n",
                rank,
                engine.c_str(),
                static_cast<unsigned long long>(events),
                wall,
                events / wall / 1e6,
                static_cast<unsigned long long>(received),
                delay.GetSeconds() * 1e6,
                stop.GetSeconds() / delay.GetSeconds());
    if (distributed)
    {
        uint64_t totals[2] = {events, received};
        uint64_t sums[2] = {0, 0};
        double maxWall = 0;
        MPI_Reduce(totals, sums, 2, MPI_UINT64_T, MPI_SUM, 0, MpiInterface::GetCommunicator());
        MPI_Reduce(&wall, &maxWall, 1, MPI_DOUBLE, MPI_MAX, 0, MpiInterface::GetCommunicator());
        events = sums[0];
        received = sums[1];
        wall = maxWall;
    }
    if (rank == 0)
    {
        std::printf("total: %llu events, %llu frames received, %.3f s wall (slowest "
                    "process), %.3f M events/s\n",
                    static_cast<unsigned long long>(events),
                    static_cast<unsigned long long>(received),
                    wall,
                    events / wall / 1e6);
    }
    Simulator::Destroy();
    if (distributed)
    {
        MpiInterface::Disable();
    }
    return 0;
}
