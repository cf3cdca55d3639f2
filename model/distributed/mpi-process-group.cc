/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "mpi-process-group.h"

#include "ns3/global-value.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/mpi-interface.h"
#include "ns3/string.h"

#include <mpi.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MpiProcessGroup");

MpiProcessGroup::MpiProcessGroup(const std::string& engine)
    : m_engine(engine)
{
    if (engine != "granted-time-window" && engine != "null-message")
    {
        throw InputError("--mpi-engine: '" + engine +
                         "' is not an engine (granted-time-window, null-message)");
    }
    GlobalValue::Bind("SimulatorImplementationType",
                      StringValue(engine == "null-message" ? "ns3::NullMessageSimulatorImpl"
                                                           : "ns3::DistributedSimulatorImpl"));
    int started = 0;
    MPI_Initialized(&started);
    if (!started)
    {
        MPI_Init(nullptr, nullptr);
    }
    MpiInterface::Enable(MPI_COMM_WORLD);
    NS_LOG_INFO("process " << GetProcess() << " of " << GetSize() << ", engine " << engine);
}

MpiProcessGroup::~MpiProcessGroup()
{
    // Enabled with a communicator, ns-3 leaves MPI to its caller.
    MpiInterface::Disable();
    int stopped = 0;
    MPI_Finalized(&stopped);
    if (!stopped)
    {
        MPI_Finalize();
    }
}

uint32_t
MpiProcessGroup::GetProcess() const
{
    return MpiInterface::GetSystemId();
}

uint32_t
MpiProcessGroup::GetSize() const
{
    return MpiInterface::GetSize();
}

std::string
MpiProcessGroup::GetRemoteChannelType() const
{
    return "ns3::RoceRemoteChannel";
}

std::string
MpiProcessGroup::GetEngine() const
{
    return m_engine;
}

void
MpiProcessGroup::SumOver(std::vector<uint64_t>& values)
{
    MPI_Allreduce(MPI_IN_PLACE,
                  values.data(),
                  static_cast<int>(values.size()),
                  MPI_UINT64_T,
                  MPI_SUM,
                  MPI_COMM_WORLD);
}

void
MpiProcessGroup::MaxOver(std::vector<int64_t>& values)
{
    MPI_Allreduce(MPI_IN_PLACE,
                  values.data(),
                  static_cast<int>(values.size()),
                  MPI_INT64_T,
                  MPI_MAX,
                  MPI_COMM_WORLD);
}

std::vector<std::string>
MpiProcessGroup::Gather(const std::string& mine)
{
    const int size = static_cast<int>(GetSize());
    int length = static_cast<int>(mine.size());
    std::vector<int> lengths(size);
    MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, MPI_COMM_WORLD);
    std::vector<int> offsets(size, 0);
    for (int q = 1; q < size; ++q)
    {
        offsets[q] = offsets[q - 1] + lengths[q - 1];
    }
    std::string all(offsets[size - 1] + lengths[size - 1], '\0');
    MPI_Allgatherv(mine.data(),
                   length,
                   MPI_CHAR,
                   all.data(),
                   lengths.data(),
                   offsets.data(),
                   MPI_CHAR,
                   MPI_COMM_WORLD);
    std::vector<std::string> parts;
    for (int q = 0; q < size; ++q)
    {
        parts.push_back(all.substr(offsets[q], lengths[q]));
    }
    return parts;
}

} // namespace ns3
