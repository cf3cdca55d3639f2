/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pint-telemetry.h"

#include "ns3/abort.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

PintCode::PintCode(double logBase)
    : m_logBase(logBase)
{
    NS_ABORT_MSG_IF(!(logBase > 1), "PINT log base must exceed 1, not " << logBase);
}

double
PintCode::GetLogBase() const
{
    return m_logBase;
}

uint16_t
PintCode::Encode(double u, double uniform) const
{
    const double scaled = std::ceil(std::max(u, 0.0) * kMaxConcurrent);
    const double x = std::max(scaled, 1.0);
    const double exponent = std::log(x) / std::log(m_logBase);
    const double lowPower = std::floor(exponent);
    const double low = std::pow(m_logBase, lowPower);
    const double high = low * m_logBase;
    const double roundUp = (x - low) / (high - low);
    const double power = uniform < roundUp ? lowPower + 1 : lowPower;
    return static_cast<uint16_t>(std::min(power, 65535.0));
}

double
PintCode::Decode(uint16_t power) const
{
    return std::pow(m_logBase, power) / kMaxConcurrent;
}

uint32_t
PintCode::GetBits() const
{
    // The largest exponent is that of u = 512 (x = 512^2).
    const double maxPower = std::log(double(kMaxConcurrent) * kMaxConcurrent) / std::log(m_logBase);
    return static_cast<uint32_t>(std::ceil(std::log2(maxPower)));
}

uint32_t
PintCode::GetBytes() const
{
    return (GetBits() + 7) / 8;
}

double
PintUtilization::Update(
    Time now, uint64_t txBytes, uint64_t qlenBytes, uint64_t rateBps, Time period)
{
    if (!m_started || !period.IsStrictlyPositive() || rateBps == 0)
    {
        m_started = true;
        m_last = now;
        m_txBytes = txBytes;
        return m_u;
    }
    if (now == m_last)
    {
        return m_u; // the bytes count at the next departure
    }
    const double t = period.GetSeconds();
    const double dt = std::min(now - m_last, period).GetSeconds();
    const double bytesPerSecond = rateBps / 8.0;
    const double sent = txBytes > m_txBytes ? static_cast<double>(txBytes - m_txBytes) : 0;
    const double queueTerm = (dt / t) * qlenBytes / (bytesPerSecond * t);
    // dt/T x bytes/(B dt) = bytes/(B T) while dt < T; over a longer gap the rate term
    // is the gap's average rate.
    const double elapsed = (now - m_last).GetSeconds();
    const double byteTerm = (dt / t) * sent / (bytesPerSecond * elapsed);
    m_u = (1 - dt / t) * m_u + queueTerm + byteTerm;
    m_last = now;
    m_txBytes = txBytes;
    return m_u;
}

double
PintUtilization::Get() const
{
    return m_u;
}

} // namespace ns3
