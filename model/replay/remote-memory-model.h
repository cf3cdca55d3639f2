/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REMOTE_MEMORY_MODEL_H
#define MLFABRIC_REMOTE_MEMORY_MODEL_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-replay
 * How NPUs share the remote (expansion) memory, ASTRA-sim's memory-type.
 */
enum class RemoteMemoryType : uint8_t
{
    NoExpansion, //!< NO_MEMORY_EXPANSION: a remote access is an error
    PerNpu,      //!< PER_NPU_MEMORY_EXPANSION: every NPU has its own, accesses overlap
    PerNode,     //!< PER_NODE_MEMORY_EXPANSION: one transaction at a time per node, FIFO
    Pool,        //!< MEMORY_POOL: one transaction at a time in the whole system, FIFO
};

/**
 * \ingroup mlfabric-replay
 * ASTRA-sim's remote-memory configuration (--remote-memory JSON).
 */
struct RemoteMemoryConfig
{
    std::string source{"<none>"};                         //!< the file, for messages
    RemoteMemoryType type{RemoteMemoryType::NoExpansion}; //!< memory-type
    double latencyNs{0};                                  //!< remote-mem-latency, ns
    double bandwidthBytesPerNs{0};                        //!< remote-mem-bw, B/ns (GB/s, 10^9 B)
    uint32_t nodes{0};                                    //!< num-nodes (PER_NODE only)
    uint32_t npusPerNode{0};                              //!< num-npus-per-node (PER_NODE only)
};

/**
 * \ingroup mlfabric-replay
 * Read a remote-memory JSON: memory-type (NO_MEMORY_EXPANSION,
 * PER_NPU_MEMORY_EXPANSION, PER_NODE_MEMORY_EXPANSION, MEMORY_POOL),
 * remote-mem-latency (ns), remote-mem-bw (B/ns), and for PER_NODE num-nodes and
 * num-npus-per-node. Throws InputError naming the file, line and key of a bad entry.
 * \param path the file
 * \return the configuration
 */
RemoteMemoryConfig LoadRemoteMemoryConfig(const std::string& path);

/**
 * \ingroup mlfabric-replay
 * \param text the JSON
 * \param source name used in messages
 * \return the configuration
 */
RemoteMemoryConfig ParseRemoteMemoryConfig(const std::string& text, const std::string& source);

/**
 * \ingroup mlfabric-replay
 * ASTRA-sim's analytical remote memory: an access of S bytes takes
 * latency + S / bandwidth (truncated to whole ns) and, depending on the memory type,
 * waits for earlier accesses of the same node or of the whole pool (FIFO).
 */
class RemoteMemoryModel
{
  public:
    /**
     * \param config the configuration
     * \param rankCount NPUs of the run; PER_NODE needs num-nodes x num-npus-per-node of
     *        at least this many (InputError otherwise)
     */
    RemoteMemoryModel(const RemoteMemoryConfig& config, uint32_t rankCount);

    /**
     * Book one access.
     * \param rank the NPU
     * \param bytes tensor_size
     * \param nowNs the current time, ns
     * \param where file and node, for the error of NO_MEMORY_EXPANSION
     * \return when it completes, ns from now
     */
    uint64_t Access(uint32_t rank, uint64_t bytes, uint64_t nowNs, const std::string& where);

    /** \param bytes an access size \return its service time, ns */
    uint64_t ServiceNs(uint64_t bytes) const;

  private:
    RemoteMemoryConfig m_config;       //!< the configuration
    std::vector<uint64_t> m_busyUntil; //!< per shared resource: when it is free, ns
};

} // namespace ns3

#endif /* MLFABRIC_REMOTE_MEMORY_MODEL_H */
