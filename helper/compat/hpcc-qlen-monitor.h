/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_HPCC_QLEN_MONITOR_H
#define MLFABRIC_HPCC_QLEN_MONITOR_H

#include "ns3/hpcc-output-format.h"
#include "ns3/nstime.h"
#include "ns3/roce-network.h"

#include <cstdint>
#include <fstream>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * The HPCC simulator's queue-length monitor (qlen.txt).
 *
 * Every 100 ns from the window's start until a sample at or after its end, each switch
 * port's egress bytes (all priorities) are added to that port's histogram of 1000-byte
 * bins. The cumulative histograms are written as a block, "time: <ns>" and one
 * "<switch> <port> <counts...>" line per port (ports numbered from 1), whenever a
 * sample falls on a multiple of 100 ms, as the simulator does, and after the last
 * sample if that is not such a multiple (the simulator would leave those samples out).
 *
 * In a run across processes each process watches the switches it simulates and keeps
 * its blocks; the blocks of all processes are joined (Merge) and written by the first.
 */
class HpccQlenMonitor
{
  public:
    /** Sampling period (the simulator's qlen_mon_interval). */
    static constexpr int64_t kSampleNs = 100;
    /** Dump period (the simulator's qlen_dump_interval). */
    static constexpr int64_t kDumpNs = 100'000'000;

    /** One line of a block: a port's histogram. */
    struct Line
    {
        uint32_t node{0};    //!< the switch
        uint32_t ifIndex{0}; //!< its port, from 1
        std::string text;    //!< the line
    };

    /** A block: the histograms at a time. */
    struct Dump
    {
        uint64_t timeNs{0};      //!< when
        std::vector<Line> lines; //!< by switch, then port
    };

    /**
     * Open the output and schedule the first sample.
     * \param net a built network; it must outlive the monitor
     * \param startNs first sample, ns
     * \param endNs the last sample is the first at or after this, ns
     * \param path the output file; empty: keep the blocks (GetDumps) instead
     * \param done called after the last sample
     * \throws InputError naming the file if it cannot be written
     */
    HpccQlenMonitor(const RoceNetwork& net,
                    uint64_t startNs,
                    uint64_t endNs,
                    const std::string& path,
                    std::function<void()> done);

    HpccQlenMonitor(const HpccQlenMonitor&) = delete;
    HpccQlenMonitor& operator=(const HpccQlenMonitor&) = delete;

    /** \return true once the last sample is taken */
    bool IsDone() const;
    /** \return samples taken */
    uint64_t GetSamples() const;
    /** \return the blocks kept, without an output file */
    const std::vector<Dump>& GetDumps() const;

    /**
     * Join the blocks that processes kept of their own switches.
     * \param parts each process's GetDumps(), which were taken at the same times
     * \return the blocks one process watching every switch would have written
     */
    static std::vector<Dump> Merge(const std::vector<std::vector<Dump>>& parts);

    /**
     * Write \p dumps as qlen.txt.
     * \param path the file
     * \param dumps the blocks
     * \throws InputError naming the file if it cannot be written
     */
    static void Write(const std::string& path, const std::vector<Dump>& dumps);

  private:
    /** One watched switch port. */
    struct Port
    {
        uint32_t node{0};         //!< switch node id
        uint32_t index{0};        //!< port index at the switch
        Ptr<RoceSwitch> sw;       //!< the switch
        HpccQlenHistogram counts; //!< samples so far
    };

    /** Take a sample and schedule the next one. */
    void Sample();
    /** Write \p dump to \p out. */
    static void Write(std::ostream& out, const Dump& dump);
    /** Write or keep the histograms as a block at \p nowNs. */
    void TakeDump(uint64_t nowNs);

    std::vector<Port> m_ports;
    uint64_t m_endNs;
    std::string m_path;
    std::ofstream m_out;
    std::vector<Dump> m_dumps; //!< without an output file
    std::function<void()> m_done;
    uint64_t m_samples{0};
    bool m_isDone{false};
};

} // namespace ns3

#endif /* MLFABRIC_HPCC_QLEN_MONITOR_H */
