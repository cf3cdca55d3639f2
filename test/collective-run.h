/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// One collective run on every member of its plan, for the tests of collective algorithms.
#ifndef MLFABRIC_COLLECTIVE_RUN_H
#define MLFABRIC_COLLECTIVE_RUN_H

#include "ns3/collective-plan.h"
#include "ns3/collective-runner.h"
#include "ns3/network-backend.h"
#include "ns3/simulator.h"
#include "ns3/system-config.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <numeric>
#include <vector>

namespace ns3
{

/** What one collective produced. */
struct CollectiveOutcome
{
    std::map<uint32_t, uint64_t> finishNs; //!< by rank
    std::vector<uint64_t> sent;            //!< bytes by rank
    std::vector<uint64_t> received;        //!< bytes by rank
    uint64_t messages{0};                  //!< messages, all ranks

    /** \return the last rank's finish, ns */
    uint64_t
    Last() const
    {
        uint64_t last = 0;
        for (const auto& [rank, t] : finishNs)
        {
            last = std::max(last, t);
        }
        return last;
    }

    /** \return the bytes all ranks received */
    uint64_t
    TotalReceived() const
    {
        return std::accumulate(received.begin(), received.end(), uint64_t{0});
    }
};

/**
 * Run \p plan on every member from t = 0; every member finishes, and the bytes received
 * are the bytes sent, times \p receivedPerSent (a switch's reduce-scatter delivers 1/n of
 * what goes up, its all-gather n-1 times as much).
 * \param backend the network
 * \param config the system configuration
 * \param plan the collective
 * \param receivedPerSent bytes received per byte sent, over all ranks
 * \return what it produced
 */
inline CollectiveOutcome
RunCollectiveOnMembers(Ptr<NetworkBackend> backend,
                       const SystemConfig& config,
                       std::shared_ptr<const CollectivePlan> plan,
                       double receivedPerSent = 1.0)
{
    CollectiveOutcome out;
    CollectiveRunner runner(backend, config);
    runner.SetFinishedCallback([&](uint32_t rank, uint32_t)
                               { out.finishNs[rank] = Simulator::Now().GetNanoSeconds(); });
    uint32_t members = 0;
    for (uint32_t rank = 0; rank < backend->GetRankCount(); ++rank)
    {
        if (plan->topology->Contains(rank))
        {
            runner.Start(rank, 0, plan);
            ++members;
        }
    }
    Simulator::Run();
    Simulator::Destroy();
    EXPECT_EQ(out.finishNs.size(), members);
    for (uint32_t r = 0; r < backend->GetRankCount(); ++r)
    {
        out.sent.push_back(runner.GetBytesSent(r));
        out.received.push_back(runner.GetBytesReceived(r));
    }
    out.messages = runner.GetMessageCount();
    const auto sent = std::accumulate(out.sent.begin(), out.sent.end(), uint64_t{0});
    EXPECT_DOUBLE_EQ(static_cast<double>(sent) * receivedPerSent,
                     static_cast<double>(out.TotalReceived()));
    return out;
}

} // namespace ns3

#endif /* MLFABRIC_COLLECTIVE_RUN_H */
