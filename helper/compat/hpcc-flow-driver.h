/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_HPCC_FLOW_DRIVER_H
#define MLFABRIC_HPCC_FLOW_DRIVER_H

#include "ns3/hpcc-flow-file.h"
#include "ns3/nstime.h"
#include "ns3/roce-network.h"

#include <cstdint>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Runs the flows of an HPCC flow file and writes fct.txt.
 *
 * Each flow starts at its time as a message on a queue pair of its own, as the
 * simulator's RdmaClient does: its congestion control starts fresh, its source port is
 * the next of its host (from 10000). When its last byte is acknowledged its congestion
 * control is stopped (the simulator cancels its timers at completion). fct.txt gets one
 * line per completed flow, in order of completion (flows that complete at the same
 * picosecond in flow-file order).
 *
 * In a run across processes each process opens every flow's queue pair and sends the
 * flows whose source it simulates; their outcomes are brought together before fct.txt
 * is written.
 */
class HpccFlowDriver
{
  public:
    /** What a flow needs beyond its line of the file. */
    struct Setup
    {
        Time baseRtt;             //!< handed to congestion control
        uint32_t switchHops{0};   //!< switches on the route
        uint64_t windowBytes{0};  //!< CcPeerWindow's base window; 0: the scheme's own
        uint64_t standaloneNs{0}; //!< completion time alone in the network
    };

    /** What happened to a flow. */
    struct Outcome
    {
        uint16_t sport{0};     //!< its source port
        bool started{false};   //!< its start time has come
        bool completed{false}; //!< its last byte was acknowledged
        Time fct;              //!< start to last acknowledgement
        Time received;         //!< start to last byte at the receiver
    };

    /**
     * \param net a built network; it must outlive the driver
     * \param flows the flows
     * \param setups one per flow
     * \param fctPath fct.txt to write; empty: none (a process other than the first)
     * \param allDone called when the last flow this process starts completes
     * \throws InputError naming the file if it cannot be written
     */
    HpccFlowDriver(RoceNetwork& net,
                   std::vector<HpccFlow> flows,
                   std::vector<Setup> setups,
                   const std::string& fctPath,
                   std::function<void()> allDone);

    HpccFlowDriver(const HpccFlowDriver&) = delete;
    HpccFlowDriver& operator=(const HpccFlowDriver&) = delete;

    /** Schedule the flows' starts; call before Simulator::Run. */
    void Start();

    /**
     * Write fct.txt.
     * \param outcomes one per flow: GetOutcomes(), or those of every process
     * \throws InputError naming the file on a write error
     */
    void Finish(const std::vector<Outcome>& outcomes);

    /** \return the flows */
    const std::vector<HpccFlow>& GetFlows() const;
    /** \return the setups */
    const std::vector<Setup>& GetSetups() const;
    /** \return one outcome per flow */
    const std::vector<Outcome>& GetOutcomes() const;
    /** \return flows this process starts: those whose source it simulates */
    uint32_t GetLocalFlows() const;
    /** \return flows started */
    uint32_t GetStarted() const;
    /** \return flows of this process completed */
    uint32_t GetCompleted() const;

  private:
    /** Schedule the start of the next flow in start order, if any. */
    void ScheduleNextStart();
    /** Open flow \p i's queue pair and post its message. */
    void StartFlow(uint32_t i);
    /** MessageSent trace: a flow's last byte was acknowledged. */
    void Sent(Ptr<RdmaQueuePair> qp, uint64_t id, uint64_t tag, uint64_t bytes, Time posted);
    /** MessageReceived trace: a flow's last byte arrived. */
    void Received(uint32_t srcNode, uint32_t srcQpn, uint64_t tag, uint64_t bytes);

    RoceNetwork& m_net;
    std::vector<HpccFlow> m_flows;
    std::vector<Setup> m_setups;
    std::vector<Outcome> m_outcomes;
    std::vector<uint32_t> m_order;    //!< flow indices in start order
    std::vector<uint16_t> m_nextPort; //!< per node: the next source port
    std::string m_fctPath;
    std::ofstream m_fct;
    std::function<void()> m_allDone;
    uint32_t m_localFlows{0}; //!< flows whose source this process simulates
    uint32_t m_started{0};
    uint32_t m_completed{0};
};

} // namespace ns3

#endif /* MLFABRIC_HPCC_FLOW_DRIVER_H */
