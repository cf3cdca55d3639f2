/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_GEN_COMM_GROUPS_H
#define MLFABRIC_GEN_COMM_GROUPS_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-gen
 * The communicator groups of a generated workload and their ids.
 *
 * Ids are decimal strings from "1" upwards in order of first registration (ASTRA-sim
 * reserves 0 for the world); registering the same set of ranks again returns its id,
 * so every member computes the same name for the group it shares. Written as
 * ASTRA-sim's --comm-group-configuration JSON: {"1": [0, 1], "2": [2, 3]}. Each group
 * may carry its parallelism kind; a set of ranks registered under two kinds (an EP
 * group that is also the DP group) carries both, joined by "+" ("dp+ep").
 */
class GenCommGroups
{
  public:
    /**
     * \param ranks the members, any order, no duplicates
     * \param kind parallelism kind ("tp", "dp", "ep", ...), "" if none
     * \return the group's id, the `pg_name` its collectives carry
     */
    std::string Register(std::vector<uint32_t> ranks, const std::string& kind = "");
    /** \return the kinds of the groups that have one, as {"<id>": "<kind>"} JSON; "" if none */
    std::string KindsJson() const;
    /** \return groups by id, ranks sorted */
    const std::map<std::string, std::vector<uint32_t>>& GetGroups() const;
    /** \return the JSON text, one group per line, ids in numeric order */
    std::string ToJson() const;
    /**
     * \param path file to create or overwrite
     * \throws InputError if it cannot be written
     */
    void Write(const std::string& path) const;

  private:
    /** \param ranks the members \return the id of that set of ranks, new or known */
    std::string RegisterRanks(std::vector<uint32_t> ranks);

    std::map<std::string, std::vector<uint32_t>> m_groups; //!< id -> sorted ranks
    std::map<std::vector<uint32_t>, std::string> m_idOf;   //!< sorted ranks -> id
    std::map<std::string, std::string> m_kinds;            //!< id -> kind, if any
};

} // namespace ns3

#endif /* MLFABRIC_GEN_COMM_GROUPS_H */
