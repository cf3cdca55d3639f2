/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_GEN_WORKLOAD_H
#define MLFABRIC_GEN_WORKLOAD_H

#include "ns3/gen-comm-groups.h"
#include "ns3/gen-rank-trace.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-gen
 * A generated workload: one trace per rank, the communicator groups, and how it was
 * made.
 *
 * Written as ASTRA-sim lays a workload out: `<prefix>.<rank>.et` per rank plus
 * `<prefix>.comm-groups.json`. Each file's GlobalMetadata records the generator and
 * its parameters as the string attributes `generator` and `parameters`.
 */
struct GenWorkload
{
    /**
     * \param kind generator name, e.g. "transformer"
     * \param rankCount number of ranks; one empty trace each is created
     */
    GenWorkload(std::string kind, uint32_t rankCount);

    std::string kind;                                        //!< generator name
    std::vector<std::pair<std::string, std::string>> params; //!< parameters, in order
    std::vector<GenRankTrace> ranks;                         //!< trace of rank i at i
    GenCommGroups groups;                                    //!< the groups used

    /**
     * \param name parameter name
     * \param value its value, as text
     */
    void AddParameter(const std::string& name, const std::string& value);
    /**
     * \param name parameter name
     * \param value its value, written in the shortest form that reads back the same
     */
    void AddParameter(const std::string& name, double value);
    /** \return the parameters as "name=value name=value ..." */
    std::string DescribeParameters() const;
    /**
     * Write every rank's trace and the comm-group file. The files of higher ranks,
     * `<prefix>.<ranks>.et` onwards, that an earlier, larger workload left are deleted:
     * with them the prefix would read as a workload of more ranks.
     * \param prefix workload prefix; its folder must exist
     * \return the number of stale rank files deleted
     * \throws InputError naming a file that cannot be written or deleted
     */
    uint32_t Write(const std::string& prefix) const;
};

/**
 * \ingroup mlfabric-gen
 * \param prefix workload prefix
 * \return `<prefix>.comm-groups.json`, the communicator groups the generators write
 */
std::string CommGroupFilePath(const std::string& prefix);

} // namespace ns3

#endif /* MLFABRIC_GEN_WORKLOAD_H */
