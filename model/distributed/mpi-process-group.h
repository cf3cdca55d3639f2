/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_MPI_PROCESS_GROUP_H
#define MLFABRIC_MPI_PROCESS_GROUP_H

#include "ns3/process-group.h"

#include <memory>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-link
 * The MPI processes of one distributed simulation, on ns-3's mpi module.
 *
 * Creating it starts MPI and ns-3's MPI interface with the chosen engine; destroying it,
 * after the simulation is destroyed, stops both. The reductions run on MPI_COMM_WORLD,
 * outside the simulation, once every process has finished its part.
 */
class MpiProcessGroup : public ProcessGroup
{
  public:
    /**
     * Start MPI and bind ns-3's simulator implementation to \p engine. Throws InputError
     * for an engine other than "granted-time-window" (ns3::DistributedSimulatorImpl) or
     * "null-message" (ns3::NullMessageSimulatorImpl).
     * \param engine the synchronisation engine
     */
    explicit MpiProcessGroup(const std::string& engine);
    /** Stop ns-3's MPI interface, then MPI. */
    ~MpiProcessGroup() override;

    MpiProcessGroup(const MpiProcessGroup&) = delete;
    MpiProcessGroup& operator=(const MpiProcessGroup&) = delete;

    uint32_t GetProcess() const override;
    uint32_t GetSize() const override;
    std::string GetRemoteChannelType() const override;
    std::string GetEngine() const override;
    void SumOver(std::vector<uint64_t>& values) override;
    void MaxOver(std::vector<int64_t>& values) override;
    std::vector<std::string> Gather(const std::string& mine) override;

  private:
    std::string m_engine; //!< as given
};

} // namespace ns3

#endif /* MLFABRIC_MPI_PROCESS_GROUP_H */
