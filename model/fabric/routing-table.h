/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ROUTING_TABLE_H
#define MLFABRIC_ROUTING_TABLE_H

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/** \ingroup mlfabric-fabric
 * How routes are chosen. */
enum class RoutingAlgorithm : uint8_t
{
    ShortestPath,  //!< every shortest path (complete ECMP sets)
    DimensionOrder //!< dimensions in ascending order, NPUs forwarding between them
};

/**
 * \ingroup mlfabric-fabric
 * \param algorithm an algorithm \return "shortest" or "dimension-order"
 */
std::string GetRoutingAlgorithmName(RoutingAlgorithm algorithm);

/**
 * \ingroup mlfabric-fabric
 * \param name "shortest" or "dimension-order"
 * \param algorithm set on success
 * \return false for any other name
 */
bool ParseRoutingAlgorithm(const std::string& name, RoutingAlgorithm& algorithm);

/**
 * \ingroup mlfabric-fabric
 * A read-only view of one ECMP set: egress port numbers of one node, ascending.
 */
class PortSet
{
  public:
    /** \param first first port \param count number of ports */
    PortSet(const uint32_t* first, uint32_t count)
        : m_first(first)
        , m_count(count)
    {
    }

    /** \return first port */
    const uint32_t*
    begin() const
    {
        return m_first;
    }

    /** \return one past the last port */
    const uint32_t*
    end() const
    {
        return m_first + m_count;
    }

    /** \return number of ports */
    uint32_t
    size() const
    {
        return m_count;
    }

    /** \return true if there is no port */
    bool
    empty() const
    {
        return m_count == 0;
    }

    /** \param i index below size() \return the i-th port */
    uint32_t
    operator[](uint32_t i) const
    {
        return m_first[i];
    }

  private:
    const uint32_t* m_first; //!< first port
    uint32_t m_count;        //!< number of ports
};

/**
 * \ingroup mlfabric-fabric
 * Per-destination forwarding tables of a whole fabric, as flat arrays.
 *
 * For every node (switch or NPU) and every destination NPU rank: the set of egress
 * ports a packet may take (ECMP), and the number of hops the route still has. Lookup
 * is O(1): one index into a node x destination array of set ids, then a slice of a
 * shared port array. Identical sets are stored once, so a table takes about 6 bytes per
 * (node, destination).
 */
class RoutingTable
{
  public:
    /** Hops of a destination that cannot be reached. */
    static constexpr uint32_t kUnreachable = 0xFFFF;

    /**
     * An empty table (no destination reachable).
     * \param nodes number of fabric nodes
     * \param npus number of NPUs (destinations)
     * \param algorithm how the routes were chosen
     */
    RoutingTable(uint32_t nodes, uint32_t npus, RoutingAlgorithm algorithm);

    /**
     * Set one entry.
     * \param node node id
     * \param dstRank destination NPU
     * \param ports egress ports, ascending
     * \param hops hops from \p node to the destination along the route, below kUnreachable
     */
    void Set(uint32_t node, uint32_t dstRank, const std::vector<uint32_t>& ports, uint32_t hops);

    /** \param node node id \param dstRank destination NPU \return its ECMP set */
    PortSet
    GetEgressPorts(uint32_t node, uint32_t dstRank) const
    {
        const uint32_t set = m_entrySet[Index(node, dstRank)];
        return PortSet(m_setPorts.data() + m_setStart[set], m_setStart[set + 1] - m_setStart[set]);
    }

    /** \param node node id \param dstRank destination NPU \return hops left, or kUnreachable */
    uint32_t
    GetHops(uint32_t node, uint32_t dstRank) const
    {
        return m_hops[Index(node, dstRank)];
    }

    /** \return how the routes were chosen */
    RoutingAlgorithm GetAlgorithm() const;
    /** \return number of nodes */
    uint32_t GetNodeCount() const;
    /** \return number of destinations */
    uint32_t GetNpuCount() const;
    /** \return number of distinct ECMP sets stored */
    uint32_t GetDistinctSetCount() const;
    /** \return bytes held by the lookup arrays */
    uint64_t GetMemoryBytes() const;

  private:
    /** \return flat index of (node, dstRank) */
    uint64_t
    Index(uint32_t node, uint32_t dstRank) const
    {
        return static_cast<uint64_t>(node) * m_npus + dstRank;
    }

    /** Hash of a port list, for storing each distinct set once. */
    struct SetHash
    {
        /** \param ports a port list \return its hash */
        size_t operator()(const std::vector<uint32_t>& ports) const;
    };

    uint32_t m_nodes;                 //!< number of nodes
    uint32_t m_npus;                  //!< number of destinations
    RoutingAlgorithm m_algorithm;     //!< how routes were chosen
    std::vector<uint32_t> m_entrySet; //!< (node, dst) -> set id; set 0 is empty
    std::vector<uint16_t> m_hops;     //!< (node, dst) -> hops left
    std::vector<uint32_t> m_setStart; //!< set id -> first index in m_setPorts (+ end)
    std::vector<uint32_t> m_setPorts; //!< ports of all sets
    std::unordered_map<std::vector<uint32_t>, uint32_t, SetHash> m_setIds; //!< set -> id
};

} // namespace ns3

#endif /* MLFABRIC_ROUTING_TABLE_H */
