/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-engine.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/collective-tag.h"
#include "ns3/et-replay-app.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/replay-group-text.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReplayEngine");
NS_OBJECT_ENSURE_REGISTERED(ReplayEngine);

namespace
{

/** \return the key of (rank, collective id) */
uint64_t
RankCollectiveKey(uint32_t rank, uint32_t id)
{
    return (static_cast<uint64_t>(rank) << 32) | id;
}

} // namespace

TypeId
ReplayEngine::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ReplayEngine")
            .SetParent<Object>()
            .SetGroupName("Mlfabric")
            .AddConstructor<ReplayEngine>()
            .AddAttribute("StopWhenIdle",
                          "Stop the simulation as soon as no node runs on any rank (the "
                          "workload has finished or is stuck), whatever events other models "
                          "still hold",
                          BooleanValue(true),
                          MakeBooleanAccessor(&ReplayEngine::m_stopWhenIdle),
                          MakeBooleanChecker())
            .AddAttribute("RendezvousSends",
                          "A send's message leaves only once the matching receive is posted "
                          "(rendezvous), instead of at once (eager)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&ReplayEngine::m_rendezvousSends),
                          MakeBooleanChecker())
            .AddTraceSource("Idle",
                            "Every application has started and no node runs on any rank: "
                            "the workload has finished or is stuck",
                            MakeTraceSourceAccessor(&ReplayEngine::m_idle),
                            "ns3::ReplayEngine::IdleTracedCallback")
            .AddTraceSource("CollectiveFinished",
                            "A collective has finished on every rank of its "
                            "group (its id, see GetCollectives); across processes, only "
                            "for a group whose ranks all run on this process",
                            MakeTraceSourceAccessor(&ReplayEngine::m_collectiveFinished),
                            "ns3::ReplayEngine::CollectiveTracedCallback");
    return tid;
}

ReplayEngine::ReplayEngine() = default;

ReplayEngine::~ReplayEngine() = default;

void
ReplayEngine::DoDispose()
{
    m_apps.clear();
    m_runner.reset();
    m_backend = nullptr;
    Object::DoDispose();
}

void
ReplayEngine::Setup(const ReplaySetup& setup)
{
    NS_ABORT_MSG_IF(!setup.backend || !setup.groups, "ReplayEngine::Setup without a backend");
    m_backend = setup.backend;
    m_groups = setup.groups;
    const uint32_t ranks = m_backend->GetRankCount();
    m_compute = ReplayComputeModel::FromSystem(setup.system);
    auto planner = std::make_shared<const CollectivePlanner>(
        setup.system, setup.physicalDimensions, setup.ncclDimensions);
    if (planner->GetWorldSize() != ranks)
    {
        throw InputError("the network's dimensions hold " +
                         std::to_string(planner->GetWorldSize()) + " NPUs but it has " +
                         std::to_string(ranks));
    }
    m_planner = planner;
    m_matcher = std::make_unique<ReplayCollectiveMatcher>(planner, ranks);
    m_runner = std::make_unique<CollectiveRunner>(m_backend, setup.system);
    m_runner->SetFinishedCallback([this](uint32_t rank, uint32_t id) { CollectiveDone(rank, id); });
    if (setup.remoteMemory)
    {
        m_memory = std::make_unique<RemoteMemoryModel>(*setup.remoteMemory, ranks);
    }
    m_p2pSent.assign(ranks, 0);
    m_p2pReceived.assign(ranks, 0);
    m_local.assign(ranks, true);
    m_localRanks = ranks;
    uint32_t place = 1;
    for (const auto& entry : m_groups->GetGroups())
    {
        m_groupPlace[entry.first] = place++;
    }
}

void
ReplayEngine::SetProcessRanks(std::vector<bool> local)
{
    NS_ABORT_MSG_IF(!m_apps.empty() || local.size() != m_local.size(),
                    "SetProcessRanks after AddRank, or without a flag per rank");
    if (m_rendezvousSends)
    {
        throw InputError("rendezvous sends pair a send with its receive in one process: "
                         "they do not run across processes");
    }
    if (m_memory)
    {
        throw InputError("--remote-memory: the remote memory's pool is shared by every rank "
                         "and does not run across processes");
    }
    m_local = std::move(local);
    m_localRanks = static_cast<uint32_t>(std::count(m_local.begin(), m_local.end(), true));
    m_acrossProcesses = true;
}

