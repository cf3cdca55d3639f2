/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-planner.h"

#include "ns3/group-decomposition.h"
#include "ns3/input-error.h"
#include "ns3/log.h"

#include <algorithm>
#include <iostream>
#include <limits>
#include <map>
#include <numeric>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectivePlanner");

namespace
{

/**
 * ASTRA-sim hands every message of a communicator-group ring through its "local"
 * memory path, a fixed 10 ns, instead of endpoint-delay (group-decomposition member-ring).
 */
constexpr uint64_t kMemberRingHandoffNs = 10;

/**
 * NCCL's PAT aggregates at most 8 blocks per message when a rank's share of a channel is
 * as large as its chunk (PatAGAlgorithm, PatRSAlgorithm); up to 16 ranks that is all of
 * them.
 */
constexpr uint32_t kPatAlwaysAggregatedRanks = 16;

/** Chunks are numbered in 24 bits of a message tag (see CollectiveTag). */
constexpr uint64_t kMaxChunks = (1ULL << 24) - 1;

bool
IsPowerOfTwo(uint32_t n)
{
    return n >= 2 && (n & (n - 1)) == 0;
}

std::string
ImplementationKey(CollectiveType type)
{
    switch (type)
    {
    case CollectiveType::AllReduce:
        return "all-reduce-implementation";
    case CollectiveType::ReduceScatter:
    case CollectiveType::ReduceScatterBlock:
        return "reduce-scatter-implementation";
    case CollectiveType::AllGather:
        return "all-gather-implementation";
    default:
        return "all-to-all-implementation";
    }
}

/** \param nodes ranks by node \return true if every node holds as many as the first */
bool
NodesHoldEqually(const std::map<uint64_t, std::vector<uint32_t>>& nodes)
{
    const size_t perNode = nodes.begin()->second.size();
    return std::all_of(nodes.begin(),
                       nodes.end(),
                       [perNode](const auto& node) { return node.second.size() == perNode; });
}

/** Bytes a rank holds after a phase, as ASTRA-sim's algorithms compute them. */
uint64_t
PhaseOutputBytes(CollectiveType op, uint64_t input, uint32_t n)
{
    switch (op)
    {
    case CollectiveType::ReduceScatter:
        return input / n;
    case CollectiveType::AllGather:
        return input * n;
    default:
        return input;
    }
}

} // namespace

CollectivePlanner::CollectivePlanner(SystemConfig config,
                                     std::vector<uint32_t> physicalDimensions,
                                     std::vector<NcclDimension> ncclDimensions)
    : m_config(std::move(config))
    , m_physical(std::move(physicalDimensions))
    , m_nccl(std::move(ncclDimensions))
{
    if (m_physical.empty())
    {
        throw InputError("collective planner: the network has no dimensions");
    }
    uint64_t world = 1;
    for (uint32_t n : m_physical)
    {
        if (n == 0)
        {
            throw InputError("collective planner: a network dimension has 0 NPUs");
        }
        world *= n;
        if (world > (1ULL << 31))
        {
            throw InputError("collective planner: more than 2^31 NPUs");
        }
    }
    m_worldSize = static_cast<uint32_t>(world);
    if (!m_config.perNodeCustomImplementation.empty())
    {
        throw InputError(m_config.source +
                         ": per-node-custom-implementation (collectives given as Chakra "
                         "traces) is not supported");
    }
}

