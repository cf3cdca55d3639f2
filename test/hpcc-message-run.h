/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// One message under HPCC with its window sampled, for the tests of INT on mixed paths.
#ifndef MLFABRIC_TEST_HPCC_MESSAGE_RUN_H
#define MLFABRIC_TEST_HPCC_MESSAGE_RUN_H

#include "ns3/callback.h"
#include "ns3/cc-hpcc.h"
#include "ns3/rdma-nic.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstdint>
#include <functional>

namespace ns3
{
namespace hpcctest
{

/** What one HPCC message did. */
struct HpccMessageRun
{
    Time done;          //!< when the sender saw the last byte acknowledged; zero if never
    uint64_t minWindow; //!< the smallest window seen, sampled every 2 us
};

/**
 * Send \p bytes on \p qp from \p nic, sample \p hpcc's window until the message is done,
 * and run the simulation (for at most a second).
 */
inline HpccMessageRun
RunHpccMessage(Ptr<RdmaNic> nic, Ptr<RdmaQueuePair> qp, Ptr<CcHpcc> hpcc, uint64_t bytes)
{
    HpccMessageRun run{Time(0), hpcc->GetWindow()};
    auto sent = [&run](Ptr<RdmaQueuePair>, uint64_t, uint64_t, uint64_t, Time)
    {
        run.done = Simulator::Now();
    };
    const Callback<void, Ptr<RdmaQueuePair>, uint64_t, uint64_t, uint64_t, Time> trace(sent);
    nic->TraceConnectWithoutContext("MessageSent", trace);
    nic->PostSend(qp, bytes, 0);
    std::function<void()> sample = [&]()
    {
        run.minWindow = std::min(run.minWindow, hpcc->GetWindow());
        if (run.done.IsZero())
        {
            Simulator::Schedule(MicroSeconds(2), sample);
        }
    };
    Simulator::Schedule(MicroSeconds(2), sample);
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    nic->TraceDisconnectWithoutContext("MessageSent", trace); // it refers to this frame
    return run;
}

} // namespace hpcctest
} // namespace ns3

#endif
