/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ANALYTICAL_TOPOLOGY_H
#define MLFABRIC_ANALYTICAL_TOPOLOGY_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-analytical
 * The building blocks of one network dimension, as in ASTRA-sim's analytical network.
 */
enum class AnalyticalBlock : uint8_t
{
    Ring,           //!< neighbours linked both ways; shortest direction
    FullyConnected, //!< a link between every pair: one hop
    Switch,         //!< every NPU linked to one switch: two hops
};

/**
 * \ingroup mlfabric-analytical
 * One dimension: its block, size, per-link bandwidth (each direction) and latency.
 */
struct AnalyticalDimension
{
    AnalyticalBlock block{AnalyticalBlock::Ring}; //!< topology of the dimension
    uint32_t npus{2};                             //!< NPUs along the dimension
    double bandwidthGBps{1};                      //!< GB/s with GB = 2^30 B, per link
    double latencyNs{0};                          //!< per link (per hop)
};

/**
 * \ingroup mlfabric-analytical
 * The network as the analytical backends see it: a stack of dimensions, NPU ids in
 * mixed radix with dimension 0 varying fastest (id = a0 + n0 (a1 + n1 (a2 ...))).
 *
 * Deliberately narrow: it is derived from a Fabric with ASTRA-sim's dimension structure
 * (MakeAnalyticalTopology), and describes one for the multi-dimensional builder
 * (MakeDimensionFabric).
 */
class AnalyticalTopology
{
  public:
    AnalyticalTopology() = default;

    /**
     * \param dimensions lowest first. Throws InputError if empty, if a dimension has
     * fewer than 2 NPUs, a bandwidth <= 0 or a latency < 0, or if there are more than
     * 2^31 NPUs.
     */
    explicit AnalyticalTopology(std::vector<AnalyticalDimension> dimensions);

    /**
     * Read an ASTRA-sim analytical network file with the fabric's reader
     * (ReadAstraNetwork) and take its dimensions (MakeAnalyticalTopology). Throws
     * InputError naming the file, line and key of a bad entry.
     * \param path the file
     * \return the topology
     */
    static AnalyticalTopology LoadYaml(const std::string& path);

    /** \return the dimensions */
    const std::vector<AnalyticalDimension>&
    GetDimensions() const
    {
        return m_dimensions;
    }

    /** \return the number of NPUs */
    uint32_t
    GetNpuCount() const
    {
        return m_npus;
    }

    /** \return NPUs per dimension, lowest first */
    std::vector<uint32_t> GetNpusPerDimension() const;

    /** \param dim a dimension \return id distance between neighbours along it */
    uint32_t
    GetStride(uint32_t dim) const
    {
        return m_strides[dim];
    }

    /** \param npu an NPU \param dim a dimension \return its coordinate along dim */
    uint32_t
    GetCoordinate(uint32_t npu, uint32_t dim) const
    {
        return (npu / m_strides[dim]) % m_dimensions[dim].npus;
    }

    /**
     * \param src an NPU \param dst another NPU
     * \return the lowest dimension in which their coordinates differ
     */
    uint32_t FirstDifferingDimension(uint32_t src, uint32_t dst) const;

    /**
     * ASTRA-sim's unit: GB/s with GB = 2^30 B, to bytes per ns.
     * \param gbps GB/s \return B/ns
     */
    static double
    ToBytesPerNs(double gbps)
    {
        return gbps * static_cast<double>(1U << 30) / 1e9;
    }

  private:
    std::vector<AnalyticalDimension> m_dimensions; //!< lowest first
    std::vector<uint32_t> m_strides;               //!< per dimension
    uint32_t m_npus{0};                            //!< product of sizes
};

} // namespace ns3

#endif /* MLFABRIC_ANALYTICAL_TOPOLOGY_H */