std::shared_ptr<const CollectiveTopology>
CollectivePlanner::WorldTopology(CollectiveType type,
                                 const std::vector<AlgorithmSpec>& algorithms,
                                 const std::string& where) const
{
    const CollectiveType key =
        type == CollectiveType::ReduceScatterBlock ? CollectiveType::ReduceScatter : type;
    // The topology depends on the dimensions listed up to the first "one*" entry.
    const auto firstFlat =
        std::find_if(algorithms.begin(), algorithms.end(), [](const auto& a) { return a.flat; });
    const size_t used = static_cast<size_t>(firstFlat - algorithms.begin());
    const auto cacheKey = std::make_pair(key, 2 * used + (firstFlat != algorithms.end() ? 1 : 0));
    auto cached = m_worldTopologies.find(cacheKey);
    if (cached != m_worldTopologies.end())
    {
        return cached->second;
    }
    if (algorithms.empty())
    {
        throw InputError(m_config.source + ": no " + ImplementationKey(key) + " given, needed by " +
                         ToString(type) + " at " + where);
    }
    if (algorithms.size() > m_physical.size())
    {
        throw InputError(m_config.source + ": " + ImplementationKey(key) + " lists " +
                         std::to_string(algorithms.size()) + " dimensions but the network has " +
                         std::to_string(m_physical.size()));
    }
    const bool flat =
        std::any_of(algorithms.begin(), algorithms.end(), [](const auto& a) { return a.flat; });
    if (algorithms.size() < m_physical.size() && !flat)
    {
        // Allowed, but then the collective leaves out whole dimensions: say so.
        std::cerr << "warning: " << m_config.source << ": " << ImplementationKey(key) << " lists "
                  << algorithms.size() << " of the network's " << m_physical.size()
                  << " dimensions: a world " << ToString(type) << " runs over the first "
                  << algorithms.size() << " only, not across the others" << std::endl;
    }
    std::vector<CollectiveTopology::Dimension> dims;
    uint32_t stride = 1;
    for (size_t d = 0; d < algorithms.size(); ++d)
    {
        if (algorithms[d].flat)
        {
            dims.push_back({m_worldSize, 1, 0, {}});
            break;
        }
        dims.push_back({m_physical[d], stride, 0, {}});
        stride *= m_physical[d];
    }
    auto topology =
        std::make_shared<const CollectiveTopology>(CollectiveTopology::Grid(dims, m_worldSize));
    m_worldTopologies[cacheKey] = topology;
    return topology;
}

std::vector<AlgorithmSpec>
CollectivePlanner::PlanGroup(CollectivePlan& plan,
                             const CommGroup& group,
                             const std::vector<AlgorithmSpec>& algorithms) const
{
    const CollectiveType key =
        plan.type == CollectiveType::ReduceScatterBlock ? CollectiveType::ReduceScatter : plan.type;
    plan.handoffNs = m_config.GetEndpointDelayNs();
    const std::string groupName = "group '" + group.GetName() + "'";
    // A dimension's algorithm that cannot run on the group's part of it becomes a ring,
    // with a note; a configuration error for the world stays one for groups.
    auto usable = [&](AlgorithmSpec spec, uint32_t size, const std::string& dimension)
    {
        const bool needsPowerOfTwo = spec.algorithm == CollectiveAlgorithm::HalvingDoubling ||
                                     spec.algorithm == CollectiveAlgorithm::DoubleBinaryTree;
        if (needsPowerOfTwo && size > 1 && !IsPowerOfTwo(size))
        {
            plan.notes.push_back(groupName + ": " + ToString(spec) + " needs a power of two, " +
                                 dimension + " has " + std::to_string(size) +
                                 " of its ranks: ring there");
            spec.algorithm = CollectiveAlgorithm::Ring;
            spec.window = 0;
        }
        return spec;
    };
    const GroupDecomposition layout = DecomposeGroup(group.GetRanks(), m_physical);
    if (algorithms.front().flat || !layout.subGrid)
    {
        plan.topology = std::make_shared<const CollectiveTopology>(
            CollectiveTopology::MemberRing(group.GetRanks()));
        if (algorithms.front().flat)
        {
            return {usable(algorithms.front(), group.GetSize(), "the group")};
        }
        plan.notes.push_back(groupName + ": " + layout.reason + ": one ring over its members");
        return {AlgorithmSpec{}};
    }
    plan.topology = std::make_shared<const CollectiveTopology>(
        CollectiveTopology::SubGrid(layout.dimensions, group.GetRanks()));
    std::vector<AlgorithmSpec> perDimension;
    for (uint32_t d = 0; d < layout.dimensions.size(); ++d)
    {
        const uint32_t size = layout.dimensions[d].size;
        const std::string dimension = "dimension " + std::to_string(d);
        if (d < algorithms.size())
        {
            perDimension.push_back(usable(algorithms[d], size, dimension));
            continue;
        }
        if (size > 1)
        {
            plan.notes.push_back(groupName + ": " + ImplementationKey(key) + " lists " +
                                 std::to_string(algorithms.size()) +
                                 " dimension(s), the group spans " + dimension + ": ring there");
        }
        perDimension.push_back(AlgorithmSpec{});
    }
    return perDimension;
}

