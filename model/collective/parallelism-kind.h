/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_PARALLELISM_KIND_H
#define MLFABRIC_PARALLELISM_KIND_H

#include "ns3/comm-group.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * The parallelism kind a process-group description names.
 *
 * Accepts the short names (tp, dp, pp, ep, world; any case) and PyTorch's and
 * Megatron-LM's group descriptions: default_pg is the world, descriptions naming
 * TENSOR, PIPELINE, EXPERT_MODEL or EXPERT_DATA, DATA (or CONTEXT, for context parallelism
 * counted with data) their kind.
 * \param description a pg_desc
 * \return "tp", "dp", "pp", "ep", "world", or "" when it names none of them
 */
std::string ParallelismKindOf(const std::string& description);

/**
 * \ingroup mlfabric-collective
 * The kind a collective on \p group is reported under.
 * \param group the group; nullptr for the default group
 * \param worldSize ranks of the run
 * \return "world" for the default group or a group of every rank without a kind, the
 *         group's kind if it has one, "group" otherwise
 */
std::string ReportedKind(const CommGroup* group, uint32_t worldSize);

} // namespace ns3

#endif /* MLFABRIC_PARALLELISM_KIND_H */
