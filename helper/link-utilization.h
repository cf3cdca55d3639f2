/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_LINK_UTILIZATION_H
#define MLFABRIC_LINK_UTILIZATION_H

#include "ns3/link-names.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/roce-network.h"
#include "ns3/simulator.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * The utilization of one direction of a link over a run.
 *
 * Utilization is wire bytes (frames with their Ethernet, IP, UDP, RoCE overhead,
 * preamble and gap; PFC frames included) × 8 / (line rate × time). A frame counts in
 * the window in which its transmission starts, so one window may hold up to one frame
 * more than it serialized (at 200 Gb/s a 4 KiB frame is 0.17 us, 0.17 % of a 100 us
 * window); the mean over the run is exact. The part of the run after the last full
 * window joins that window, so that every window is at least the period long and the
 * mean is the windows' time-weighted mean.
 */
struct LinkUtilization
{
    uint32_t link{0};           //!< fabric link id
    LinkDirectionName name;     //!< the ends, by role
    uint64_t rateBps{0};        //!< line rate of the direction
    uint64_t wireBytes{0};      //!< wire bytes sent over the run
    double mean{0};             //!< over the whole run
    double peak{0};             //!< highest window; never below the mean
    std::vector<float> windows; //!< per window, when kept

    /** \return name, roles, rate, bytes, mean and peak as JSON (not the windows) */
    nlohmann::json ToJson() const;
};

/**
 * \ingroup mlfabric-helper
 * What a packet-level run measures of its links.
 */
struct LinkWatchSettings
{
    Time period{MicroSeconds(100)}; //!< the utilization window
    uint32_t busiest{5};            //!< links in the report's busiest-links table
    std::string path;               //!< every direction's windows as JSON, if set
    uint32_t timelineLinks{0};      //!< busiest links kept with windows for the timeline
};

/**
 * \ingroup mlfabric-helper
 * Samples the bytes every direction of every fabric link has sent, at a fixed period,
 * and turns them into utilization per window, its mean and its peak.
 *
 * Reading counters changes nothing in the network. Sampling stops when the run's work is
 * done or the rest of the simulation has no events left, so it never keeps a finished
 * run alive.
 */
class LinkUtilizationSampler
{
  public:
    /**
     * \param net the network; it must outlive the sampler's events
     * \param period the window
     * \param keepWindows keep every window's value (for time series), not only the peak
     */
    LinkUtilizationSampler(const RoceNetwork& net, Time period, bool keepWindows);

    /**
     * Start the first window now.
     * \param finished true once the run's work is done: sampling stops then, or when
     *        nothing else is left to simulate
     * \param drains the simulation goes on after the work is done (across processes): a
     *        window that closes after it records nothing, as a run stopped at the end
     *        of the work does not reach it
     */
    void Start(std::function<bool()> finished, bool drains = false);
    /**
     * End the run: the mean covers the time from Start() to \p end, and the time from
     * the last full window to \p end joins that window.
     * \param end the end of the run, no earlier than the last window (a run across
     *        processes ends it where the last process stopped)
     * \return every direction of every link, in link order, A to B first
     */
    std::vector<LinkUtilization> Finish(Time end = Simulator::Now());
    /** \return the window */
    Time GetPeriod() const;

  private:
    /** Close a window on every direction, then reschedule. */
    void Tick();

    /** One direction being sampled. */
    struct Direction
    {
        Ptr<RocePort> port;          //!< its transmitting port
        LinkUtilization figures;     //!< what it has shown so far
        uint64_t lastBytes{0};       //!< the port's wire bytes at the last window's end
        uint64_t startBytes{0};      //!< the port's wire bytes at Start()
        uint64_t lastWindowBytes{0}; //!< wire bytes of the last full window
        double lastShare{0};         //!< utilization of the last full window
    };

    Time m_period;                       //!< the window
    bool m_keepWindows;                  //!< keep every window's value
    std::function<bool()> m_finished;    //!< true once the run's work is done
    bool m_drains{false};                //!< the simulation outlasts the work
    uint64_t m_ticks{0};                 //!< full windows so far
    Time m_lastTick;                     //!< end of the last full window
    Time m_start;                        //!< when sampling started
    std::vector<Direction> m_directions; //!< every direction of every link
};

/**
 * \ingroup mlfabric-helper
 * \param links utilizations
 * \param count how many to keep
 * \return the \p count busiest: by mean, then by peak, then by name (a stable order)
 */
std::vector<LinkUtilization> BusiestLinks(const std::vector<LinkUtilization>& links, size_t count);

/**
 * \ingroup mlfabric-helper
 * Write every direction's windows as JSON: {"window_ns", "links": [{name, from, to,
 * from_role, to_role, roles, rate_bps, wire_bytes, mean, peak, windows}]}.
 * \param path the file
 * \param links utilizations with their windows
 * \param period the window
 * \throws InputError naming the file when it cannot be written
 */
void WriteLinkUtilization(const std::string& path,
                          const std::vector<LinkUtilization>& links,
                          Time period);

} // namespace ns3

#endif /* MLFABRIC_LINK_UTILIZATION_H */