std::vector<AlgorithmSpec>
CollectivePlanner::Implementation(CollectivePlan& plan, const Request& request) const
{
    const CollectiveType key =
        plan.type == CollectiveType::ReduceScatterBlock ? CollectiveType::ReduceScatter : plan.type;
    const auto& algorithms = m_config.GetImplementation(key);
    if (algorithms.empty())
    {
        throw InputError(m_config.source + ": no " + ImplementationKey(key) + " given, needed by " +
                         ToString(plan.type) + " at " + request.where);
    }
    const bool nccl =
        std::any_of(algorithms.begin(), algorithms.end(), [](const auto& a) { return a.nccl; });
    if (!nccl)
    {
        return algorithms;
    }
    if (algorithms.size() != 1)
    {
        throw InputError(m_config.source + ": " + ImplementationKey(key) +
                         ": nccl chooses for every dimension and must be the only entry");
    }
    if (key == CollectiveType::AllToAll)
    {
        throw InputError(m_config.source + ": " + ImplementationKey(key) +
                         ": nccl chooses among all-reduce, reduce-scatter and all-gather "
                         "algorithms only (NCCL runs all-to-all as point-to-point sends); "
                         "give direct, ring or halvingDoubling");
    }
    if (m_nccl.size() != m_physical.size())
    {
        throw InputError(m_config.source + ": " + ImplementationKey(key) +
                         ": nccl needs the bandwidth of each network dimension, which this "
                         "network does not give (needed by " +
                         request.where + ")");
    }
    return ResolveNccl(plan, request);
}

