/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ET_NODE_INDEX_H
#define MLFABRIC_ET_NODE_INDEX_H

#include "ns3/et-node.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-chakra
 * Finds a node's position in a trace from its id.
 *
 * Chakra ids are sparse (PyTorch ids) or arbitrary (generators), so they cannot index
 * an array. A sorted table of (id, position) costs 16 bytes per node, a third of a hash
 * map, and building it detects duplicate ids.
 */
class EtNodeIndex
{
  public:
    EtNodeIndex() = default;
    /**
     * \param nodes the trace's nodes, in file order
     * \param path file name, for errors
     * \throws InputError naming the file and the id if two nodes share an id
     */
    EtNodeIndex(const std::vector<EtNode>& nodes, std::string_view path);

    /** \param id a node id \return its position in the node list, if present */
    std::optional<uint32_t> Find(uint64_t id) const;

  private:
    /** One node's id and position. */
    struct Entry
    {
        uint64_t id;    //!< node id
        uint32_t index; //!< position in file order
    };

    std::vector<Entry> m_entries; //!< sorted by id
};

} // namespace ns3

#endif /* MLFABRIC_ET_NODE_INDEX_H */
