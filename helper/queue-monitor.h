/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_QUEUE_MONITOR_H
#define MLFABRIC_QUEUE_MONITOR_H

#include "ns3/nstime.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class RoceNetwork;

/**
 * \ingroup mlfabric-helper
 * Peak and time-weighted mean of every switch egress queue, from the switches'
 * QueueLength trace.
 *
 * A queue's mean is the integral of its length from time 0 to now, divided by now; the
 * length is a step function that changes at each enqueue and dequeue, so the integral
 * is exact. Read the figures when the interval of interest ends, e.g. from the trace
 * of the last message's completion.
 */
class QueueMonitor
{
  public:
    /** One egress queue's figures. */
    struct PortQueue
    {
        uint32_t node{0};      //!< switch node id
        uint32_t port{0};      //!< egress port index at the switch
        uint64_t peakBytes{0}; //!< longest queue seen, bytes
        double meanBytes{0};   //!< time-weighted mean from 0 to now, bytes
    };

    /**
     * Watch every egress port of every switch of a network. The monitor must outlive
     * the simulation run.
     * \param net a network whose links are all added
     */
    explicit QueueMonitor(const RoceNetwork& net);

    QueueMonitor(const QueueMonitor&) = delete;
    QueueMonitor& operator=(const QueueMonitor&) = delete;

    /** \return the figures, up to now, of every port that ever queued a byte */
    std::vector<PortQueue> GetPorts() const;

    /**
     * \param until the end of the span, no earlier than any port's last change
     *        (LastChange)
     * \return the figures, up to \p until, of every port that ever queued a byte
     */
    std::vector<PortQueue> GetPorts(Time until) const;

    /**
     * \return the figures, up to now, of the port with the largest mean queue (ties: the
     *         larger peak); all zero if no port ever queued a byte
     */
    PortQueue GetBottleneck() const;

    /**
     * \param ports figures of ports, in switch and port order
     * \return the one with the largest mean queue (ties: the larger peak, then the first)
     */
    static PortQueue FindBottleneck(const std::vector<PortQueue>& ports);

    /** \return the last time a watched queue changed length */
    Time LastChange() const;

  private:
    /** Running state of one egress queue. */
    struct Track
    {
        uint64_t bytes{0};          //!< current length
        Time since;                 //!< when it took that length
        long double byteSeconds{0}; //!< integral of the length up to since
        uint64_t peakBytes{0};      //!< longest so far
    };

    /**
     * A queue changed length.
     * \param sw index of the switch in m_nodes
     * \param port egress port
     * \param bytes its new length
     */
    void Update(uint32_t sw, uint32_t port, uint64_t bytes);

    std::vector<uint32_t> m_nodes;            //!< switch node ids
    std::vector<std::vector<Track>> m_tracks; //!< per switch, per port
};

} // namespace ns3

#endif /* MLFABRIC_QUEUE_MONITOR_H */
