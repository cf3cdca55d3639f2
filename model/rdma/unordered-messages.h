/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_UNORDERED_MESSAGES_H
#define MLFABRIC_UNORDERED_MESSAGES_H

#include <cstdint>
#include <map>

namespace ns3
{

/**
 * \ingroup mlfabric-rdma
 * The messages an unordered-delivery (RUD) receiver is filling: each packet names its
 * message by the message's first byte, its new bytes are placed at once, and a message
 * completes when all of its bytes are in, whatever became of the messages before it.
 */
class UnorderedMessages
{
  public:
    /** A message whose every byte has arrived. */
    struct Completed
    {
        uint64_t begin{0}; //!< its first byte
        uint64_t end{0};   //!< one past its last
        uint64_t tag{0};   //!< its tag
    };

    /**
     * Bytes of a message arrived.
     * \param begin the message's first byte
     * \param newBytes bytes of it that arrived for the first time
     * \param end one past the packet's last byte
     * \param last the packet ends the message (so \p end ends it)
     * \param tag the message's tag
     * \param[out] done the message, when this packet completed it
     * \return true if it did
     */
    bool Arrive(
        uint64_t begin, uint64_t newBytes, uint64_t end, bool last, uint64_t tag, Completed& done);

    /** \return messages with some bytes in and some missing */
    uint64_t GetPartial() const;

  private:
    /** What is known of a message not yet complete. */
    struct Partial
    {
        uint64_t end{0};     //!< one past its last byte; 0 until its last packet arrives
        uint64_t tag{0};     //!< its tag
        uint64_t arrived{0}; //!< bytes in
    };

    std::map<uint64_t, Partial> m_partial; //!< by first byte
};

} // namespace ns3

#endif /* MLFABRIC_UNORDERED_MESSAGES_H */
