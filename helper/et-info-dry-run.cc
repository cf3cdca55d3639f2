/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "et-info-dry-run.h"

#include "ns3/log.h"

#include <deque>
#include <functional>
#include <map>
#include <queue>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EtInfoDryRun");

namespace
{

/** Blocked stuck lines kept in EtDryRun. */
constexpr size_t kMaxStuckListed = 20;

/** A node of one rank. */
struct RankNode
{
    uint32_t rank;     //!< the rank
    uint32_t position; //!< its position in the rank's trace
};

/** The zero-time replay of a whole workload. */
class DryRun
{
  public:
    DryRun(const std::vector<EtTrace>& traces, const std::optional<EtCommGroups>& groups)
        : m_traces(traces)
        , m_groups(groups)
        , m_waiting(traces.size())
        , m_ready(traces.size())
        , m_arrivals(traces.size())
    {
        for (uint32_t r = 0; r < traces.size(); ++r)
        {
            const auto& graph = traces[r].GetGraph();
            m_waiting[r].resize(traces[r].GetNodeCount());
            for (uint32_t i = 0; i < traces[r].GetNodeCount(); ++i)
            {
                m_waiting[r][i] = graph.GetParentCount(i);
                if (m_waiting[r][i] == 0)
                {
                    m_ready[r].push(i);
                }
            }
            m_result.nodesTotal += traces[r].GetNodeCount();
        }
    }

    EtDryRun
    Run()
    {
        bool moved = true;
        while (moved)
        {
            moved = false;
            for (uint32_t r = 0; r < m_traces.size(); ++r)
            {
                while (!m_ready[r].empty())
                {
                    const uint32_t i = m_ready[r].top();
                    m_ready[r].pop();
                    Issue({r, i});
                    moved = true;
                }
            }
        }
        ReportStuck();
        return m_result;
    }

  private:
    /** \return the size of the group a collective names */
    size_t
    GroupSize(const std::string& group) const
    {
        if (m_groups && m_groups->count(group) > 0)
        {
            return m_groups->at(group).size();
        }
        return m_traces.size();
    }

    void
    Issue(const RankNode& n)
    {
        const EtNode& node = m_traces[n.rank].GetNode(n.position);
        switch (node.type)
        {
        case EtNodeType::COMM_COLL_NODE:
        {
            const std::string group(node.pgName);
            const uint64_t slot = m_arrivals[n.rank][group]++;
            auto& arrived = m_collectives[{group, slot}];
            arrived.push_back(n);
            if (arrived.size() == GroupSize(group))
            {
                for (const auto& member : arrived)
                {
                    Complete(member);
                }
                ++m_result.collectivesDone;
                m_collectives.erase({group, slot});
            }
            break;
        }
        case EtNodeType::COMM_SEND_NODE:
        case EtNodeType::COMM_RECV_NODE:
        {
            const bool send = node.type == EtNodeType::COMM_SEND_NODE;
            const int64_t src = send ? n.rank : node.commSrc;
            const int64_t dst = send ? node.commDst : n.rank;
            auto& [sends, recvs] = m_channels[{src, dst, node.commTag}];
            (send ? sends : recvs).push_back(n);
            if (!sends.empty() && !recvs.empty())
            {
                Complete(sends.front());
                Complete(recvs.front());
                sends.pop_front();
                recvs.pop_front();
                ++m_result.messagesDone;
            }
            break;
        }
        default:
            Complete(n);
        }
    }

    void
    Complete(const RankNode& n)
    {
        ++m_result.nodesDone;
        for (uint32_t child : m_traces[n.rank].GetGraph().GetChildren(n.position))
        {
            if (--m_waiting[n.rank][child] == 0)
            {
                m_ready[n.rank].push(child);
            }
        }
    }

    /** \return "rank r, node id (name)" */
    std::string
    Where(const RankNode& n) const
    {
        const EtNode& node = m_traces[n.rank].GetNode(n.position);
        return "rank " + std::to_string(n.rank) + ", node " + std::to_string(node.id) + " (" +
               std::string(node.name) + ")";
    }

    void
    Stuck(std::string line)
    {
        if (m_result.stuck.size() < kMaxStuckListed)
        {
            m_result.stuck.push_back(std::move(line));
        }
    }

    void
    ReportStuck()
    {
        for (const auto& [key, arrived] : m_collectives)
        {
            const auto& [group, slot] = key;
            for (const auto& n : arrived)
            {
                Stuck(Where(n) + ": collective #" + std::to_string(slot) + " of group " +
                      (group.empty() ? "0" : group) + " waits for its other members (" +
                      std::to_string(arrived.size()) + " of " + std::to_string(GroupSize(group)) +
                      " arrived)");
            }
        }
        for (const auto& [key, lists] : m_channels)
        {
            const auto& [src, dst, tag] = key;
            for (const auto& n : lists.first)
            {
                Stuck(Where(n) + ": send to rank " + std::to_string(dst) + " with tag " +
                      std::to_string(tag) + " is never received");
            }
            for (const auto& n : lists.second)
            {
                Stuck(Where(n) + ": receive from rank " + std::to_string(src) + " with tag " +
                      std::to_string(tag) + " is never sent");
            }
        }
    }

    const std::vector<EtTrace>& m_traces;         //!< the ranks
    const std::optional<EtCommGroups>& m_groups;  //!< group members
    std::vector<std::vector<uint32_t>> m_waiting; //!< per rank, per node: parents left
    std::vector<std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>>>
        m_ready;                                             //!< per rank: issuable nodes
    std::vector<std::map<std::string, uint64_t>> m_arrivals; //!< per rank: calls per group
    std::map<std::pair<std::string, uint64_t>, std::vector<RankNode>>
        m_collectives; //!< (group, k) -> members that issued their k-th call
    std::map<std::tuple<int64_t, int64_t, int64_t>,
             std::pair<std::deque<RankNode>, std::deque<RankNode>>>
        m_channels;    //!< (src, dst, tag) -> unmatched sends and receives
    EtDryRun m_result; //!< figures
};

} // namespace

bool
EtDryRun::Completed() const
{
    return nodesDone == nodesTotal;
}

EtDryRun
DryRunEtWorkload(const std::vector<EtTrace>& traces, const std::optional<EtCommGroups>& groups)
{
    return DryRun(traces, groups).Run();
}

} // namespace ns3
