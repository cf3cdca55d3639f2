/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_P2P_MATCHER_H
#define MLFABRIC_REPLAY_P2P_MATCHER_H

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-replay
 * Pairs COMM_SEND messages with COMM_RECV nodes by (source, destination, tag).
 *
 * Each key keeps two FIFOs: messages that arrived before a receive asked for them, and
 * receives posted before their message arrived. The k-th message of a key completes the
 * k-th receive of that key, whichever comes first, so repeated keys work (the bug of
 * ASTRA-sim's ns-3 backend fixed by its PR #383).
 */
class ReplayP2pMatcher
{
  public:
    /** (source rank, destination rank, comm_tag) */
    using Key = std::tuple<uint32_t, uint32_t, int64_t>;

    /**
     * A message has arrived.
     * \param key its key
     * \param bytes its size
     * \return the token of the receive it completes, if one was waiting
     */
    std::optional<uint64_t> Arrive(const Key& key, uint64_t bytes);

    /**
     * A receive is posted.
     * \param key what it waits for
     * \param token returned by Arrive when its message comes
     * \return the size of the message it takes, if one had arrived
     */
    std::optional<uint64_t> Post(const Key& key, uint64_t token);

    /** \return receives waiting for a message */
    uint64_t GetWaitingReceives() const;
    /** \return messages waiting for a receive */
    uint64_t GetUnclaimedMessages() const;

    /**
     * \param limit most lines returned
     * \return one line per key with waiting receives or unclaimed messages
     */
    std::vector<std::string> Describe(size_t limit) const;

  private:
    /** The two FIFOs of one key; removed when both are empty. */
    struct Queues
    {
        std::deque<uint64_t> arrived; //!< sizes of unclaimed messages
        std::deque<uint64_t> posted;  //!< tokens of waiting receives
    };

    std::map<Key, Queues> m_keys;  //!< only keys with something waiting
    uint64_t m_waitingReceives{0}; //!< total of posted
    uint64_t m_unclaimed{0};       //!< total of arrived
};

} // namespace ns3

#endif /* MLFABRIC_REPLAY_P2P_MATCHER_H */
