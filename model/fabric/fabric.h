/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_FABRIC_H
#define MLFABRIC_FABRIC_H

#include "ns3/link-settings.h"
#include "ns3/scale-up-settings.h"

#include <boost/graph/adjacency_list.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/** \ingroup mlfabric-fabric
 * What a fabric node is. */
enum class FabricNodeKind : uint8_t
{
    Npu,   //!< an accelerator with its NICs; its rank is its NPU id
    Switch //!< a packet switch
};

/**
 * \ingroup mlfabric-fabric
 * A vertex of the fabric graph.
 */
struct FabricNode
{
    FabricNodeKind kind{FabricNodeKind::Npu}; //!< NPU or switch
    uint32_t rank{0};                         //!< NPU id (NPUs only)
    std::string name;                         //!< unique name, e.g. "npu3", "leaf0"
    std::string role;                         //!< "npu", "leaf", "spine", "agg", "core", ...
    uint32_t tier{0};                         //!< 0 for NPUs, 1 for switches next to NPUs, ...
    int32_t dimension{-1};                    //!< dimension a switch serves; -1 if none
    uint64_t bufferBytes{0};                  //!< shared packet buffer (switches)
    bool forwards{true};                      //!< may carry traffic between other nodes
};

/**
 * \ingroup mlfabric-fabric
 * An edge of the fabric graph: one full-duplex link between two ports.
 */
struct FabricLink
{
    uint32_t nodeA{0};     //!< one end
    uint32_t portA{0};     //!< port of nodeA
    uint32_t nodeB{0};     //!< the other end
    uint32_t portB{0};     //!< port of nodeB
    LinkSettings settings; //!< rate, delay, loss, ECN, PFC
    int32_t dimension{-1}; //!< dimension the link belongs to; -1 if none
};

/**
 * \ingroup mlfabric-fabric
 * One port of a node: the link behind it and the port at the far end.
 */
struct FabricPort
{
    uint32_t link{0};     //!< link id
    uint32_t peer{0};     //!< node at the far end
    uint32_t peerPort{0}; //!< port number at the far end
};

/**
 * \ingroup mlfabric-fabric
 * One dimension of a multi-dimensional fabric (NPU ids are mixed radix over the
 * dimension sizes, dimension 0 fastest).
 */
struct FabricDimension
{
    std::string name;     //!< e.g. "dim0", "scale-up", "scale-out"
    std::string topology; //!< "Ring", "FullyConnected", "Switch", "Clos", "FatTree", "Rail"
    uint32_t size{0};     //!< NPUs along the dimension (servers, for a scale-out)
    std::optional<ScaleUpSettings> scaleUp; //!< set: a scale-up domain; unset: RoCE links
};

/**
 * \ingroup mlfabric-fabric
 * A fabric as pure data: NPUs, switches and full-duplex links on a Boost graph.
 *
 * Node ids are vertex indices in creation order; NPU ranks are 0..N-1 in NPU creation
 * order. Each node's links are its ports, numbered 0..k-1 in the order the links were
 * added. Builders, readers, routing and the packet-level installer all work on this.
 */
class Fabric
{
  public:
    /** The Boost graph: one vertex per node, one undirected edge per link. */
    using Graph = boost::adjacency_list<boost::vecS,
                                        boost::vecS,
                                        boost::undirectedS,
                                        boost::no_property,
                                        boost::property<boost::edge_index_t, uint32_t>>;

    /** A node id meaning "no such node". */
    static constexpr uint32_t kNoNode = std::numeric_limits<uint32_t>::max();

    /** \param name fabric name, used in messages and output file names */
    explicit Fabric(const std::string& name = "fabric");

    /**
     * Add an NPU; its rank is the number of NPUs added before it.
     * \param name unique name; empty gives "npu<rank>"
     * \return its node id
     */
    uint32_t AddNpu(const std::string& name = "");

    /**
     * Add a switch with the default buffer (SetDefaultSwitchBuffer).
     * \param name unique name
     * \param role role label such as "leaf" or "spine"
     * \param tier 1 for switches next to NPUs, 2 above them, ...
     * \param dimension dimension the switch serves, or -1
     * \return its node id
     */
    uint32_t AddSwitch(const std::string& name,
                       const std::string& role,
                       uint32_t tier,
                       int32_t dimension = -1);

