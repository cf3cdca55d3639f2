/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_COMM_GROUP_H
#define MLFABRIC_COMM_GROUP_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * A communicator group: the global ranks one collective runs over.
 *
 * Ranks are kept sorted; a rank's position in the group is its index in that order, as
 * in ASTRA-sim. A group may carry its parallelism kind ("tp", "dp", "pp", "ep"), from a
 * trace's process-group metadata or the generator's, for the reports.
 */
class CommGroup
{
  public:
    /**
     * \param name the group's name (its pg_name)
     * \param ranks distinct global ranks, any order
     * \param kind parallelism kind, "" if not known
     */
    CommGroup(std::string name, std::vector<uint32_t> ranks, std::string kind = "");

    /** \return the name */
    const std::string&
    GetName() const
    {
        return m_name;
    }

    /** \return the parallelism kind, "" if not known */
    const std::string&
    GetKind() const
    {
        return m_kind;
    }

    /** \return the ranks, sorted */
    const std::vector<uint32_t>&
    GetRanks() const
    {
        return m_ranks;
    }

    /** \return the number of ranks */
    uint32_t
    GetSize() const
    {
        return static_cast<uint32_t>(m_ranks.size());
    }

    /** \param rank a global rank \return true if it belongs to the group */
    bool Contains(uint32_t rank) const;

    /**
     * \param rank a member
     * \return its position in the sorted rank list
     */
    uint32_t IndexOf(uint32_t rank) const;

  private:
    std::string m_name;            //!< pg_name
    std::vector<uint32_t> m_ranks; //!< sorted members
    std::string m_kind;            //!< parallelism kind, "" if not known
};

} // namespace ns3

#endif /* MLFABRIC_COMM_GROUP_H */
