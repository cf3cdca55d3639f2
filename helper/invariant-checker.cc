/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "invariant-checker.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/reduction-member.h"
#include "ns3/roce-channel.h"
#include "ns3/simulator.h"
#include "ns3/switch-reduction.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InvariantChecker");

namespace
{

/** \return every node of \p net: hosts, then switches */
std::vector<uint32_t>
AllNodes(const RoceNetwork& net)
{
    std::vector<uint32_t> nodes = net.GetHosts();
    nodes.insert(nodes.end(), net.GetSwitches().begin(), net.GetSwitches().end());
    return nodes;
}

/** \return "node N port P" */
std::string
PortName(uint32_t node, uint32_t port)
{
    return "node " + std::to_string(node) + " port " + std::to_string(port);
}

} // namespace

InvariantChecker::InvariantChecker(const RoceNetwork& net)
    : m_net(net)
{
}

void
InvariantChecker::CheckConservation(std::vector<std::string>& out) const
{
    uint64_t sent = 0;
    uint64_t received = 0;
    uint64_t held = 0;
    for (uint32_t host : m_net.GetHosts())
    {
        const auto& c = m_net.GetNic(host)->GetCounters();
        sent += c.dataBytesTx;
        received += c.deliveredBytes + c.duplicateBytes + c.outOfOrderBytes;
        held += m_net.GetNic(host)->GetPayloadHeld();
        // In-switch reductions: chunks up are sent by the NICs, results by the switches.
        if (Ptr<ReductionMember> member = m_net.GetNic(host)->GetObject<ReductionMember>())
        {
            sent += member->GetPayloadSent();
        }
    }
    uint64_t dropped = 0;
    uint64_t queued = 0;
    for (uint32_t host : m_net.GetHosts())
    {
        // A relay's queued payload is in GetPayloadHeld().
        dropped += m_net.GetNic(host)->GetRelay()->GetCounters().droppedPayload;
    }
    for (uint32_t sw : m_net.GetSwitches())
    {
        dropped += m_net.GetSwitch(sw)->GetCounters().droppedPayload;
        queued += m_net.GetSwitch(sw)->GetQueuedPayload();
        if (Ptr<SwitchReduction> r = m_net.GetSwitch(sw)->GetObject<SwitchReduction>())
        {
            sent += r->GetPayloadSent();
            received += r->GetPayloadReceived();
        }
    }
    uint64_t lost = 0;
    uint64_t onCables = 0;
    for (uint32_t node : AllNodes(m_net))
    {
        for (const auto& port : m_net.GetPorts(node))
        {
            lost += port->GetCounters().lostPayload;
            auto channel = DynamicCast<RoceChannel>(port->GetChannel());
            if (channel && channel->GetDevice(0) == port)
            {
                onCables += channel->GetPayloadInFlight();
            }
        }
    }
    const uint64_t accounted = received + dropped + lost + onCables + queued + held;
    if (sent != accounted)
    {
        std::ostringstream line;
        line << "payload not conserved: " << sent << " B sent, " << accounted
             << " B accounted for (received " << received << ", dropped " << dropped << ", lost "
             << lost << ", on cables " << onCables << ", queued " << queued << ", held by NICs "
             << held << ")";
        out.push_back(line.str());
    }
}

void
InvariantChecker::CheckBuffers(std::vector<std::string>& out) const
{
    for (uint32_t host : m_net.GetHosts())
    {
        Ptr<NpuRelay> relay = m_net.GetNic(host)->GetRelay();
        Ptr<SharedBufferMmu> mmu = relay->GetMmu();
        if (!relay->IsConfigured())
        {
            continue;
        }
        if (mmu->GetPeakUsedBytes() > mmu->GetBufferBytes() ||
            mmu->GetUsedBytes() != relay->GetQueuedBufferBytes())
        {
            out.push_back("NPU " + std::to_string(host) + " relay holds " +
                          std::to_string(mmu->GetUsedBytes()) + " B (peak " +
                          std::to_string(mmu->GetPeakUsedBytes()) + " B) in a buffer of " +
                          std::to_string(mmu->GetBufferBytes()) + " B, queues " +
                          std::to_string(relay->GetQueuedBufferBytes()) + " B");
        }
    }
    for (uint32_t sw : m_net.GetSwitches())
    {
        Ptr<RoceSwitch> s = m_net.GetSwitch(sw);
        Ptr<SharedBufferMmu> mmu = s->GetMmu();
        if (mmu->GetUsedBytes() > mmu->GetBufferBytes() ||
            mmu->GetPeakUsedBytes() > mmu->GetBufferBytes())
        {
            out.push_back("switch " + std::to_string(sw) + " holds " +
                          std::to_string(mmu->GetPeakUsedBytes()) + " B in a buffer of " +
                          std::to_string(mmu->GetBufferBytes()) + " B");
        }
        if (mmu->GetHeadroomPoolBytes() > 0 &&
            mmu->GetPeakHeadroomUsedBytes() > mmu->GetHeadroomPoolBytes())
        {
            out.push_back("switch " + std::to_string(sw) + " used " +
                          std::to_string(mmu->GetPeakHeadroomUsedBytes()) +
                          " B of headroom from a pool of " +
                          std::to_string(mmu->GetHeadroomPoolBytes()) + " B");
        }
        if (mmu->GetUsedBytes() != s->GetQueuedBufferBytes())
        {
            out.push_back("switch " + std::to_string(sw) + " accounts " +
                          std::to_string(mmu->GetUsedBytes()) + " B but queues " +
                          std::to_string(s->GetQueuedBufferBytes()) + " B");
        }
    }
}

