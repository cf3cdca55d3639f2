/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_PFC_HEADER_H
#define MLFABRIC_PFC_HEADER_H

#include "ns3/header.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-link
 * IEEE 802.1Qbb priority flow control frame body (MAC control opcode 0x0101).
 *
 * A class-enable vector says which of the eight priorities the frame addresses; each
 * enabled priority carries a pause time in quanta of 512 bit times at the link rate.
 * Zero quanta resume the priority at once.
 */
class PfcHeader : public Header
{
  public:
    /** Quanta a pause frame carries by default: the largest, refreshed while congested. */
    static constexpr uint16_t kMaxQuanta = 0xFFFF;
    /** Bit times in one pause quantum. */
    static constexpr uint32_t kBitsPerQuantum = 512;

    /** A frame that addresses no priority; SetQuanta() adds them. */
    PfcHeader() = default;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    /** \return GetTypeId(), for a header read through a Header reference */
    TypeId GetInstanceTypeId() const override;
    /** Write "PFC" and the quanta of each addressed priority. \param os the stream */
    void Print(std::ostream& os) const override;
    /** \return 20: opcode, class-enable vector and eight quanta, two bytes each */
    uint32_t GetSerializedSize() const override;
    /**
     * Write the 802.1Qbb fields in network order: opcode 0x0101, class-enable, quanta.
     * \param start where the header goes
     */
    void Serialize(Buffer::Iterator start) const override;
    /**
     * Read what Serialize() wrote; the opcode is not checked.
     * \param start where the header begins
     * \return the bytes read
     */
    uint32_t Deserialize(Buffer::Iterator start) override;

    /**
     * Address a priority.
     * \param priority 0..7
     * \param quanta pause time in quanta; 0 resumes
     */
    void SetQuanta(uint8_t priority, uint16_t quanta);
    /** \param priority 0..7 \return true if \p priority is addressed by this frame */
    bool IsEnabled(uint8_t priority) const;
    /** \param priority 0..7 \return the quanta for \p priority */
    uint16_t GetQuanta(uint8_t priority) const;

  private:
    uint16_t m_classEnable{0};          //!< bit p set: priority p addressed
    std::array<uint16_t, 8> m_quanta{}; //!< pause time per priority
};

} // namespace ns3

#endif /* MLFABRIC_PFC_HEADER_H */