    /**
     * Add a full-duplex link; each end gets its next port number.
     * Throws InputError for a missing node, a self-link or a zero rate.
     * \param a one end
     * \param b the other end
     * \param settings link parameters
     * \param dimension dimension the link belongs to, or -1
     * \return the link id
     */
    uint32_t AddLink(uint32_t a, uint32_t b, const LinkSettings& settings, int32_t dimension = -1);

    /** \param dimension metadata of the next dimension (appended) */
    void AddDimension(const FabricDimension& dimension);

    /** \param bytes buffer given to switches added from now on */
    void SetDefaultSwitchBuffer(uint64_t bytes);
    /** \param bytes packet buffer of every relaying NPU; 0 keeps ns3::NpuRelay::BufferBytes */
    void SetRelayBuffer(uint64_t bytes);
    /** \param node a switch \param bytes its shared buffer */
    void SetSwitchBuffer(uint32_t node, uint64_t bytes);
    /** \param forwards whether every NPU may carry transit traffic */
    void SetNpuForwarding(bool forwards);
    /** \param bps bisection bandwidth known from the builder's structure */
    void SetStructuralBisection(uint64_t bps);

    /** \return the fabric name */
    const std::string& GetName() const;
    /** \param name the fabric name */
    void SetName(const std::string& name);

    /** \return number of nodes (NPUs and switches) */
    uint32_t GetNodeCount() const;
    /** \return number of NPUs */
    uint32_t GetNpuCount() const;
    /** \return number of switches */
    uint32_t GetSwitchCount() const;
    /** \return number of links */
    uint32_t GetLinkCount() const;

    /** \param node node id \return the node */
    const FabricNode& GetNode(uint32_t node) const;
    /** \param rank NPU id \return its node id */
    uint32_t GetNpuNode(uint32_t rank) const;
    /** \param node node id \return true if it is an NPU */
    bool IsNpu(uint32_t node) const;
    /** \param name node name \return its id, or kNoNode */
    uint32_t FindNode(const std::string& name) const;

    /** \param node node id \return number of ports */
    uint32_t GetPortCount(uint32_t node) const;
    /** \param node node id \param port port number \return the port */
    const FabricPort& GetPort(uint32_t node, uint32_t port) const;
    /** \param node node id \return all its ports, in port order */
    const std::vector<FabricPort>& GetPorts(uint32_t node) const;
    /** \param link link id \return the link */
    const FabricLink& GetLink(uint32_t link) const;

    /**
     * \param link link id
     * \return the scale-up settings of its dimension, or null for a RoCE link
     */
    const ScaleUpSettings* GetLinkScaleUp(uint32_t link) const;

    /** \return dimension metadata, possibly empty */
    const std::vector<FabricDimension>& GetDimensions() const;
    /** \return the builder's bisection bandwidth in bit/s, 0 if unknown */
    uint64_t GetStructuralBisection() const;
    /** \return the default switch buffer in bytes */
    uint64_t GetDefaultSwitchBuffer() const;
    /** \return the relaying NPUs' buffer in bytes; 0: ns3::NpuRelay::BufferBytes */
    uint64_t GetRelayBuffer() const;

    /** \return the Boost graph (vertex index = node id, edge_index = link id) */
    const Graph& GetGraph() const;

  private:
    /** Throw InputError if \p node is not a node id. */
    void CheckNode(uint32_t node, const char* what) const;
    /** Register a node's name and vertex. */
    uint32_t AddNode(FabricNode node);

    std::string m_name;                                //!< fabric name
    Graph m_graph;                                     //!< the topology
    std::vector<FabricNode> m_nodes;                   //!< node id -> node
    std::vector<FabricLink> m_links;                   //!< link id -> link
    std::vector<std::vector<FabricPort>> m_ports;      //!< node id -> ports
    std::vector<uint32_t> m_npuNodes;                  //!< rank -> node id
    std::unordered_map<std::string, uint32_t> m_names; //!< name -> node id
    std::vector<FabricDimension> m_dimensions;         //!< dimension metadata
    uint64_t m_defaultSwitchBuffer{32ULL << 20};       //!< buffer of new switches
    uint64_t m_structuralBisection{0};                 //!< from the builder, 0 = unknown
    uint64_t m_relayBuffer{0};                         //!< relay buffer, 0 = the attribute
};

} // namespace ns3

#endif /* MLFABRIC_FABRIC_H */
