/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ET_STRING_POOL_H
#define MLFABRIC_ET_STRING_POOL_H

#include <cstdint>
#include <memory>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-chakra
 * Interned, immutable strings for trace nodes.
 *
 * Node names and process-group names repeat heavily in real traces ("aten::mm",
 * "ncclDevKernel_AllReduce", "0"), so each distinct text is stored once, in large
 * blocks, and nodes refer to it by std::string_view. The views stay valid for the
 * life of the pool, which is therefore neither copyable nor movable.
 */
class EtStringPool
{
  public:
    EtStringPool() = default;
    EtStringPool(const EtStringPool&) = delete;
    EtStringPool& operator=(const EtStringPool&) = delete;

    /**
     * \param text any text
     * \return a view of the pool's copy of text, valid as long as the pool lives
     */
    std::string_view Intern(std::string_view text);
    /** \return the number of distinct non-empty strings stored */
    uint64_t GetStringCount() const;
    /** \return the bytes of text stored, without bookkeeping */
    uint64_t GetTextBytes() const;

  private:
    /** \param size bytes needed \return where to copy them, in a block that has room */
    char* Allocate(uint64_t size);

    std::vector<std::unique_ptr<char[]>> m_blocks; //!< shared blocks of short texts
    std::vector<std::unique_ptr<char[]>> m_large;  //!< one block per long text
    uint64_t m_blockUsed{0};                       //!< bytes used in the last block
    uint64_t m_blockSize{0};                       //!< capacity of the last block
    uint64_t m_textBytes{0};                       //!< total text stored
    std::unordered_set<std::string_view> m_index;  //!< views of every stored text
};

} // namespace ns3

#endif /* MLFABRIC_ET_STRING_POOL_H */
