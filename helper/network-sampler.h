/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_NETWORK_SAMPLER_H
#define MLFABRIC_NETWORK_SAMPLER_H

#include "ns3/nstime.h"
#include "ns3/roce-network.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Samples every switch of a packet-level network at a fixed period: its queued bytes,
 * its longest egress queue, and the PFC pause frames its ports have sent so far.
 *
 * The samples are time series for plots (queue length over time, pauses per switch).
 * Sampling stops when the rest of the simulation has no events left, so it never keeps
 * a finished run alive.
 */
class NetworkSampler
{
  public:
    /** One switch at one instant. */
    struct Sample
    {
        Time time;                //!< when
        uint32_t node{0};         //!< switch node id
        uint64_t queuedBytes{0};  //!< bytes in all its egress queues
        uint64_t longestQueue{0}; //!< bytes in its longest egress queue
        uint64_t pauseFrames{0};  //!< pause frames its ports have sent so far
    };

    /**
     * \param net the network; it must outlive the sampler's events
     * \param period time between samples
     */
    NetworkSampler(const RoceNetwork& net, Time period);

    /** Take the first sample now and keep sampling. */
    void Start();
    /** \return the samples, in time order */
    const std::vector<Sample>& GetSamples() const;
    /**
     * Write the samples as CSV
     * (time_ns,switch,queued_bytes,longest_queue_bytes,pause_frames,name,role: the switch's
     * fabric node id, name and role).
     * \param path the CSV file to write
     * \throws InputError naming the file when it cannot be written
     */
    void WriteCsv(const std::string& path) const;

  private:
    /** Sample every switch, then reschedule. */
    void Tick();

    const RoceNetwork& m_net;
    Time m_period;
    std::vector<Sample> m_samples;
};

} // namespace ns3

#endif /* MLFABRIC_NETWORK_SAMPLER_H */
