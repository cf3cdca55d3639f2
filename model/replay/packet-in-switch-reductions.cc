/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "packet-in-switch-reductions.h"

#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/reduction-member.h"

#include <algorithm>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PacketInSwitchReductions");

void
PacketInSwitchReductions::Attach(const std::vector<Ptr<RdmaNic>>& nics,
                                 Placer placer,
                                 uint8_t priority)
{
    m_nics = nics;
    m_placer = std::move(placer);
    m_priority = priority;
}

bool
PacketInSwitchReductions::IsAttached() const
{
    return static_cast<bool>(m_placer);
}

void
PacketInSwitchReductions::Clear()
{
    m_open.clear();
    m_nics.clear();
    m_placer = nullptr;
}

size_t
PacketInSwitchReductions::GetOpenCount() const
{
    return m_open.size();
}

namespace
{

/** \return the NIC's side of in-switch reductions, aggregated to it on first use */
Ptr<ReductionMember>
MemberOf(Ptr<RdmaNic> nic)
{
    Ptr<ReductionMember> member = nic->GetObject<ReductionMember>();
    if (!member)
    {
        std::vector<Ptr<RocePort>> ports;
        for (uint32_t i = 0; i < nic->GetNPorts(); ++i)
        {
            ports.push_back(nic->GetPort(i));
        }
        member = CreateObject<ReductionMember>();
        member->Attach(nic->GetNodeId(), ports);
        nic->AggregateObject(member);
    }
    return member;
}

} // namespace

void
PacketInSwitchReductions::Reduce(const NetworkBackend::Contribution& c,
                                 NetworkBackend::ContributionCallback done)
{
    NS_LOG_FUNCTION(this << c.rank << c.bytes << c.tag);
    NS_ABORT_MSG_UNLESS(c.members, "a contribution without members");
    const std::vector<uint32_t>& members = *c.members;
    const std::string who = "rank " + std::to_string(c.rank) + ": in-switch reduction over " +
                            std::to_string(members.size()) + " ranks";
    auto self = std::lower_bound(members.begin(), members.end(), c.rank);
    if (self == members.end() || *self != c.rank)
    {
        throw InputError(who + " that does not include the rank");
    }
    for (uint32_t rank : members)
    {
        if (rank >= m_nics.size())
        {
            throw InputError(who + ": rank " + std::to_string(rank) + " is not in the network");
        }
    }
    const auto index = static_cast<uint32_t>(self - members.begin());
    const Key key{c.tag, members};
    auto it = m_open.find(key);
    if (it == m_open.end())
    {
        const Placement place = m_placer(members, m_priority);
        if (place.switches.size() > 1 && c.op != NetworkBackend::InSwitchOp::AllReduce)
        {
            throw InputError(who + ": no switch is cabled to every member, and an aggregation "
                                   "tree over several switches runs all-reduce only");
        }
        const uint32_t chunk = place.chunkBytes;
        Open open;
        open.id = m_nextId++;
        open.bytes = c.bytes;
        open.op = c.op;
        open.members = members;
        open.contributed.assign(members.size(), false);
        open.contributions.resize(members.size());
        open.done.resize(members.size());
        const ReductionOp op = NetworkBackend::LayoutOp(c.op);
        const auto n = static_cast<uint32_t>(members.size());
        // Root first, so that each switch below opens with its parent's first credit.
        std::vector<uint64_t> limits(place.switches.size(), 0);
        for (uint32_t s = 0; s < place.switches.size(); ++s)
        {
            const Placement::Switch& sw = place.switches[s];
            std::vector<SwitchReduction::Member> below;
            for (uint32_t m = 0; m < n; ++m)
            {
                if (place.attach[m] == s)
                {
                    below.push_back({m_nics[members[m]]->GetNodeId(), place.switchPorts[m]});
                }
            }
            below.insert(below.end(), sw.below.begin(), sw.below.end());
            SwitchReduction::Parent parent;
            if (sw.parent >= 0)
            {
                parent = {place.switches[sw.parent].node, sw.upPort, limits[sw.parent]};
            }
            limits[s] = sw.reduction->Open(
                open.id, below, c.bytes, chunk, m_priority, op, sw.parent >= 0 ? &parent : nullptr);
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            MemberOf(m_nics[members[i]])
                ->Join({open.id,
                        place.nicPorts[i],
                        place.switches[place.attach[i]].node,
                        m_priority,
                        c.bytes,
                        chunk,
                        limits[place.attach[i]],
                        [this, key, i]() { Finished(key, i); },
                        op,
                        i,
                        n});
        }
        it = m_open.emplace(key, std::move(open)).first;
    }
    Open& open = it->second;
    if (open.contributed[index])
    {
        throw InputError(who + ": the rank contributed twice");
    }
    if (open.bytes != c.bytes)
    {
        throw InputError(who + ": " + std::to_string(c.bytes) + " bytes, another member gave " +
                         std::to_string(open.bytes));
    }
    if (open.op != c.op)
    {
        throw InputError(who + ": another member runs another collective under the same tag");
    }
    open.contributed[index] = true;
    open.contributions[index] = c;
    open.done[index] = std::move(done);
    MemberOf(m_nics[c.rank])->Start(open.id);
}

void
PacketInSwitchReductions::Finished(const Key& key, uint32_t member)
{
    auto it = m_open.find(key);
    NS_ABORT_MSG_IF(it == m_open.end(), "a result of a reduction not under way");
    Open& open = it->second;
    const NetworkBackend::Contribution c = open.contributions[member];
    const NetworkBackend::ContributionCallback done = open.done[member];
    if (++open.finished == open.members.size())
    {
        m_open.erase(it);
    }
    if (done)
    {
        done(c);
    }
}

} // namespace ns3
