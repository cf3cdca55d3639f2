/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_DISTRIBUTED_OPTIONS_H
#define MLFABRIC_DISTRIBUTED_OPTIONS_H

#include "ns3/example-cli.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Declare the options of a run across MPI processes: --partition (a file of
 * "<node name> <process>" lines; default automatic) and --mpi-engine
 * (granted-time-window or null-message).
 * \param cli the program's options
 */
void AddDistributedOptions(ExampleCli& cli);

/**
 * \ingroup mlfabric-helper
 * Refuse --partition and --mpi-engine in a program that mpirun did not start as
 * several processes.
 * \param cli the parsed options
 * \throws InputError naming the option
 */
void CheckDistributedOptions(const ExampleCli& cli);

/**
 * \ingroup mlfabric-helper
 * Add a distributed run's split ("partition") and each process's events and wall time
 * ("processes") to a program's summary.
 * \param summary the summary
 * \param partition the split, as the run header gives it
 * \param events each process's events
 * \param seconds each process's wall time, s
 */
void AddProcessesToSummary(nlohmann::json& summary,
                           const std::string& partition,
                           const std::vector<uint64_t>& events,
                           const std::vector<double>& seconds);

} // namespace ns3

#endif /* MLFABRIC_DISTRIBUTED_OPTIONS_H */
