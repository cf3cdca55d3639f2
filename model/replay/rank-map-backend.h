/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_RANK_MAP_BACKEND_H
#define MLFABRIC_RANK_MAP_BACKEND_H

#include "ns3/network-backend.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-replay
 * One job's view of a network it shares with other jobs.
 *
 * The job numbers its ranks 0 .. n-1; rank r lives on NPU GetNpu(r) of the shared
 * network. Messages are carried by the shared backend with their ranks translated on
 * the way in and back on the way out, so the job's engine never sees NPU numbers and
 * every job's traffic meets on the same links, queues and clock.
 */
class RankMapBackend : public NetworkBackend
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RankMapBackend() = default;

    /**
     * Use a shared network. Aborts if an NPU is out of its range or listed twice.
     * \param network the shared backend
     * \param npus the NPU of each rank of the job
     */
    void Attach(Ptr<NetworkBackend> network, const std::vector<uint32_t>& npus);

    /** \param rank a rank of the job \return the NPU it lives on */
    uint32_t GetNpu(uint32_t rank) const;

    uint32_t GetRankCount() const override;
    void Send(const Message& message, MessageCallback sent, MessageCallback arrived) override;
    void ReduceInSwitch(const Contribution& contribution, ContributionCallback done) override;
    void Schedule(Time delay, std::function<void()> fn) override;
    Time Now() const override;

  protected:
    /** Drop the wrapped network backend. */
    void DoDispose() override;

  private:
    Ptr<NetworkBackend> m_network; //!< the shared network
    std::vector<uint32_t> m_npus;  //!< rank -> NPU
};

} // namespace ns3

#endif /* MLFABRIC_RANK_MAP_BACKEND_H */
