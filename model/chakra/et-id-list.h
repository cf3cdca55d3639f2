/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ET_ID_LIST_H
#define MLFABRIC_ET_ID_LIST_H

#include <cstdint>
#include <initializer_list>

namespace ns3
{

/**
 * \ingroup mlfabric-chakra
 * A list of node ids sized for trace dependencies: 16 bytes, one id stored inline.
 *
 * Most nodes of real traces have zero or one dependency of each kind, so keeping the
 * first id inline avoids one heap block per node; longer lists spill to the heap with
 * a power-of-two capacity. The interface follows the standard containers so that
 * range-for and comparisons work as usual.
 */
class EtIdList
{
  public:
    EtIdList() = default;
    /** \param ids the initial ids, in order */
    EtIdList(std::initializer_list<uint64_t> ids);
    /** \param other the list to copy */
    EtIdList(const EtIdList& other);
    /** \param other the list to take over; left empty */
    EtIdList(EtIdList&& other) noexcept;
    /** \param other the list to copy \return this list */
    EtIdList& operator=(const EtIdList& other);
    /** \param other the list to take over; left empty \return this list */
    EtIdList& operator=(EtIdList&& other) noexcept;
    /** Release the heap block, if the list has one. */
    ~EtIdList();

    /** \param id appended at the end */
    void push_back(uint64_t id);
    /** Remove every id and release the heap block. */
    void clear();
    /** \return the number of ids */
    uint32_t size() const;
    /** \return true if the list holds no id */
    bool empty() const;
    /** \return pointer to the first id */
    const uint64_t* begin() const;
    /** \return pointer past the last id */
    const uint64_t* end() const;
    /** \param i position, below size() \return the id at position i */
    uint64_t operator[](uint32_t i) const;
    /** \param other list to compare \return true if both hold the same ids in order */
    bool operator==(const EtIdList& other) const;
    /** \param other list to compare \return true if the lists differ */
    bool operator!=(const EtIdList& other) const;

  private:
    /** \return true while the ids live in m_heap rather than m_inline */
    bool OnHeap() const;

    uint32_t m_size{0}; //!< number of ids
    union
    {
        uint64_t m_inline; //!< the single id when m_size <= 1
        uint64_t* m_heap;  //!< the ids when m_size >= 2
    };
};

} // namespace ns3

#endif /* MLFABRIC_ET_ID_LIST_H */
