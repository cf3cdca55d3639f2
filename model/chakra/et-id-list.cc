/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "et-id-list.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EtIdList");

namespace
{

/** \return the heap capacity for a spilled list of `size` ids: the next power of two */
uint64_t
HeapCapacity(uint32_t size)
{
    uint64_t capacity = 2;
    while (capacity < size)
    {
        capacity *= 2;
    }
    return capacity;
}

} // namespace

EtIdList::EtIdList(std::initializer_list<uint64_t> ids)
{
    for (uint64_t id : ids)
    {
        push_back(id);
    }
}

EtIdList::EtIdList(const EtIdList& other)
{
    *this = other;
}

EtIdList::EtIdList(EtIdList&& other) noexcept
    : m_size(other.m_size)
{
    m_heap = other.m_heap; // copies the inline id too: both members are 8 bytes
    other.m_size = 0;
}

EtIdList&
EtIdList::operator=(const EtIdList& other)
{
    if (this == &other)
    {
        return *this;
    }
    clear();
    if (other.OnHeap())
    {
        m_heap = new uint64_t[HeapCapacity(other.m_size)];
        std::copy(other.begin(), other.end(), m_heap);
    }
    else
    {
        m_inline = other.m_inline;
    }
    m_size = other.m_size;
    return *this;
}

EtIdList&
EtIdList::operator=(EtIdList&& other) noexcept
{
    if (this != &other)
    {
        clear();
        m_size = other.m_size;
        m_heap = other.m_heap;
        other.m_size = 0;
    }
    return *this;
}

EtIdList::~EtIdList()
{
    clear();
}

bool
EtIdList::OnHeap() const
{
    return m_size >= 2;
}

void
EtIdList::push_back(uint64_t id)
{
    NS_ABORT_MSG_IF(m_size == std::numeric_limits<uint32_t>::max(), "EtIdList overflow");
    if (m_size == 0)
    {
        m_inline = id;
    }
    else if (m_size == 1)
    {
        uint64_t first = m_inline;
        m_heap = new uint64_t[HeapCapacity(2)];
        m_heap[0] = first;
        m_heap[1] = id;
    }
    else
    {
        if (HeapCapacity(m_size + 1) != HeapCapacity(m_size))
        {
            auto grown = new uint64_t[HeapCapacity(m_size + 1)];
            std::copy(m_heap, m_heap + m_size, grown);
            delete[] m_heap;
            m_heap = grown;
        }
        m_heap[m_size] = id;
    }
    ++m_size;
}

void
EtIdList::clear()
{
    if (OnHeap())
    {
        delete[] m_heap;
    }
    m_size = 0;
}

uint32_t
EtIdList::size() const
{
    return m_size;
}

bool
EtIdList::empty() const
{
    return m_size == 0;
}

const uint64_t*
EtIdList::begin() const
{
    return OnHeap() ? m_heap : &m_inline;
}

const uint64_t*
EtIdList::end() const
{
    return begin() + m_size;
}

uint64_t
EtIdList::operator[](uint32_t i) const
{
    return begin()[i];
}

bool
EtIdList::operator==(const EtIdList& other) const
{
    return m_size == other.m_size && std::equal(begin(), end(), other.begin());
}

bool
EtIdList::operator!=(const EtIdList& other) const
{
    return !(*this == other);
}

} // namespace ns3
