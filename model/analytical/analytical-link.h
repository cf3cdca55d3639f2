/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ANALYTICAL_LINK_H
#define MLFABRIC_ANALYTICAL_LINK_H

#include <cstdint>
#include <deque>

namespace ns3
{

/**
 * \ingroup mlfabric-analytical
 * One unidirectional link of the congestion-aware network: store-and-forward, one whole
 * message at a time, the others waiting in FIFO order.
 *
 * A message occupies the link for bytes / bandwidth and reaches the far end after
 * latency + bytes / bandwidth, both truncated to whole ns (ASTRA-sim's Link).
 */
class AnalyticalLink
{
  public:
    /**
     * \param bytesPerNs bandwidth
     * \param latencyNs latency
     */
    AnalyticalLink(double bytesPerNs, double latencyNs);

    /** \param bytes message size \return time the link is busy with it, ns */
    uint64_t SerializationNs(uint64_t bytes) const;

    /** \param bytes message size \return time until it reaches the far end, ns */
    uint64_t DeliveryNs(uint64_t bytes) const;

    /** \return true while a message is being put on the wire */
    bool
    IsBusy() const
    {
        return m_busy;
    }

    /** \param busy the new state */
    void
    SetBusy(bool busy)
    {
        m_busy = busy;
    }

    /** \return messages waiting, by flight id, oldest first */
    std::deque<uint64_t>&
    Waiting()
    {
        return m_waiting;
    }

  private:
    double m_bytesPerNs;            //!< bandwidth
    double m_latencyNs;             //!< latency
    bool m_busy{false};             //!< serializing a message
    std::deque<uint64_t> m_waiting; //!< flights waiting for the link
};

} // namespace ns3

#endif /* MLFABRIC_ANALYTICAL_LINK_H */
