/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "et-info-dry-run.h"

#include "ns3/boolean.h"
#include "ns3/et-replay-app.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/node-container.h"
#include "ns3/replay-job-install.h"
#include "ns3/replay-system.h"
#include "ns3/simulator.h"
#include "ns3/zero-time-backend.h"

#include <algorithm>
#include <limits>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EtInfoDryRun");

namespace
{

/** Blocked stuck lines kept in EtDryRun. */
constexpr size_t kMaxStuckListed = 20;

/**
 * One blocked node, with where its line goes: collectives by (group, k, arrival), then
 * messages by (source, destination, tag), sends before receives.
 */
struct Blocked
{
    std::tuple<int, std::string, uint64_t, int64_t, int64_t, int64_t, uint32_t> order; //!< key
    std::string line;                                                                  //!< text
};

/** \return "rank r, node id (name)" */
std::string
Where(uint32_t rank, const EtNode& node)
{
    return "rank " + std::to_string(rank) + ", node " + std::to_string(node.id) + " (" +
           std::string(node.name) + ")";
}

/** \return the index of \p rank among those that issued \p c */
uint32_t
ArrivalOf(const ReplayCollective& c, uint32_t rank)
{
    const auto it = std::find(c.issuedBy.begin(), c.issuedBy.end(), rank);
    return static_cast<uint32_t>(it - c.issuedBy.begin());
}

/** \return what a node left running after the run waits for */
Blocked
DescribeBlocked(const ReplayEngine& engine, uint32_t rank, uint32_t position)
{
    const EtNode& node = engine.GetApp(rank)->GetTrace().GetNode(position);
    const std::string where = Where(rank, node);
    const auto r = static_cast<int64_t>(rank);
    if (const ReplayCollective* c = engine.FindRunningCollective(rank, position))
    {
        const std::string group = c->group.empty() ? "0" : c->group;
        return {{0, group, c->sequence, 0, 0, 0, ArrivalOf(*c, rank)},
                where + ": collective #" + std::to_string(c->sequence) + " of group " + group +
                    " waits for its other members (" + std::to_string(c->issued) + " of " +
                    std::to_string(c->members) + " arrived)"};
    }
    if (node.type == EtNodeType::COMM_SEND_NODE)
    {
        return {{1, "", 0, r, node.commDst, node.commTag, 0},
                where + ": send to rank " + std::to_string(node.commDst) + " with tag " +
                    std::to_string(node.commTag) + " is never received"};
    }
    if (node.type == EtNodeType::COMM_RECV_NODE)
    {
        return {{1, "", 0, node.commSrc, r, node.commTag, 1},
                where + ": receive from rank " + std::to_string(node.commSrc) + " with tag " +
                    std::to_string(node.commTag) + " is never sent"};
    }
    return {{2, "", 0, r, position, 0, 0}, where + ": never finishes"};
}

/** The findings of a replay that has run out of events. */
void
Summarize(const ReplayEngine& engine, EtDryRun& result)
{
    std::vector<Blocked> blocked;
    for (uint32_t r = 0; r < engine.GetRankCount(); ++r)
    {
        const Ptr<EtReplayApp> app = engine.GetApp(r);
        const ReplayRankStats stats = app->GetStats();
        result.nodesDone += stats.nodesDone;
        result.messagesDone += stats.receives;
        for (uint32_t position : app->GetRunningNodes())
        {
            blocked.push_back(DescribeBlocked(engine, r, position));
            if (app->GetTrace().GetNode(position).type == EtNodeType::COMM_RECV_NODE)
            {
                --result.messagesDone;
            }
        }
    }
    for (const ReplayCollective& c : engine.GetCollectives())
    {
        result.collectivesDone += c.finished == c.members ? 1 : 0;
    }
    // Ranks are visited in order, so equal keys keep rank order.
    std::stable_sort(blocked.begin(),
                     blocked.end(),
                     [](const Blocked& a, const Blocked& b) { return a.order < b.order; });
    for (const Blocked& b : blocked)
    {
        if (result.stuck.size() < kMaxStuckListed)
        {
            result.stuck.push_back(b.line);
        }
    }
}

} // namespace

bool
EtDryRun::Completed() const
{
    return rejected.empty() && nodesDone == nodesTotal;
}

EtDryRun
DryRunEtWorkload(const std::vector<EtTrace>& traces, const std::optional<EtCommGroups>& groups)
{
    EtDryRun result;
    const auto ranks = static_cast<uint32_t>(traces.size());
    ReplayJob job;
    job.rankCount = ranks;
    job.dimensions = {ranks};
    job.groups = std::make_shared<CommGroupTable>(ranks);
    for (uint32_t r = 0; r < ranks; ++r)
    {
        job.npus.push_back(r);
        // The caller keeps the traces for the whole run: share them without a copy.
        job.traces.emplace_back(&traces[r], [](const EtTrace*) {});
        result.nodesTotal += traces[r].GetNodeCount();
    }

    Ptr<ZeroTimeBackend> network = CreateObject<ZeroTimeBackend>();
    network->SetRankCount(ranks);
    NodeContainer nodes;
    nodes.Create(ranks);
    std::vector<Ptr<Node>> rankNodes(nodes.Begin(), nodes.End());
    ReplayInstallSettings settings;
    settings.system = DefaultReplaySystemConfig(1);
    settings.cpuSlots = 0;
    settings.computeSlots = 0;
    settings.commSlots = 0;
    // Remote-memory accesses take no time either, as every other node here.
    RemoteMemoryConfig memory;
    memory.source = "the dry run's remote memory";
    memory.type = RemoteMemoryType::PerNpu;
    memory.bandwidthBytesPerNs = std::numeric_limits<double>::infinity();
    settings.remoteMemory = memory;
    job.engine = CreateObject<ReplayEngine>();
    job.engine->SetAttribute("RendezvousSends", BooleanValue(true));
    try
    {
        if (groups)
        {
            for (const auto& [name, members] : *groups)
            {
                job.groups->Add(name, members, "the communicator-group file");
            }
        }
        AddTraceProcessGroups(job.traces, *job.groups);
        InstallReplayJob(job, network, job.dimensions, rankNodes, settings);
        Simulator::Run();
        Summarize(*job.engine, result);
    }
    catch (const InputError& e)
    {
        result.rejected = e.what();
    }
    job.engine->Dispose();
    job.engine = nullptr;
    network = nullptr;
    rankNodes.clear();
    Simulator::Destroy();
    return result;
}

} // namespace ns3