void
InvariantChecker::CheckPfc(std::vector<std::string>& out) const
{
    const Time now = Simulator::Now();
    for (uint32_t node : AllNodes(m_net))
    {
        const auto ports = m_net.GetPorts(node);
        for (uint32_t i = 0; i < ports.size(); ++i)
        {
            Ptr<RocePort> peer = ports[i]->GetPeer();
            // A resume frame may wait behind one maximum frame, then cross the cable.
            const Time slack = ports[i]->GetLinkDelay() + peer->SerializationTime(2 * 9216);
            const auto peerCounters = peer->GetCounters();
            for (uint8_t p = 0; p < kNumPriorities; ++p)
            {
                if (ports[i]->IsPaused(p) && now - ports[i]->GetPauseStart(p) > slack &&
                    !peer->IsXoff(p) && now - peerCounters.lastXon[p] > slack)
                {
                    std::ostringstream line;
                    line << PortName(node, i) << " priority " << unsigned(p) << " paused since "
                         << ports[i]->GetPauseStart(p).As(Time::US)
                         << " but its peer holds no pause";
                    out.push_back(line.str());
                }
            }
        }
    }
}

std::vector<std::string>
InvariantChecker::Check() const
{
    std::vector<std::string> out;
    CheckConservation(out);
    CheckBuffers(out);
    CheckPfc(out);
    return out;
}

std::vector<std::string>
InvariantChecker::CheckFinished() const
{
    std::vector<std::string> out = Check();
    for (uint32_t host : m_net.GetHosts())
    {
        for (const auto& qp : m_net.GetNic(host)->GetQueuePairs())
        {
            const uint64_t posted = qp->GetMessagesPosted();
            const uint64_t received =
                m_net.GetNic(qp->GetPeerNode())->GetMessagesReceived(qp->GetPeerQpn());
            if (qp->GetMessagesAcknowledged() != posted || received != posted)
            {
                out.push_back("node " + std::to_string(host) + " QP " +
                              std::to_string(qp->GetQpn()) + ": " + std::to_string(posted) +
                              " messages posted, " + std::to_string(received) + " received, " +
                              std::to_string(qp->GetMessagesAcknowledged()) + " acknowledged");
            }
        }
    }
    for (uint32_t node : AllNodes(m_net))
    {
        const auto ports = m_net.GetPorts(node);
        for (uint32_t i = 0; i < ports.size(); ++i)
        {
            for (uint8_t p = 0; p < kNumPriorities; ++p)
            {
                if (ports[i]->IsXoff(p))
                {
                    out.push_back(PortName(node, i) + " still holds priority " + std::to_string(p) +
                                  " paused at the end");
                }
            }
        }
    }
    return out;
}

bool
InvariantChecker::AllAcknowledged() const
{
    for (uint32_t host : m_net.GetHosts())
    {
        for (const auto& qp : m_net.GetNic(host)->GetQueuePairs())
        {
            if (qp->GetMessagesAcknowledged() != qp->GetMessagesPosted())
            {
                return false;
            }
        }
    }
    return true;
}

void
InvariantChecker::StartPeriodic(Time period, std::function<bool()> done)
{
    NS_ABORT_MSG_UNLESS(period.IsStrictlyPositive(), "the period must be positive");
    m_period = period;
    m_done = std::move(done);
    Simulator::Schedule(m_period, &InvariantChecker::Tick, this);
}

void
InvariantChecker::Tick()
{
    ++m_checks;
    auto violations = Check();
    if (!violations.empty())
    {
        m_violations = std::move(violations);
        Simulator::Stop();
        return;
    }
    if (!Simulator::IsFinished() && !(m_done && m_done()))
    {
        Simulator::Schedule(m_period, &InvariantChecker::Tick, this);
    }
}

uint64_t
InvariantChecker::GetPeriodicCheckCount() const
{
    return m_checks;
}

const std::vector<std::string>&
InvariantChecker::GetPeriodicViolations() const
{
    return m_violations;
}

} // namespace ns3
