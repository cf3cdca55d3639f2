/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_PINT_TELEMETRY_H
#define MLFABRIC_PINT_TELEMETRY_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-link
 * The logarithmic code HPCC-PINT carries for a utilisation (Ben Basat et al., "PINT:
 * Probabilistic In-band Network Telemetry", SIGCOMM 2020, as the HPCC simulator
 * implements it).
 *
 * A utilisation u is scaled to the integer x = max(1, ceil(512 u)) (512: the most
 * concurrent flows the code resolves) and sent as an exponent p of the log base b.
 * With l = floor(log_b x) the exponent is l + 1 with probability
 * (x - b^l) / (b^(l+1) - b^l), else l: randomised rounding, so the decoded b^p / 512
 * is unbiased for x / 512 and within a factor b of it (relative error at most b - 1).
 */
class PintCode
{
  public:
    /** The scale of the integer code: the number of concurrent flows resolved. */
    static constexpr uint32_t kMaxConcurrent = 512;

    /** \param logBase the log base b, > 1 */
    explicit PintCode(double logBase);

    /** \return the log base b */
    double GetLogBase() const;

    /**
     * \param u a utilisation, >= 0
     * \param uniform a number uniform in [0, 1): the randomised rounding's draw
     * \return the exponent carried
     */
    uint16_t Encode(double u, double uniform) const;

    /**
     * \param power an exponent from Encode
     * \return the utilisation it stands for
     */
    double Decode(uint16_t power) const;

    /** \return bits that hold every exponent of a utilisation up to 512 */
    uint32_t GetBits() const;

    /** \return whole bytes that hold GetBits() bits (the HPCC simulator's field size) */
    uint32_t GetBytes() const;

  private:
    double m_logBase; //!< b
};

/**
 * \ingroup mlfabric-link
 * An egress port's utilisation, as HPCC-PINT's switches keep it: on every departure of
 * a stamped packet, with dt the time since the previous one (at most T) and the port's
 * line rate B,
 *   u <- (1 - dt/T) u + (dt/T) (qlen / (B T) + bytes / (B dt)),
 * where bytes are those the port sent since the previous update and qlen the bytes it
 * holds. This is HPCC's per-hop u folded into an EWMA over T in the switch, so that a
 * packet need carry one number instead of per-hop records.
 */
class PintUtilization
{
  public:
    /**
     * Fold one departure into the estimate.
     * \param now the departure time
     * \param txBytes the port's cumulative transmitted bytes
     * \param qlenBytes the bytes queued at the port
     * \param rateBps the port's line rate, bit/s
     * \param period T, the EWMA period
     * \return the updated utilisation
     */
    double Update(Time now, uint64_t txBytes, uint64_t qlenBytes, uint64_t rateBps, Time period);

    /** \return the current utilisation */
    double Get() const;

  private:
    double m_u{0};         //!< the estimate
    Time m_last;           //!< time of the previous update
    uint64_t m_txBytes{0}; //!< the port's transmitted bytes at the previous update
    bool m_started{false}; //!< false until the first update
};

} // namespace ns3

#endif /* MLFABRIC_PINT_TELEMETRY_H */
