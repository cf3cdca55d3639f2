/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-job.h"

#include "ns3/et-rank-files.h"
#include "ns3/replay-trace-check.h"

namespace ns3
{

void
AddTraceProcessGroups(const std::vector<std::shared_ptr<const EtTrace>>& traces,
                      CommGroupTable& groups)
{
    for (const auto& trace : traces)
    {
        for (const EtNode& node : trace->GetNodes())
        {
            if (node.type == EtNodeType::METADATA_NODE &&
                node.inputsValues.find("pg_name") != std::string_view::npos)
            {
                groups.AddProcessGroups(std::string(node.inputsValues),
                                        DescribeNodePlace(*trace, node));
            }
        }
    }
    // A generated workload names each group's parallelism kind in its metadata, the same
    // in every rank's file.
    if (!traces.empty())
    {
        for (const auto& attr : traces.front()->GetMetadata().attr())
        {
            if (attr.name() == "comm_group_kinds" && attr.has_string_val())
            {
                groups.LoadKinds(attr.string_val(), traces.front()->GetPath());
            }
        }
    }
}

void
LoadReplayJobInputs(ReplayJob& job, bool ctrlDeps)
{
    job.groups = std::make_shared<CommGroupTable>(job.rankCount);
    const std::string& path = job.spec.commGroupPath;
    if (!path.empty() && !CommGroupTable::IsNoFile(path))
    {
        job.groups->LoadFile(path);
    }
    EtLoadOptions options;
    options.useCtrlDeps = ctrlDeps;
    for (uint32_t r = 0; r < job.rankCount; ++r)
    {
        job.traces.push_back(std::make_shared<const EtTrace>(
            EtTrace::Load(EtRankFilePath(job.spec.workload, r), options)));
    }
    job.fileGroups = job.groups->GetGroupCount();
    AddTraceProcessGroups(job.traces, *job.groups);
    job.metadataGroups = job.groups->GetGroupCount() - job.fileGroups;
}

} // namespace ns3