std::vector<AlgorithmSpec>
CollectivePlanner::ResolveNccl(CollectivePlan& plan, const Request& request) const
{
    const CollectiveType key =
        plan.type == CollectiveType::ReduceScatterBlock ? CollectiveType::ReduceScatter : plan.type;
    const bool subGroup = request.group && request.group->GetSize() < m_worldSize;
    std::vector<uint32_t> ranks(m_worldSize);
    std::iota(ranks.begin(), ranks.end(), 0);
    if (subGroup)
    {
        ranks = request.group->GetRanks();
    }
    const std::string who = subGroup ? "group '" + request.group->GetName() + "'" : "the world";
    // NCCL's node is a scale-up domain: ranks that differ only in scale-up coordinates.
    const size_t dims = m_physical.size();
    std::vector<std::set<uint32_t>> coordinates(dims);
    std::map<uint64_t, std::vector<uint32_t>> nodes; // node -> its ranks, ascending
    for (uint32_t rank : ranks)
    {
        uint64_t node = 0;
        uint32_t rest = rank;
        for (size_t d = 0; d < dims; ++d)
        {
            const uint32_t c = rest % m_physical[d];
            rest /= m_physical[d];
            coordinates[d].insert(c);
            if (!m_nccl[d].scaleUp)
            {
                node = node * m_physical[d] + c;
            }
        }
        nodes[node].push_back(rank);
    }
    constexpr double kNone = std::numeric_limits<double>::infinity();
    double intra = kNone;
    double inter = kNone;
    std::vector<uint32_t> spanned;
    for (size_t d = 0; d < dims; ++d)
    {
        if (coordinates[d].size() < 2)
        {
            continue;
        }
        spanned.push_back(static_cast<uint32_t>(d));
        if (m_nccl[d].npuGBps <= 0)
        {
            throw InputError(m_config.source + ": nccl: dimension " + std::to_string(d) +
                             " gives its NPUs no bandwidth (needed by " + request.where + ")");
        }
        double& bw = m_nccl[d].scaleUp ? intra : inter;
        bw = std::min(bw, m_nccl[d].npuGBps);
    }
    if (spanned.empty())
    {
        return {AlgorithmSpec{}};
    }
    NcclGroupShape shape;
    shape.ranks = static_cast<uint32_t>(ranks.size());
    shape.nodes = static_cast<uint32_t>(nodes.size());
    // NCCL's search gives a ring across nodes one speed inside and between nodes.
    shape.interGBps = shape.nodes == 1 ? intra : inter;
    shape.intraGBps = std::min(intra, inter);
    const bool single = spanned.size() == 1;
    const NcclDimension& only = m_nccl[spanned.front()];
    shape.nvls = shape.nodes == 1 && single && only.scaleUp && only.oneSwitch;
    // CollNet reduces across nodes in the switch of the highest dimension, or for an
    // all-reduce on a SHARP tree of its switch levels; over several ranks per node (CollNet
    // Direct) each rank's share goes through its own NIC, so the ranks must fill equal nodes
    // below it on one scale-up dimension.
    const NcclDimension& top = m_nccl[spanned.back()];
    const bool overScaleUp =
        spanned.size() == 2 && m_nccl[spanned.front()].scaleUp && NodesHoldEqually(nodes);
    const bool reducesInNetwork =
        top.oneSwitch || (top.switchTree && key == CollectiveType::AllReduce);
    shape.collNet = m_config.ncclCollNetEnable && shape.nodes >= 2 && !top.scaleUp &&
                    reducesInNetwork && (single || overScaleUp);
    // NCCL sizes an all-gather by its output; comm_size is a rank's input.
    const uint64_t bytes =
        key == CollectiveType::AllGather ? request.bytes * shape.ranks : request.bytes;
    const NcclAlgorithm choice = ChooseNcclAlgorithm(key, bytes, shape);
    plan.notes.push_back(who + ": nccl for " + ToString(key) + " on " +
                         std::to_string(shape.ranks) + " ranks in " + std::to_string(shape.nodes) +
                         " node(s): " + DescribeNcclChoice(key, shape));

    auto flat = [](CollectiveAlgorithm a)
    {
        AlgorithmSpec spec;
        spec.algorithm = a;
        spec.flat = true;
        return std::vector<AlgorithmSpec>{spec};
    };
    std::vector<AlgorithmSpec> perDimension(dims);
    switch (choice)
    {
    case NcclAlgorithm::Ring:
        AddRingChannels(plan, nodes, who);
        return flat(CollectiveAlgorithm::Ring);
    case NcclAlgorithm::Pat:
        return flat(CollectiveAlgorithm::Pat);
    case NcclAlgorithm::Nvls:
        perDimension[spanned.front()].algorithm = CollectiveAlgorithm::Nvls;
        break;
    case NcclAlgorithm::CollNet:
        perDimension[spanned.back()].algorithm = CollectiveAlgorithm::InNetwork;
        if (!single)
        {
            perDimension[spanned.front()].algorithm = CollectiveAlgorithm::Ring;
            plan.splitAllReduce = true;
            plan.notes.push_back(who + ": nccl collnet over " +
                                 std::to_string(shape.ranks / shape.nodes) +
                                 " ranks per node: a ring inside each node, in-network across "
                                 "nodes, each rank's share through its own NIC");
        }
        break;
    case NcclAlgorithm::Tree:
        for (uint32_t d : spanned)
        {
            // With localBWAware the lower dimensions reduce-scatter, which a tree cannot.
            const bool lower = d != spanned.back() && m_config.collectiveOptimization ==
                                                          CollectiveOptimization::LocalBwAware;
            const uint32_t n = static_cast<uint32_t>(coordinates[d].size());
            if (lower)
            {
                continue;
            }
            if (IsPowerOfTwo(n))
            {
                perDimension[d].algorithm = CollectiveAlgorithm::DoubleBinaryTree;
            }
            else
            {
                plan.notes.push_back(who + ": nccl tree: dimension " + std::to_string(d) + " has " +
                                     std::to_string(n) +
                                     " of its ranks, not a power of two: ring there");
            }
        }
        break;
    }
    return perDimension;
}