bool
ReplayEngine::IsLocal(uint32_t rank) const
{
    return m_local.at(rank);
}

uint32_t
ReplayEngine::GetLocalRankCount() const
{
    return m_localRanks;
}

int64_t
ReplayEngine::WireTag(int64_t tag)
{
    return static_cast<int64_t>(static_cast<uint64_t>(tag) & ~CollectiveTag::kFlag);
}

void
ReplayEngine::Arrive(const NetworkBackend::Message& message)
{
    if (CollectiveTag::IsCollective(message.tag))
    {
        m_runner->Arrive(message);
        return;
    }
    const auto tag = static_cast<int64_t>(message.tag);
    m_arrivals.push_back({message.src, message.dst, tag, Now()});
    MessageArrived(message.src, message.dst, tag, message.bytes);
}

const std::vector<ReplayEngine::Arrival>&
ReplayEngine::GetArrivals() const
{
    return m_arrivals;
}

uint32_t
ReplayEngine::WireId(const ReplayCollective& c) const
{
    const uint64_t places = m_groupPlace.size() + 1;
    const uint64_t place = c.group.empty() ? 0 : m_groupPlace.at(c.group);
    const uint64_t id = c.sequence * places + place;
    if (id > CollectiveTag::kMaxCollectiveId)
    {
        throw InputError("collective #" + std::to_string(c.sequence) + " of group '" + c.group +
                         "': the wire numbers a collective sequence x " + std::to_string(places) +
                         " groups + its group, up to " +
                         std::to_string(CollectiveTag::kMaxCollectiveId) +
                         ", and this one is beyond");
    }
    return static_cast<uint32_t>(id);
}

void
ReplayEngine::AddRank(Ptr<EtReplayApp> app)
{
    NS_ABORT_MSG_IF(!m_backend, "ReplayEngine::AddRank before Setup");
    const uint32_t rank = static_cast<uint32_t>(m_apps.size());
    NS_ABORT_MSG_IF(app->GetRank() != rank,
                    "rank " << app->GetRank() << " added in place of rank " << rank);
    if (rank >= m_backend->GetRankCount())
    {
        throw InputError(app->GetTrace().GetPath() + ": rank " + std::to_string(rank) +
                         " but the network has " + std::to_string(m_backend->GetRankCount()) +
                         " NPUs");
    }
    ReplayTraceContext context;
    context.rank = rank;
    context.worldSize = m_backend->GetRankCount();
    context.groups = m_groups.get();
    context.hasRemoteMemory = m_memory != nullptr;
    // Every process checks every trace; a rank's notes count on the process that runs it.
    ReplayNotes elsewhere;
    CheckReplayTrace(app->GetTrace(), context, m_local[rank] ? m_notes : elsewhere);
    m_apps.push_back(app);
}

void
ReplayEngine::RankStarted()
{
    ++m_startedRanks;
}

void
ReplayEngine::NodeStarted()
{
    ++m_runningNodes;
}

void
ReplayEngine::NodeEnded()
{
    NS_ABORT_MSG_IF(m_runningNodes == 0, "a node ended that never started");
    --m_runningNodes;
}

void
ReplayEngine::RankIdle()
{
    if (!IsIdle())
    {
        return;
    }
    NS_LOG_INFO("no node runs on any rank: " << m_finishedRanks << " of " << m_apps.size()
                                             << " ranks finished");
    m_idle();
    if (m_stopWhenIdle)
    {
        Simulator::Stop();
    }
}

bool
ReplayEngine::IsIdle() const
{
    return m_runningNodes == 0 && m_startedRanks == m_localRanks;
}

uint64_t
ReplayEngine::GetRunningNodeCount() const
{
    return m_runningNodes;
}

uint32_t
ReplayEngine::GetRankCount() const
{
    return static_cast<uint32_t>(m_apps.size());
}

uint32_t
ReplayEngine::GetFinishedRankCount() const
{
    return m_finishedRanks;
}

