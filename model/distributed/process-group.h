/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_PROCESS_GROUP_H
#define MLFABRIC_PROCESS_GROUP_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-link
 * The processes one simulation runs on, and how their figures come together.
 *
 * A run in one process uses none. ns-3's distributed simulator has one process per MPI
 * rank (MpiProcessGroup, in libns3-mlfabric-mpi): each process simulates its part of the
 * fabric, and the scenarios reduce what each part measured so that every process holds
 * the figures of the whole run, which process 0 alone prints.
 */
class ProcessGroup
{
  public:
    virtual ~ProcessGroup() = default;

    /** \return this process, 0..GetSize()-1 */
    virtual uint32_t GetProcess() const = 0;
    /** \return the processes of the run */
    virtual uint32_t GetSize() const = 0;
    /** \return the TypeId name of the channel of a link whose ends are on two processes */
    virtual std::string GetRemoteChannelType() const = 0;
    /** \return the name of the synchronisation engine, for the run header */
    virtual std::string GetEngine() const = 0;
    /**
     * Add up \p values element by element over the processes; every process gets the sums.
     * \param values this process's values, the same length on every process
     */
    virtual void SumOver(std::vector<uint64_t>& values) = 0;
    /**
     * Take the largest of \p values element by element over the processes.
     * \param values this process's values, the same length on every process
     */
    virtual void MaxOver(std::vector<int64_t>& values) = 0;
    /**
     * \param mine this process's text
     * \return every process's text, by process
     */
    virtual std::vector<std::string> Gather(const std::string& mine) = 0;
};

} // namespace ns3

#endif /* MLFABRIC_PROCESS_GROUP_H */
