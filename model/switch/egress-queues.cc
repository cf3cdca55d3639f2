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
    m_queues[p].push_back(std::move(frame));
}

void
EgressQueues::Pop(uint8_t priority, QueuedFrame& out)
{
    out = std::move(m_queues[priority].front());
    m_queues[priority].pop_front();
    m_bytes[priority] -= out.frame.wireBytes;
    m_total -= out.frame.wireBytes;
    m_bufferBytes -= out.bufferBytes;
    m_payload -= out.payload;
}

bool
EgressQueues::Dequeue(const RocePort& port, QueuedFrame& out)
{
    if (m_total == 0)
    {
        return false;
    }
    for (int p = kNumPriorities - 1; p >= 0; --p)
    {
        const auto prio = static_cast<uint8_t>(p);
        if (((m_strictMask >> p) & 1u) && !m_queues[p].empty() && !port.IsPaused(prio))
        {
            Pop(prio, out);
            return true;
        }
    }
    // Deficit round robin: each turn adds a quantum; a queue sends while its head fits.
    for (int visits = 0; visits <= 2 * kNumPriorities; ++visits)
    {
        const uint8_t p = m_current;
        const bool eligible =
            !((m_strictMask >> p) & 1u) && !m_queues[p].empty() && !port.IsPaused(p);
        if (eligible)
        {
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
        }
        else if (m_queues[p].empty())
        {
            m_deficit[p] = 0;
        }
        m_current = static_cast<uint8_t>((m_current + 1) % kNumPriorities);
        m_turnStarted = false;
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