Ptr<EtReplayApp>
ReplayEngine::GetApp(uint32_t rank) const
{
    return m_apps.at(rank);
}

const ReplayComputeModel&
ReplayEngine::GetComputeModel() const
{
    return m_compute;
}

void
ReplayEngine::Schedule(Time delay, std::function<void()> fn)
{
    m_backend->Schedule(delay, std::move(fn));
}

Time
ReplayEngine::Now() const
{
    return m_backend->Now();
}

void
ReplayEngine::Done(uint32_t rank, uint32_t position)
{
    m_apps[rank]->NodeDone(position);
}

void
ReplayEngine::RunCollective(uint32_t rank,
                            uint32_t position,
                            const EtNode& node,
                            const std::string& where)
{
    ReplayCollectiveCall call;
    call.type = CollectiveTypeFromChakra(static_cast<int64_t>(node.commType), where);
    call.bytes = node.commSize;
    call.group = m_groups->Lookup(std::string(node.pgName), where);
    if (node.Has(ET_INVOLVED_DIM))
    {
        for (uint32_t d = 0; d < node.involvedDimCount; ++d)
        {
            call.involved.push_back(((node.involvedDims >> d) & 1U) != 0);
        }
    }
    call.where = where;
    const ReplayCollective& c = m_matcher->Issue(rank, call, Now());
    const uint32_t wire = WireId(c);
    auto plan = c.plan;
    NS_LOG_INFO("rank " << rank << " issues " << ToString(call.type) << " #" << c.sequence
                        << " of group '" << c.group << "' as collective " << c.id);
    m_matcherId[wire] = c.id;
    m_collectiveNode[RankCollectiveKey(rank, wire)] = position;
    m_runner->Start(rank, wire, plan, node.commPriority);
}

void
ReplayEngine::CollectiveDone(uint32_t rank, uint32_t wire)
{
    auto it = m_collectiveNode.find(RankCollectiveKey(rank, wire));
    NS_ABORT_MSG_IF(it == m_collectiveNode.end(),
                    "collective " << wire << " finished on rank " << rank << " unasked");
    const uint32_t position = it->second;
    const uint32_t id = m_matcherId.at(wire);
    m_collectiveNode.erase(it);
    m_matcher->Finish(id, rank, Now());
    const ReplayCollective& c = m_matcher->GetCollectives()[id];
    if (c.finished == c.members)
    {
        m_collectiveFinished(id);
    }
    Done(rank, position);
}

void
ReplayEngine::Send(uint32_t rank, uint32_t position, const EtNode& node)
{
    const auto dst = static_cast<uint32_t>(node.commDst);
    const int64_t tag = node.commTag;
    NetworkBackend::Message message;
    message.src = rank;
    message.dst = dst;
    message.bytes = node.commSize;
    // Trace tags travel with bit 63 clear; collective traffic sets it (CollectiveTag).
    message.tag = static_cast<uint64_t>(tag) & ~CollectiveTag::kFlag;
    m_p2pSent[rank] += node.commSize;
    ReplaySendRecord record;
    record.src = rank;
    record.dst = dst;
    record.tag = tag;
    record.bytes = node.commSize;
    record.issue = Now();
    m_sends.push_back(record);
    const size_t index = m_sends.size() - 1;
    if (m_rendezvousSends)
    {
        m_rendezvous.Offer({rank, dst, WireTag(tag)},
                           [this, rank, position, message, tag, index]()
                           { Launch(rank, position, message, tag, index); });
        return;
    }
    Launch(rank, position, message, tag, index);
}

void
ReplayEngine::SendArrived(size_t index)
{
    m_sends[index].arrival = Now();
    m_sends[index].arrived = true;
}

const std::vector<ReplaySendRecord>&
ReplayEngine::GetSends() const
{
    return m_sends;
}

void
ReplayEngine::Launch(uint32_t rank,
                     uint32_t position,
                     const NetworkBackend::Message& message,
                     int64_t tag,
                     size_t index)
{
    m_backend->Send(
        message,
        [this, rank, position](const NetworkBackend::Message&) { Done(rank, position); },
        [this, tag, index](const NetworkBackend::Message& m)
        {
            SendArrived(index);
            MessageArrived(m.src, m.dst, WireTag(tag), m.bytes);
        });
}

