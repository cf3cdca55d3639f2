/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "shared-buffer-mmu.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SharedBufferMmu");
NS_OBJECT_ENSURE_REGISTERED(SharedBufferMmu);

TypeId
SharedBufferMmu::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SharedBufferMmu")
            .SetParent<Object>()
            .SetGroupName("Mlfabric")
            .AddConstructor<SharedBufferMmu>()
            .AddAttribute("BufferBytes",
                          "Total packet buffer of the switch, bytes",
                          UintegerValue(32 * 1024 * 1024),
                          MakeUintegerAccessor(&SharedBufferMmu::m_bufferBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("ReservedBytes",
                          "Bytes reserved for each (ingress port, priority)",
                          UintegerValue(8192),
                          MakeUintegerAccessor(&SharedBufferMmu::m_reservedBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Alpha",
                          "Dynamic threshold: an ingress queue may hold alpha times the "
                          "free shared bytes",
                          DoubleValue(0.125),
                          MakeDoubleAccessor(&SharedBufferMmu::m_alpha),
                          MakeDoubleChecker<double>(1.0 / 1024, 1024))
            .AddAttribute("PfcEnabled",
                          "Generate PFC for lossless priorities (otherwise they drop too)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&SharedBufferMmu::m_pfcEnabled),
                          MakeBooleanChecker())
            .AddAttribute("LosslessPriorities",
                          "Bit mask of the priorities protected by PFC (bit 3: priority 3) "
                          "on ports whose link does not set its own",
                          UintegerValue(1u << 3),
                          MakeUintegerAccessor(&SharedBufferMmu::m_losslessMask),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("HeadroomExtraTime",
                          "Time counted in the headroom beyond the upstream port's own "
                          "RocePort::PfcResponseTime and pipelines (which the headroom "
                          "always holds); default 0",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&SharedBufferMmu::m_responseTime),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ResumeOffsetBytes",
                          "An ingress queue resumes once this far below the threshold",
                          UintegerValue(3 * 1024),
                          MakeUintegerAccessor(&SharedBufferMmu::m_resumeOffset),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("HeadroomBytes",
                          "Headroom per lossless ingress queue; 0 sizes it from the port's "
                          "rate, cable delay and maximum frame",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SharedBufferMmu::m_headroomOverride),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("LossyEgressAlpha",
                          "Egress dynamic threshold of lossy traffic: an egress queue may "
                          "hold this times the free shared bytes of lossy packets; 0 turns "
                          "it off (ingress accounting alone). Default 8: SONiC's "
                          "egress_lossy_profile, dynamic_th 3 (alpha = 2^3)",
                          DoubleValue(8),
                          MakeDoubleAccessor(&SharedBufferMmu::m_egressAlpha),
                          MakeDoubleChecker<double>(0, 1024))
            .AddAttribute("HeadroomPoolBytes",
                          "Shared headroom pool: the lossless queues draw their headroom "
                          "from one pool of this size, carved out instead of every queue's "
                          "own; 0 (default, as SONiC without an over-subscribe ratio) "
                          "carves each queue's headroom",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SharedBufferMmu::m_headroomPool),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

void
SharedBufferMmu::Configure(const std::vector<PortConfig>& ports, uint32_t maxFrameBytes)
{
    const size_t n = ports.size();
    m_in.assign(n, {});
    m_out.assign(n, {});
    m_headroom.assign(n, 0);
    m_lossless.assign(n, 0);
    m_reserve.assign(n, 0);
    m_credit.assign(n, 0);
    uint64_t carved = 0;
    for (size_t p = 0; p < n; ++p)
    {
        if (ports[p].creditBytes > 0)
        {
            // Credits bound what the peer may send: its buffer, and no PFC.
            m_credit[p] = ports[p].creditBytes;
            carved += m_credit[p] * kNumPriorities;
            continue;
        }
        if (m_pfcEnabled)
        {
            m_lossless[p] = ports[p].pfcPriorities.value_or(m_losslessMask);
        }
        if (m_lossless[p] == 0)
        {
            continue; // a lossy port: no allotment, no headroom
        }
        if (m_headroomOverride > 0)
        {
            m_headroom[p] = m_headroomOverride;
        }
        else
        {
            const double bytesPerPs = static_cast<double>(ports[p].rateBps) / 8e12;
            const double roundTrip = 2.0 * ports[p].delay.GetPicoSeconds() * bytesPerPs;
            const double response =
                (m_responseTime + ports[p].pipelines).GetPicoSeconds() * bytesPerPs;
            m_headroom[p] = static_cast<uint64_t>(roundTrip + response) + 2ULL * maxFrameBytes;
        }
        m_reserve[p] = m_reservedBytes;
        const auto lossless = static_cast<uint64_t>(__builtin_popcount(m_lossless[p]));
        carved += m_reserve[p] * kNumPriorities;
        // With a shared pool the headroom is carved once, below, not per queue.
        carved += m_headroomPool > 0 ? 0 : m_headroom[p] * lossless;
    }
    carved += m_headroomPool;
    if (m_headroomPool > 0 && m_headroomPool < maxFrameBytes)
    {
        throw InputError("switch headroom pool of " + std::to_string(m_headroomPool) +
                         " B (ns3::SharedBufferMmu::HeadroomPoolBytes) does not hold one " +
                         std::to_string(maxFrameBytes) + " B frame");
    }
    if (carved >= m_bufferBytes)
    {
        throw InputError("switch buffer of " + std::to_string(m_bufferBytes) +
                         " B does not hold its reserved, PFC headroom and credit bytes (" +
                         std::to_string(carved) + " B)");
    }
    m_carved = carved;
    m_sharedPool = m_bufferBytes - carved;
}

bool
SharedBufferMmu::IsLossless(uint32_t port, uint8_t priority) const
{
    return ((m_lossless.at(port) >> priority) & 1u) != 0;
}

uint8_t
SharedBufferMmu::GetLosslessPriorities(uint32_t port) const
{
    return m_lossless.at(port);
}

uint64_t
SharedBufferMmu::GetCarvedBytes() const
{
    return m_carved;
}

uint64_t
SharedBufferMmu::Threshold() const
{
    return static_cast<uint64_t>(m_alpha * static_cast<double>(m_sharedPool - m_sharedUsed));
}

bool
SharedBufferMmu::SharedAdmits(const Ingress& in, uint32_t bytes) const
{
    return in.shared + bytes <= Threshold() && m_sharedUsed + bytes <= m_sharedPool;
}

bool
SharedBufferMmu::EgressAdmits(const Egress& queue, uint32_t bytes) const
{
    if (m_egressAlpha == 0)
    {
        return true;
    }
    const auto free = static_cast<double>(m_sharedPool - m_sharedUsed);
    return static_cast<double>(queue.bytes + bytes) <= m_egressAlpha * free;
}

bool
SharedBufferMmu::HeadroomAdmits(uint32_t port, const Ingress& in, uint32_t bytes) const
{
    return in.headroom + bytes <= m_headroom[port] &&
           (m_headroomPool == 0 || m_headroomUsed + bytes <= m_headroomPool);
}

SharedBufferMmu::Verdict
SharedBufferMmu::Admit(uint32_t port, uint32_t egress, uint8_t priority, uint32_t bytes)
{
    Ingress& in = m_in[port][priority];
    Egress& out = m_out[egress][priority];
    if (m_credit[port] > 0)
    {
        NS_ABORT_MSG_IF(in.credit + bytes > m_credit[port],
                        "port " << port << " priority " << unsigned(priority)
                                << ": more bytes than its credits grant");
        in.credit += bytes;
        m_used += bytes;
        m_peak = std::max(m_peak, m_used);
        return ADMITTED;
    }
    const bool lossless = IsLossless(port, priority);
    if (in.reserved + bytes <= m_reserve[port])
    {
        in.reserved += bytes;
    }
    else if (in.headroom == 0 && SharedAdmits(in, bytes) && (lossless || EgressAdmits(out, bytes)))
    {
        in.shared += bytes;
        m_sharedUsed += bytes;
    }
    else if (lossless && HeadroomAdmits(port, in, bytes))
    {
        in.headroom += bytes;
        m_headroomUsed += bytes;
        m_headroomPeak = std::max(m_headroomPeak, m_headroomUsed);
    }
    else
    {
        const bool byEgress = !lossless && SharedAdmits(in, bytes);
        m_egressDrops += byEgress ? 1 : 0;
        ++m_drops;
        return DROP;
    }
    out.bytes += bytes;
    out.peak = std::max(out.peak, out.bytes);
    m_used += bytes;
    m_peak = std::max(m_peak, m_used);
    return ADMITTED;
}

void
SharedBufferMmu::Release(uint32_t port, uint32_t egress, uint8_t priority, uint32_t bytes)
{
    Ingress& in = m_in[port][priority];
    if (m_credit[port] > 0)
    {
        NS_ABORT_MSG_IF(bytes > in.credit, "credit accounting underflow on port " << port);
        in.credit -= bytes;
        m_used -= bytes;
        return;
    }
    Egress& out = m_out[egress][priority];
    NS_ABORT_MSG_IF(bytes > out.bytes, "egress accounting underflow on port " << egress);
    out.bytes -= bytes;
    uint64_t left = bytes;
    const uint64_t fromHeadroom = std::min(left, in.headroom);
    in.headroom -= fromHeadroom;
    m_headroomUsed -= fromHeadroom;
    left -= fromHeadroom;
    const uint64_t fromShared = std::min(left, in.shared);
    in.shared -= fromShared;
    m_sharedUsed -= fromShared;
    left -= fromShared;
    NS_ABORT_MSG_IF(left > in.reserved, "buffer accounting underflow on port " << port);
    in.reserved -= left;
    m_used -= bytes;
}

bool
SharedBufferMmu::Stage(uint32_t port, uint32_t egress, uint8_t priority, uint32_t bytes)
{
    Ingress& in = m_in[port][priority];
    NS_ABORT_MSG_IF(m_credit[port] == 0, "port " << port << " stages but has no credits");
    NS_ABORT_MSG_IF(bytes > in.credit, "credit accounting underflow on port " << port);
    if (!SharedAdmits(in, bytes))
    {
        return false;
    }
    in.credit -= bytes;
    in.shared += bytes;
    m_sharedUsed += bytes;
    Egress& out = m_out[egress][priority];
    out.bytes += bytes;
    out.peak = std::max(out.peak, out.bytes);
    return true;
}

void
SharedBufferMmu::ReleaseStaged(uint32_t port, uint32_t egress, uint8_t priority, uint32_t bytes)
{
    Ingress& in = m_in[port][priority];
    Egress& out = m_out[egress][priority];
    NS_ABORT_MSG_IF(bytes > in.shared || bytes > out.bytes,
                    "staged accounting underflow on port " << port);
    in.shared -= bytes;
    m_sharedUsed -= bytes;
    out.bytes -= bytes;
    m_used -= bytes;
}

bool
SharedBufferMmu::ShouldPause(uint32_t port, uint8_t priority) const
{
    if (!IsLossless(port, priority))
    {
        return false;
    }
    const Ingress& in = m_in[port][priority];
    return in.headroom > 0 || in.shared >= Threshold();
}

bool
SharedBufferMmu::ShouldResume(uint32_t port, uint8_t priority) const
{
    const Ingress& in = m_in[port][priority];
    // A queue that holds no shared bytes any more resumes even when the threshold has
    // fallen below the offset: nothing it could still release would ever resume it.
    return in.headroom == 0 && (in.shared == 0 || in.shared + m_resumeOffset <= Threshold());
}

uint64_t
SharedBufferMmu::GetUsedBytes() const
{
    return m_used;
}

uint64_t
SharedBufferMmu::GetPeakUsedBytes() const
{
    return m_peak;
}

uint64_t
SharedBufferMmu::GetBufferBytes() const
{
    return m_bufferBytes;
}

uint64_t
SharedBufferMmu::GetSharedPoolBytes() const
{
    return m_sharedPool;
}

uint64_t
SharedBufferMmu::GetHeadroomBytes(uint32_t port) const
{
    return m_headroom.at(port);
}

uint64_t
SharedBufferMmu::GetDrops() const
{
    return m_drops;
}

uint64_t
SharedBufferMmu::GetEgressDrops() const
{
    return m_egressDrops;
}

uint64_t
SharedBufferMmu::GetEgressBytes(uint32_t egress, uint8_t priority) const
{
    return m_out.at(egress).at(priority).bytes;
}

uint64_t
SharedBufferMmu::GetPeakEgressBytes(uint32_t egress, uint8_t priority) const
{
    return m_out.at(egress).at(priority).peak;
}

double
SharedBufferMmu::GetLossyEgressAlpha() const
{
    return m_egressAlpha;
}

uint64_t
SharedBufferMmu::GetQueueHeadroomSumBytes() const
{
    uint64_t sum = 0;
    for (size_t p = 0; p < m_headroom.size(); ++p)
    {
        sum += m_headroom[p] * static_cast<uint64_t>(__builtin_popcount(m_lossless[p]));
    }
    return sum;
}

uint64_t
SharedBufferMmu::GetHeadroomPoolBytes() const
{
    return m_headroomPool;
}

uint64_t
SharedBufferMmu::GetHeadroomUsedBytes() const
{
    return m_headroomUsed;
}

uint64_t
SharedBufferMmu::GetPeakHeadroomUsedBytes() const
{
    return m_headroomPeak;
}

} // namespace ns3
