/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_JOB_SPEC_H
#define MLFABRIC_REPLAY_JOB_SPEC_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * One training job of a multi-job replay: its workload and where its ranks live.
 */
struct ReplayJobSpec
{
    std::string name;           //!< names the job in reports and messages; unique in a run
    std::string workload;       //!< trace prefix: rank r reads `<workload>.r.et`
    std::vector<uint32_t> npus; //!< fabric NPU of each rank; empty: the lowest free NPUs
    std::string commGroupPath;  //!< communicator groups in the job's ranks; empty: none
};

/**
 * \ingroup mlfabric-helper
 * Read one --job value: "PREFIX[,npus=LIST][,comm_group=FILE][,name=NAME]", where LIST
 * is NPUs and ranges separated by commas ("0-3,8-11"); "workload=PREFIX" may stand
 * for the leading prefix. Throws InputError "--job=<text>: ..." for an unknown or
 * repeated key, an empty value or a malformed list.
 * \param text the option's value
 * \param index the job's place among the --job options, for its default name job<index>
 * \return the job; commGroupPath as given
 */
ReplayJobSpec ParseReplayJobSpec(const std::string& text, size_t index);

/**
 * \ingroup mlfabric-helper
 * Parse an NPU list such as "0-3,8,10-11".
 * \param text the list
 * \param what context for messages
 * \return the NPUs in the order given; throws InputError for a malformed item
 */
std::vector<uint32_t> ParseNpuList(const std::string& text, const std::string& what);

/**
 * \ingroup mlfabric-helper
 * \param npus NPU numbers
 * \return them as a list with runs folded into ranges, "0-3,8,10-11"
 */
std::string FormatNpuList(const std::vector<uint32_t>& npus);

} // namespace ns3

#endif /* MLFABRIC_REPLAY_JOB_SPEC_H */