void
CollectivePlanner::AddRingChannels(CollectivePlan& plan,
                                   const std::map<uint64_t, std::vector<uint32_t>>& nodes,
                                   const std::string& who)
{
    const size_t perNode = nodes.begin()->second.size();
    if (nodes.size() < 2 || perNode < 2)
    {
        return;
    }
    if (!NodesHoldEqually(nodes))
    {
        plan.notes.push_back(who + ": nccl ring in one channel: its nodes hold different "
                                   "numbers of its ranks");
        return;
    }
    // Channel c enters every node at its c-th rank and leaves it from the one before, so
    // each channel crosses between nodes over a NIC of its own (a rail; with
    // dimension-order routing the last rank reaches the next node through the c-th
    // rank's NIC, as NCCL's PXN does).
    for (size_t c = 0; c < perNode; ++c)
    {
        std::vector<uint32_t> order;
        for (const auto& [node, members] : nodes)
        {
            for (size_t j = 0; j < perNode; ++j)
            {
                order.push_back(members[(c + j) % perNode]);
            }
        }
        plan.channels.push_back(
            std::make_shared<const CollectiveTopology>(CollectiveTopology::OrderedRing(order)));
    }
    plan.notes.push_back(who + ": nccl ring in " + std::to_string(perNode) +
                         " channels, one per rank of a node, each leaving every node from "
                         "another rank's NIC");
}

void
CollectivePlanner::CheckAlgorithm(const AlgorithmSpec& spec,
                                  CollectiveType op,
                                  uint32_t size,
                                  const std::string& where) const
{
    const std::string what = m_config.source + ": " + ToString(spec) + " cannot run ";
    switch (spec.algorithm)
    {
    case CollectiveAlgorithm::HalvingDoubling:
        if (op == CollectiveType::AllToAll)
        {
            throw InputError(what + "ALL_TO_ALL (needed by " + where + ")");
        }
        if (!IsPowerOfTwo(size))
        {
            throw InputError(what + "on a dimension of " + std::to_string(size) +
                             " NPUs: it needs a power of two (needed by " + where + ")");
        }
        break;
    case CollectiveAlgorithm::DoubleBinaryTree:
        if (op != CollectiveType::AllReduce)
        {
            throw InputError(what + ToString(op) + ", only ALL_REDUCE (needed by " + where + ")");
        }
        if (!IsPowerOfTwo(size))
        {
            throw InputError(what + "on a dimension of " + std::to_string(size) +
                             " NPUs: it needs a power of two (needed by " + where + ")");
        }
        break;
    case CollectiveAlgorithm::Nvls:
    case CollectiveAlgorithm::InNetwork:
        // NVLink SHARP and SHARP: all-reduce, and reduce-scatter and all-gather (NCCL's NVLS
        // from 2.19.1, its CollNet from 2.20).
        if (op != CollectiveType::AllReduce && op != CollectiveType::ReduceScatter &&
            op != CollectiveType::AllGather)
        {
            throw InputError(what + ToString(op) +
                             ", only ALL_REDUCE, REDUCE_SCATTER and ALL_GATHER (needed by " +
                             where + ")");
        }
        break;
    case CollectiveAlgorithm::Pat:
        if (op != CollectiveType::AllGather && op != CollectiveType::ReduceScatter)
        {
            throw InputError(what + ToString(op) +
                             ", only ALL_GATHER and REDUCE_SCATTER (needed by " + where + ")");
        }
        break;
    default:
        break;
    }
}

