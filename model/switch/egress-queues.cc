/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "egress-queues.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EgressQueues");

EgressQueues::EgressQueues()
{
    m_weight.fill(1);
}

void
EgressQueues::Configure(uint8_t strictMask, uint32_t quantumBytes)
{
    m_strictMask = strictMask;
    m_quantum = quantumBytes;
}

void
EgressQueues::SetWeight(uint8_t priority, uint32_t weight)
{
    m_weight[priority] = weight;
}

void
EgressQueues::Enqueue(QueuedFrame&& frame)
{
    const uint8_t p = frame.frame.priority;
    m_bytes[p] += frame.frame.wireBytes;
    m_total += frame.frame.wireBytes;
    m_bufferBytes += frame.bufferBytes;
    m_payload += frame.payload;
    m_nonEmpty |= static_cast<uint8_t>(1u << p);
    m_queues[p].push_back(std::move(frame));
}

void
EgressQueues::Pop(uint8_t priority, QueuedFrame& out)
{
    out = std::move(m_queues[priority].front());
    m_queues[priority].pop_front();
    if (m_queues[priority].empty())
    {
        m_nonEmpty &= static_cast<uint8_t>(~(1u << priority));
    }
    m_bytes[priority] -= out.frame.wireBytes;
    m_total -= out.frame.wireBytes;
    m_bufferBytes -= out.bufferBytes;
    m_payload -= out.payload;
}

void
EgressQueues::Advance(int steps)
{
    if (steps > 0)
    {
        m_current = static_cast<uint8_t>((m_current + steps) % kNumPriorities);
        m_turnStarted = false;
    }
}

bool
EgressQueues::Dequeue(const RocePort& port, QueuedFrame& out)
{
    if (m_total == 0)
    {
        return false;
    }
    // Bit masks instead of a scan of the eight queues: this runs once per frame sent.
    const uint8_t ready = m_nonEmpty & static_cast<uint8_t>(~port.GetBlockedMask());
    const uint8_t strict = ready & m_strictMask;
    if (strict != 0)
    {
        // Highest strict priority first.
        Pop(static_cast<uint8_t>(31 - __builtin_clz(strict)), out);
        return true;
    }
    // Deficit round robin: each turn adds a quantum; a queue sends while its head fits.
    // A turn visits the priorities cyclically from m_current, at most kMaxVisits times;
    // visits to ineligible priorities only move the turn on, so they are skipped in one
    // step. (An empty queue's deficit is already 0: it is cleared when the queue drains.)
    constexpr int kMaxVisits = 2 * kNumPriorities + 1;
    const uint8_t eligible = ready & static_cast<uint8_t>(~m_strictMask);
    int visits = 0;
    while (visits < kMaxVisits)
    {
        if (eligible == 0)
        {
            Advance(kMaxVisits - visits);
            return false;
        }
        // Distance from m_current to the next eligible priority, cyclically.
        const unsigned rotated = (static_cast<unsigned>(eligible) >> m_current) |
                                 (static_cast<unsigned>(eligible) << (kNumPriorities - m_current));
        const int skip = __builtin_ctz(rotated & 0xffu);
        if (visits + skip >= kMaxVisits)
        {
            Advance(kMaxVisits - visits);
            return false;
        }
        Advance(skip);
        visits += skip;
        const uint8_t p = m_current;
        if (!m_turnStarted)
        {
            m_deficit[p] += static_cast<uint64_t>(m_quantum) * m_weight[p];
            m_turnStarted = true;
        }
        const uint32_t head = m_queues[p].front().frame.wireBytes;
        if (head <= m_deficit[p])
        {
            m_deficit[p] -= head;
            Pop(p, out);
            if (m_queues[p].empty())
            {
                m_deficit[p] = 0;
            }
            return true;
        }
        Advance(1);
        ++visits;
    }
    return false;
}

uint64_t
EgressQueues::GetBytes(uint8_t priority) const
{
    return m_bytes[priority];
}

uint64_t
EgressQueues::GetTotalBytes() const
{
    return m_total;
}

uint64_t
EgressQueues::GetBufferBytes() const
{
    return m_bufferBytes;
}

uint64_t
EgressQueues::GetPayload() const
{
    return m_payload;
}

bool
EgressQueues::IsEmpty() const
{
    return m_total == 0;
}

} // namespace ns3
