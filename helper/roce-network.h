/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ROCE_NETWORK_H
#define MLFABRIC_ROCE_NETWORK_H

#include "ns3/fabric-partition.h"
#include "ns3/fabric.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/rdma-nic.h"
#include "ns3/roce-switch.h"
#include "ns3/routing-table.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * A fabric at packet level: hosts with RDMA NICs, switches, cables and routes.
 *
 * Install() is the only way to build it, from a Fabric and its RoutingTable, which stay
 * the one description of the network: every fabric node becomes an ns-3 node with the
 * same id (node ids double as RoCE addresses), every link a cable with the link's rate,
 * delay and loss, fabric port numbers are kept, and each node forwards by the table's
 * ECMP sets (a switch hashes among them). A link's ECN thresholds are set at the switch
 * egress ports it connects and its PFC priorities at both ends; links that leave them
 * unset keep the switches' defaults (see ApplyEcnMap for how the ECN map fills them).
 */
class RoceNetwork
{
  public:
    RoceNetwork() = default;

    /**
     * Build the fabric; call once, before the simulation creates any other node.
     * Throws InputError if a switch buffer does not hold its reserved, headroom and
     * credit bytes, or a scale-up vc_buffer cannot hold the link's largest frame.
     * Links of a scale-up dimension get credit flow control (no PFC), the dimension's
     * framing and switch latency.
     * \param fabric the description (copied)
     * \param routes its routing (copied)
     * \param mtu the NICs' payload per packet (sizes the switches' largest frame)
     * \return the node id of each rank
     */
    std::vector<uint32_t> Install(const Fabric& fabric, const RoutingTable& routes, uint32_t mtu);

    /**
     * Build the fabric as one process of ns-3's distributed simulator; call before
     * Install. Every process builds every node, and a node belongs to the process
     * \p partition gives it (its ns-3 system id). A link whose ends are on two processes
     * gets a channel of type \p remoteChannel, which carries its frames between them.
     * \param partition the split; its node count must be the fabric's
     * \param self this process
     * \param remoteChannel TypeId name of a RoceChannel subclass
     */
    void SetPartition(const FabricPartition& partition,
                      uint32_t self,
                      const std::string& remoteChannel);

    /**
     * \param node a node id
     * \return true if \p node belongs to this process (always, without a partition)
     */
    bool IsLocal(uint32_t node) const;

    /**
     * Open a queue pair from \p src to \p dst. A queue pair whose path stays inside
     * scale-up domains runs without congestion control, in the domain's packet payload;
     * every other one has the NICs' CongestionControl.
     * \param src sending host
     * \param dst receiving host
     * \param priority traffic class
     * \return the queue pair
     */
    Ptr<RdmaQueuePair> Connect(uint32_t src, uint32_t dst, uint8_t priority);

    /**
     * \param src sending host
     * \param dst receiving host
     * \return true if the routed path stays inside scale-up domains (its queue pairs run
     *         without congestion control)
     */
    bool IsScaleUpPath(uint32_t src, uint32_t dst) const;

    /** \return the installed fabric */
    const Fabric& GetFabric() const;
    /** \return the installed routing */
    const RoutingTable& GetRoutes() const;

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
    /** \param node a node id \return every port of \p node, in fabric port order */
    std::vector<Ptr<RocePort>> GetPorts(uint32_t node) const;
    /**
     * \param link a fabric link index
     * \return the ports at the two ends of fabric link \p link (nodeA's first)
     */
    std::pair<Ptr<RocePort>, Ptr<RocePort>> GetLinkPorts(uint32_t link) const;
    /**
     * \param node a node id
     * \param port a port of \p node
     * \return the priorities that are lossless at port \p port of \p node as installed:
     *         its link's, else the default; none with PFC off
     */
    uint8_t GetLosslessPriorities(uint32_t node, uint32_t port) const;
    /**
     * \param node a node id
     * \param port a port of \p node
     * \return true if the link at port \p port of \p node sets its own ECN thresholds
     */
    bool HasLinkEcn(uint32_t node, uint32_t port) const;
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
    /** Create the node of fabric node \p n with its NIC or switch. */
    void AddNode(uint32_t n);
    /** Create the cable of fabric link \p l and set its ECN and PFC at both ends. */
    void AddLink(uint32_t l);
    /** Install the routing table's ECMP sets at every node. */
    void InstallRoutes();
    /** Size the switch buffers and fix the random streams. */
    void Finalize();
    /** Throw an InputError when a route passes through an NPU that does not forward. */
    void CheckTransitNpusForward() const;
    /** \return the installed ECMP set at \p node toward \p dst */
    const std::vector<uint32_t>& RouteAt(uint32_t node, uint32_t dst) const;
    /**
     * \return the links of one routed path from \p src to \p dst, leaving \p src by
     *         \p firstPort (if given) and by the first port of each ECMP set after it
     */
    std::vector<uint32_t> PathOf(uint32_t src, uint32_t dst, int64_t firstPort = -1) const;
    /** \return the largest frame on a link of \p su, in its framing */
    uint32_t MaxScaleUpFrame(const ScaleUpSettings& su) const;
    /**
     * \param src the node the path starts at
     * \param path its links, in order
     * \return the base RTT of one data packet and its ACK over \p path, latencies included
     */
    Time RttOf(uint32_t src, const std::vector<uint32_t>& path) const;

    std::unique_ptr<Fabric> m_fabric;       //!< the description
    std::unique_ptr<RoutingTable> m_routes; //!< its routing
    NodeContainer m_nodes;
    std::vector<uint32_t> m_hosts;
    std::vector<uint32_t> m_switches;
    std::vector<Ptr<RdmaNic>> m_nics;
    std::vector<Ptr<RoceSwitch>> m_switchObjects;
    std::vector<std::pair<Ptr<RocePort>, Ptr<RocePort>>> m_linkPorts; //!< per fabric link
    uint32_t m_mtu{4096};
    std::vector<uint32_t> m_processOf; //!< by node; empty: one process
    uint32_t m_self{0};                //!< this process, with a partition
    std::string m_remoteChannel;       //!< channel type of a link between processes
};

} // namespace ns3

#endif /* MLFABRIC_ROCE_NETWORK_H */