void
CollectivePlanner::AddNativePhases(CollectivePlan& plan,
                                   const std::vector<AlgorithmSpec>& algorithms,
                                   const std::vector<bool>& involved,
                                   const std::string& where) const
{
    const CollectiveTopology& topology = *plan.topology;
    const uint32_t dims = topology.GetDimensionCount();
    auto active = [&](uint32_t d)
    {
        const bool wanted = d >= involved.size() || involved[d];
        return topology.GetSize(d) > 1 && wanted;
    };
    uint64_t remain = plan.chunkBytes;
    auto add = [&](CollectiveType op, uint32_t d, QueueClass queue)
    {
        CollectivePhaseSpec phase;
        phase.op = op;
        phase.algorithm = algorithms[d];
        phase.dimension = d;
        phase.inputBytes = remain;
        phase.outputBytes = PhaseOutputBytes(op, remain, topology.GetSize(d));
        phase.queue = queue;
        CheckAlgorithm(phase.algorithm, op, topology.GetSize(d), where);
        if (phase.algorithm.algorithm == CollectiveAlgorithm::Pat &&
            topology.GetSize(d) > kPatAlwaysAggregatedRanks)
        {
            plan.notes.push_back("pat on " + std::to_string(topology.GetSize(d)) +
                                 " ranks of dimension " + std::to_string(d) +
                                 " runs log2 steps with every block aggregated, as NCCL does "
                                 "for small shares; for large ones NCCL sends at most 8 "
                                 "blocks per message in more steps");
        }
        plan.phases.push_back(phase);
        remain = phase.outputBytes;
    };

    const bool splitAllReduce = plan.type == CollectiveType::AllReduce &&
                                (plan.splitAllReduce || m_config.collectiveOptimization ==
                                                            CollectiveOptimization::LocalBwAware);
    if (!splitAllReduce)
    {
        const CollectiveType op = plan.type == CollectiveType::ReduceScatterBlock
                                      ? CollectiveType::ReduceScatter
                                      : plan.type;
        for (uint32_t i = 0; i < dims; ++i)
        {
            // All-gather grows the data, so it starts on the highest dimension.
            const uint32_t d = plan.type == CollectiveType::AllGather ? dims - 1 - i : i;
            if (active(d))
            {
                add(op, d, QueueClass::Shared);
            }
        }
        return;
    }
    uint32_t last = 0;
    for (uint32_t d = 0; d < dims; ++d)
    {
        if (active(d))
        {
            last = d;
        }
    }
    for (uint32_t d = 0; d < last; ++d)
    {
        if (active(d))
        {
            add(CollectiveType::ReduceScatter, d, QueueClass::FirstVisit);
        }
    }
    if (active(last))
    {
        add(CollectiveType::AllReduce, last, QueueClass::FirstVisit);
    }
    for (uint32_t d = last; d-- > 0;)
    {
        if (active(d))
        {
            add(CollectiveType::AllGather, d, QueueClass::SecondVisit);
        }
    }
}