void
ReplayEngine::MessageArrived(uint32_t src, uint32_t dst, int64_t tag, uint64_t bytes)
{
    m_p2pReceived[dst] += bytes;
    const auto token = m_p2p.Arrive({src, dst, tag}, bytes);
    if (token)
    {
        ReceiveMatched(dst, static_cast<uint32_t>(*token), bytes);
    }
}

void
ReplayEngine::ReceiveMatched(uint32_t rank, uint32_t position, uint64_t bytes)
{
    if (m_apps[rank]->GetTrace().GetNode(position).commSize != bytes)
    {
        ++m_notes["COMM_RECV_NODE whose comm_size differs from its message's"];
    }
    Done(rank, position);
}

void
ReplayEngine::Receive(uint32_t rank, uint32_t position, const EtNode& node)
{
    const auto src = static_cast<uint32_t>(node.commSrc);
    const int64_t tag = WireTag(node.commTag);
    const auto bytes = m_p2p.Post({src, rank, tag}, position);
    if (bytes)
    {
        ReceiveMatched(rank, position, *bytes);
    }
    if (m_rendezvousSends)
    {
        m_rendezvous.Accept({src, rank, tag});
    }
}

void
ReplayEngine::AccessRemoteMemory(uint32_t rank,
                                 uint32_t position,
                                 const EtNode& node,
                                 const std::string& where)
{
    NS_ABORT_MSG_IF(!m_memory, "remote memory access without a remote memory");
    const uint64_t nowNs = static_cast<uint64_t>(Now().GetNanoSeconds());
    const uint64_t delay = m_memory->Access(rank, node.tensorSize, nowNs, where);
    Schedule(NanoSeconds(delay), [this, rank, position]() { Done(rank, position); });
}

void
ReplayEngine::RankFinished(uint32_t rank)
{
    ++m_finishedRanks;
    NS_LOG_INFO("rank " << rank << " finished; " << m_finishedRanks << " of " << m_apps.size());
}

const ReplayCollective*
ReplayEngine::FindRunningCollective(uint32_t rank, uint32_t position) const
{
    for (const auto& [key, at] : m_collectiveNode)
    {
        if (at == position && static_cast<uint32_t>(key >> 32) == rank)
        {
            return &m_matcher->GetCollectives()[m_matcherId.at(static_cast<uint32_t>(key))];
        }
    }
    return nullptr;
}

const std::vector<ReplayCollective>&
ReplayEngine::GetCollectives() const
{
    return m_matcher->GetCollectives();
}

std::vector<std::string>
ReplayEngine::DescribeGroups() const
{
    return DescribeGroupCollectives(*m_planner, *m_groups);
}

uint64_t
ReplayEngine::GetBytesSent(uint32_t rank) const
{
    return m_runner->GetBytesSent(rank) + m_p2pSent.at(rank);
}

uint64_t
ReplayEngine::GetBytesReceived(uint32_t rank) const
{
    return m_runner->GetBytesReceived(rank) + m_p2pReceived.at(rank);
}

ReplayNotes
ReplayEngine::GetNotes() const
{
    ReplayNotes notes = m_notes;
    if (m_p2p.GetUnclaimedMessages() > 0)
    {
        notes["COMM_SEND_NODE message without a matching COMM_RECV_NODE"] =
            m_p2p.GetUnclaimedMessages();
    }
    return notes;
}

std::vector<std::string>
ReplayEngine::DescribeStuck(size_t limit) const
{
    std::vector<std::string> lines;
    for (const auto& app : m_apps)
    {
        if (m_local[app->GetRank()] && !app->IsFinished() && lines.size() < limit)
        {
            lines.push_back(app->DescribeBlocked(4));
        }
    }
    // Across processes the collectives are described once their members' are gathered.
    for (const std::string& line :
         m_acrossProcesses ? std::vector<std::string>() : m_matcher->DescribeIncomplete(limit))
    {
        lines.push_back(line);
    }
    for (const std::string& line : m_p2p.Describe(limit))
    {
        lines.push_back(line);
    }
    return lines;
}

} // namespace ns3
