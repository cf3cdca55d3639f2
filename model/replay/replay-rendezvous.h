/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_RENDEZVOUS_H
#define MLFABRIC_REPLAY_RENDEZVOUS_H

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <tuple>

namespace ns3
{

/**
 * \ingroup mlfabric-replay
 * Holds each COMM_SEND back until its receive is posted: rendezvous sends, the
 * strictest semantics a workload may meet (NCCL's send blocks until the peer
 * receives), under which a workload that counts on sends being buffered deadlocks.
 *
 * Per (source, destination, tag) it keeps the sends waiting for a receive and the
 * receives posted before their send; the k-th send of a key goes with the k-th
 * receive, as ReplayP2pMatcher pairs their messages.
 */
class ReplayRendezvous
{
  public:
    /** (source rank, destination rank, comm_tag) */
    using Key = std::tuple<uint32_t, uint32_t, int64_t>;

    /**
     * A send is ready: \p launch runs now if its receive is posted, else when it is.
     * \param key the send's key
     * \param launch what carries the message
     */
    void Offer(const Key& key, std::function<void()> launch);

    /**
     * A receive is posted: the first send waiting on its key is launched, or the next
     * send to come will be.
     * \param key the receive's key
     */
    void Accept(const Key& key);

  private:
    /** One key's waiting sends and unclaimed receives; removed when both are empty. */
    struct Waiting
    {
        std::deque<std::function<void()>> sends; //!< sends without a receive yet
        uint64_t receives{0};                    //!< receives without a send yet
    };

    std::map<Key, Waiting> m_keys; //!< only keys with something waiting
};

} // namespace ns3

#endif /* MLFABRIC_REPLAY_RENDEZVOUS_H */
