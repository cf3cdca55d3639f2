/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_CC_HPCC_PINT_H
#define MLFABRIC_CC_HPCC_PINT_H

#include "ns3/cc-hpcc.h"
#include "ns3/random-variable-stream.h"

namespace ns3
{

/**
 * \ingroup mlfabric-cc
 * HPCC-PINT: HPCC driven by one number per packet instead of per-hop INT records
 * (Ben Basat et al., "PINT: Probabilistic In-band Network Telemetry", SIGCOMM 2020,
 * applied to HPCC; the HPCC simulator's CC_MODE 10).
 *
 * Each egress port keeps its utilisation as an EWMA over the period T (PintUtilization)
 * and a data packet carries the largest code of it along its path (PintCode: a
 * logarithmic code of base LogBase, 1 or 2 bytes). The sender takes an ACK's decoded
 * value as U with probability SampleProbability, and then runs HPCC's window law
 * unchanged: W = Wc / (U/eta) + W_AI at or above eta or after MaxStage additive steps,
 * else Wc + W_AI, the reference Wc moving once per RTT. The switches' EWMA replaces the
 * sender's, so U is not smoothed again here. The first ACK only marks the first RTT.
 *
 * The HPCC simulator computes the switch EWMA with integer log2 approximations (the
 * operations a switch pipeline has); this model computes it in floating point, so its
 * only telemetry error is the code's.
 */
class CcHpccPint : public CcHpcc
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /** Create it with its ACK-sampling stream. */
    CcHpccPint();

    std::string GetName() const override;
    void Init(CcQueuePairView* qp) override;
    bool NeedsInt() const override;
    PintSettings GetPintSettings() const override;

    /**
     * Set the stream of the sampling draws.
     * \param stream the first stream index
     * \return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    bool MeasureUtilization(const AckSample& ack) override;

  private:
    double m_logBase;                      //!< the code's log base
    double m_sampleProbability;            //!< share of ACKs whose value is used
    Time m_period;                         //!< T of the switches' EWMA; zero: the base RTT
    Time m_effectivePeriod;                //!< the T data packets carry
    Ptr<UniformRandomVariable> m_sampling; //!< the ACK-sampling draws
};

} // namespace ns3

#endif /* MLFABRIC_CC_HPCC_PINT_H */
