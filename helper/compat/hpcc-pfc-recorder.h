/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_HPCC_PFC_RECORDER_H
#define MLFABRIC_HPCC_PFC_RECORDER_H

#include "ns3/nstime.h"
#include "ns3/roce-network.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Records when each port of a network is paused and resumed by its peer, for the HPCC
 * simulator's pfc.txt.
 *
 * A pause is recorded at the port that obeys it (the simulator logs at the receiving
 * device): its start and its end, whether it ended by a resume frame or, with pause
 * quanta that expire, by itself; refreshes of a pause in progress are part of it. A
 * pause still in effect is reported by its start only.
 */
class HpccPfcRecorder
{
  public:
    /** One line of pfc.txt. */
    struct Event
    {
        Time time;            //!< when the pause started or ended
        uint32_t node{0};     //!< node id
        bool isSwitch{false}; //!< switch (1) or host (0)
        uint32_t ifIndex{0};  //!< port number from 1, as the simulator counts devices
        bool pause{false};    //!< pause (1) or resume (0)
    };

    /**
     * Watch every port of every node. The recorder must outlive the simulation run.
     * \param net a network whose links are all added
     */
    explicit HpccPfcRecorder(const RoceNetwork& net);

    HpccPfcRecorder(const HpccPfcRecorder&) = delete;
    HpccPfcRecorder& operator=(const HpccPfcRecorder&) = delete;

    /**
     * \param until the end of the run: a pause that starts later is left out, one that
     *        ends later is still in progress; at most the current time
     * \return every start and end before \p until, in time order (node, port, then
     *         ends before starts, at the same time)
     */
    std::vector<Event> GetEvents(Time until) const;

    /**
     * \param events pfc.txt lines
     * \return the number of pauses that started
     */
    static uint64_t CountPauses(const std::vector<Event>& events);

    /**
     * Write \p events as pfc.txt lines.
     * \param path the file
     * \param events the lines
     * \throws InputError naming the file if it cannot be written
     */
    static void Write(const std::string& path, const std::vector<Event>& events);

    /**
     * Put \p events in the order GetEvents gives, e.g. after those of several processes
     * were joined.
     * \param events the lines
     */
    static void Sort(std::vector<Event>& events);

  private:
    /** A watched port. */
    struct Port
    {
        Ptr<RocePort> port;                        //!< the port
        uint32_t node{0};                          //!< its node
        bool isSwitch{false};                      //!< its node is a switch
        uint32_t index{0};                         //!< its index at the node
        std::array<Time, kNumPriorities> closed{}; //!< paused time of ended pauses
    };

    /** Port \p port's pause of \p priority ended after \p duration. */
    void PauseEnded(uint32_t port, uint8_t priority, Time duration);

    std::vector<Port> m_ports;
    std::vector<Event> m_events; //!< ended pauses, as start and end
};

} // namespace ns3

#endif /* MLFABRIC_HPCC_PFC_RECORDER_H */
