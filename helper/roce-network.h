/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ROCE_NETWORK_H
#define MLFABRIC_ROCE_NETWORK_H

#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/rdma-nic.h"
#include "ns3/roce-switch.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Builds a packet-level RoCE network: hosts with RDMA NICs, switches, cables, routes.
 *
 * Node ids are ns-3 node ids and double as RoCE addresses. Routes default to all
 * shortest paths (ECMP) computed over the cables, with hosts as endpoints only;
 * SetRoute() installs routes computed elsewhere (a fabric's routing) instead.
 */
class RoceNetwork
{
  public:
    RoceNetwork() = default;

    /** \return the node id of a new host with an RdmaNic */
    uint32_t AddHost();
    /** \return the node id of a new switch */
    uint32_t AddSwitch();
    /**
     * Connect two nodes with a full-duplex cable.
     * \param a one node
     * \param b the other
     * \param rateBps line rate, bit/s
     * \param delay one-way propagation delay
     * \param lossProbability per-frame loss in each direction
     * \return the port indices at \p a and at \p b
     */
    std::pair<uint32_t, uint32_t> AddLink(
        uint32_t a, uint32_t b, uint64_t rateBps, Time delay, double lossProbability = 0);

    /**
     * Compute shortest-path ECMP routes (unless routes were set), size switch buffers
     * and fix per-port random streams. Call after the last AddLink().
     * \param maxPayload largest data payload (the NICs' MTU)
     */
    void Finalize(uint32_t maxPayload);

    /**
     * Install a route at \p node toward \p dst, replacing the computed ones.
     * \param node a host or switch
     * \param dst destination host
     * \param ports egress port indices at \p node (in AddLink order)
     */
    void SetRoute(uint32_t node, uint32_t dst, const std::vector<uint32_t>& ports);

    /**
     * Open a queue pair from \p src to \p dst.
     * \param src sending host
     * \param dst receiving host
     * \param priority traffic class
     * \return the queue pair
     */
    Ptr<RdmaQueuePair> Connect(uint32_t src, uint32_t dst, uint8_t priority);

    /** \param node a node id \return true if \p node is a host */
    bool IsHost(uint32_t node) const;
    /** \param node a host's node id \return the NIC of host \p node */
    Ptr<RdmaNic> GetNic(uint32_t node) const;
    /** \param node a switch's node id \return the switch \p node */
    Ptr<RoceSwitch> GetSwitch(uint32_t node) const;
    /** \return the hosts' node ids */
    const std::vector<uint32_t>& GetHosts() const;
    /** \return the switches' node ids */
    const std::vector<uint32_t>& GetSwitches() const;
    /** \param node a node id \return every port of \p node, in AddLink order */
    std::vector<Ptr<RocePort>> GetPorts(uint32_t node) const;
    /**
     * \param src source node
     * \param dst destination node
     * \return the hops between nodes on the routed path from \p src to \p dst
     */
    uint32_t GetHopCount(uint32_t src, uint32_t dst) const;
    /**
     * \param src sending host
     * \param dst receiving host
     * \return the unloaded round trip of a full packet and its ACK on the routed path
     */
    Time GetBaseRtt(uint32_t src, uint32_t dst) const;
    /**
     * \param src sending host
     * \param dst receiving host
     * \param port the port of \p src the path leaves by
     * \return the unloaded round trip on the path leaving \p src by \p port, as a queue
     *         pair sending on that port sees it
     */
    Time GetBaseRtt(uint32_t src, uint32_t dst, uint32_t port) const;

  private:
    /** A cable end at a node. */
    struct Adjacency
    {
        uint32_t peer{0};    //!< node at the other end
        uint32_t port{0};    //!< port index at this node
        uint64_t rateBps{0}; //!< line rate
        Time delay;          //!< propagation delay
    };

    /** Add a node of either kind. */
    uint32_t AddNode(bool host);
    /** Breadth-first distances (in cables) from every node to \p dst. */
    std::vector<uint32_t> DistancesTo(uint32_t dst) const;
    /** Install every shortest-path ECMP set toward \p dst. */
    void RouteTo(uint32_t dst);
    /** \return the installed ECMP set at \p node toward \p dst */
    const std::vector<uint32_t>& RouteAt(uint32_t node, uint32_t dst) const;
    /**
     * \return the cables of one routed path from \p src to \p dst, leaving \p src by
     *         \p firstPort (if given) and by the first port of each ECMP set after it
     */
    std::vector<const Adjacency*> PathOf(uint32_t src, uint32_t dst, int64_t firstPort = -1) const;
    /** \return the base RTT of \p path */
    Time RttOf(const std::vector<const Adjacency*>& path) const;

    NodeContainer m_nodes;
    std::vector<bool> m_isHost;
    std::vector<uint32_t> m_hosts;
    std::vector<uint32_t> m_switches;
    std::vector<std::vector<Adjacency>> m_adjacency;
    std::vector<std::vector<uint32_t>> m_portSlot; //!< node, port -> index in m_adjacency
    std::vector<Ptr<RdmaNic>> m_nics;
    std::vector<Ptr<RoceSwitch>> m_switchObjects;
    bool m_routesSet{false};
    uint32_t m_mtu{4096};
};

} // namespace ns3

#endif /* MLFABRIC_ROCE_NETWORK_H */