std::shared_ptr<const CollectivePlan>
CollectivePlanner::Plan(const Request& request) const
{
    auto plan = std::make_shared<CollectivePlan>();
    plan->type = request.type;
    plan->requestedBytes = request.bytes;
    plan->root = request.root;

    const bool native =
        IsNativeAstraCollective(request.type) || request.type == CollectiveType::ReduceScatterBlock;
    const bool subGroup = request.group && request.group->GetSize() < m_worldSize;
    if (native && !m_config.GetCustomImplementation(request.type).empty())
    {
        throw InputError(m_config.source + ": " + ImplementationKey(request.type) +
                         "-custom (a collective given as a Chakra trace) is not supported, "
                         "needed by " +
                         request.where);
    }

    const bool memberRing = m_config.groupDecomposition == GroupDecompositionMode::MemberRing;
    std::vector<AlgorithmSpec> algorithms{AlgorithmSpec{}};
    if (native && (!subGroup || !memberRing))
    {
        algorithms = Implementation(*plan, request);
    }
    if (subGroup && native && !memberRing)
    {
        algorithms = PlanGroup(*plan, *request.group, algorithms);
    }
    else if (subGroup)
    {
        plan->topology = std::make_shared<const CollectiveTopology>(
            CollectiveTopology::MemberRing(request.group->GetRanks()));
        plan->handoffNs = memberRing ? kMemberRingHandoffNs : m_config.GetEndpointDelayNs();
    }
    else
    {
        plan->topology =
            native ? WorldTopology(request.type, algorithms, request.where)
                   : std::make_shared<const CollectiveTopology>(
                         CollectiveTopology::Grid({{m_worldSize, 1, 0, {}}}, m_worldSize));
        plan->handoffNs = m_config.GetEndpointDelayNs();
    }
    const uint32_t groupSize = plan->topology->GetRankCount();
    if (request.root >= groupSize)
    {
        throw InputError(request.where + ": root " + std::to_string(request.root) +
                         " is outside a group of " + std::to_string(groupSize) + " ranks");
    }

    // Chunking, as ASTRA-sim's Sys::determine_chunk_size: a chunk other than all-gather's
    // carries at least one byte per NPU, and every chunk has the same size.
    uint64_t size = request.bytes;
    const uint64_t splits = m_config.preferredDatasetSplits;
    if (request.type == CollectiveType::Barrier)
    {
        plan->chunkBytes = 1;
        plan->chunkCount = 1;
    }
    else
    {
        uint64_t chunk = size / splits;
        const bool gatherLike =
            request.type == CollectiveType::AllGather || request.type == CollectiveType::Gather;
        if (!gatherLike && m_worldSize > chunk)
        {
            chunk = m_worldSize;
            size = splits * chunk;
        }
        chunk = std::max<uint64_t>(chunk, 1);
        const uint64_t count = (size + chunk - 1) / chunk;
        if (count > kMaxChunks)
        {
            throw InputError(request.where + ": " + std::to_string(count) + " chunks; at most " +
                             std::to_string(kMaxChunks) +
                             " are supported (lower preferred-dataset-splits)");
        }
        plan->chunkBytes = chunk;
        plan->chunkCount = static_cast<uint32_t>(count);
    }
    if (!plan->channels.empty())
    {
        // Every chunk is split over the channels, as NCCL splits a collective's data.
        const uint64_t channels = plan->channels.size();
        const uint64_t count = plan->chunkCount * channels;
        if (count > kMaxChunks)
        {
            throw InputError(request.where + ": " + std::to_string(count) +
                             " chunks over NCCL's channels; at most " + std::to_string(kMaxChunks) +
                             " are supported (lower preferred-dataset-splits)");
        }
        plan->chunkBytes = std::max<uint64_t>(1, (plan->chunkBytes + channels - 1) / channels);
        plan->chunkCount = static_cast<uint32_t>(count);
    }

    if (native)
    {
        if (subGroup)
        {
            AddNativePhases(*plan, algorithms, {}, request.where);
        }
        else
        {
            // A named group spanning the world ignores the node's involved_dim.
            const std::vector<bool> involved =
                request.group ? std::vector<bool>{} : request.involvedDimensions;
            AddNativePhases(*plan, algorithms, involved, request.where);
        }
    }
    else if (groupSize > 1)
    {
        CollectivePhaseSpec phase;
        phase.op = request.type;
        phase.dimension = 0;
        phase.inputBytes = plan->chunkBytes;
        phase.outputBytes = plan->chunkBytes;
        plan->phases.push_back(phase);
    }
    if (plan->phases.empty())
    {
        plan->chunkCount = 0;
    }
    return plan;
}

} // namespace ns3
