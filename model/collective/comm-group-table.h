/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_COMM_GROUP_TABLE_H
#define MLFABRIC_COMM_GROUP_TABLE_H

#include "ns3/comm-group.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * The communicator groups of a run, by name.
 *
 * Groups come from ASTRA-sim's --comm-group-configuration JSON ({"1": [0, 1], ...}; the
 * one reader of that format, used by replay and et-info alike) and
 * from the process-group METADATA nodes of PyTorch-converted traces. A collective names
 * its group with the pg_name attribute; "" and "0" mean the default group of all ranks.
 */
class CommGroupTable
{
  public:
    /** \param worldSize number of ranks in the run; group members must be below it */
    explicit CommGroupTable(uint32_t worldSize);

    /**
     * \param path the --comm-group-configuration value
     * \return true if it names no file: ASTRA-sim treats any value containing "empty"
     * (its default is "empty") as "no groups"
     */
    static bool IsNoFile(const std::string& path);

    /**
     * Read a communicator-group JSON file. Throws InputError naming the file, line and
     * group on a malformed entry.
     * \param path the file
     */
    void LoadFile(const std::string& path);

    /**
     * Parse communicator-group JSON text.
     * \param text the JSON
     * \param source file name used in messages
     */
    void LoadJson(const std::string& text, const std::string& source);

    /**
     * Register the process groups of a METADATA node: the Python str() of a one-element
     * list holding a JSON array of {"pg_name", "ranks", ...}; empty ranks means all. A
     * "pg_desc" (PyTorch's group description, e.g. Megatron-LM's
     * TENSOR_MODEL_PARALLEL_GROUP) gives the group's kind (ParallelismKindOf).
     * \param value the node's string value
     * \param where file and node id, for messages
     */
    void AddProcessGroups(const std::string& value, const std::string& where);

    /**
     * Define a group. Defining a name again with the same ranks is allowed (every
     * rank's trace repeats its process groups); with other ranks it is an error.
     * \param name the pg_name
     * \param ranks its members
     * \param where origin, for messages
     */
    void Add(const std::string& name, std::vector<uint32_t> ranks, const std::string& where);

    /**
     * Give a defined group its parallelism kind; a name that is not defined is skipped.
     * \param name the pg_name
     * \param kind "tp", "dp", "pp", "ep" or a combination such as "dp+ep"
     */
    void SetKind(const std::string& name, const std::string& kind);

    /**
     * Apply the generator's kinds: a JSON object {"<pg_name>": "<kind>", ...}, the
     * comm_group_kinds attribute of a generated trace's metadata.
     * \param json the object's text
     * \param where the trace, for messages
     */
    void LoadKinds(const std::string& json, const std::string& where);

    /**
     * \param pgName a collective's pg_name
     * \param where file and node, for messages
     * \return the group, or nullptr for the default group ("" or "0" unless defined)
     * Throws InputError for an unknown name.
     */
    std::shared_ptr<const CommGroup> Lookup(const std::string& pgName,
                                            const std::string& where) const;

    /** \return every group defined, by name */
    const std::map<std::string, std::shared_ptr<const CommGroup>>& GetGroups() const;

    /** \return the number of groups defined */
    size_t
    GetGroupCount() const
    {
        return m_groups.size();
    }

    /** \return the number of ranks in the run */
    uint32_t
    GetWorldSize() const
    {
        return m_worldSize;
    }

  private:
    uint32_t m_worldSize;                                             //!< ranks in the run
    std::map<std::string, std::shared_ptr<const CommGroup>> m_groups; //!< by pg_name
};

} // namespace ns3

#endif /* MLFABRIC_COMM_GROUP_TABLE_H */
