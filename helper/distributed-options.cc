/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "distributed-options.h"

#include "ns3/input-error.h"

namespace ns3
{

void
AddDistributedOptions(ExampleCli& cli)
{
    cli.AddInput("partition",
                 "under mpirun: the partition file (lines '<node name> <process>'); default "
                 "automatic");
    cli.Add("mpi-engine",
            "under mpirun: ns-3's synchronisation, granted-time-window or null-message",
            "granted-time-window");
}

void
CheckDistributedOptions(const ExampleCli& cli)
{
    if (GetLaunchedProcessCount() > 1)
    {
        return;
    }
    for (const char* option : {"partition", "mpi-engine"})
    {
        if (cli.IsSet(option))
        {
            throw InputError("--" + std::string(option) + "=" + cli.Get(option) +
                             ": only under mpirun, with two processes or more");
        }
    }
}

void
AddProcessesToSummary(nlohmann::json& summary,
                      const std::string& partition,
                      const std::vector<uint64_t>& events,
                      const std::vector<double>& seconds)
{
    nlohmann::json processes = nlohmann::json::array();
    for (size_t q = 0; q < events.size(); ++q)
    {
        processes.push_back({{"events", events[q]}, {"wall_seconds", seconds[q]}});
    }
    summary["partition"] = partition;
    summary["processes"] = processes;
}

} // namespace ns3
