/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_COLLECTIVE_DOUBLE_BINARY_TREE_H
#define MLFABRIC_COLLECTIVE_DOUBLE_BINARY_TREE_H

#include "ns3/collective-phase.h"

namespace ns3
{

/**
 * \ingroup mlfabric-collective
 * ASTRA-sim's double-binary-tree all-reduce on n = 2^L positions.
 *
 * Positions are the in-order numbering of a tree whose root has one child, a complete
 * binary tree of the other n-1 positions: the root is the last position for even chunks
 * and the first for odd chunks, so consecutive chunks use the two trees. Every node
 * reduces what its children send (D bytes each), passes it to its parent, and passes the
 * result from its parent down to its children; a leaf sends its D bytes up and waits for
 * the result.
 */
class DoubleBinaryTreePhase : public PhaseExecution
{
  public:
    /** \param context the phase as seen from this rank; size a power of two */
    explicit DoubleBinaryTreePhase(const PhaseContext& context);

    void Start(PhaseIo& io) override;
    void OnTimer(PhaseIo& io) override;

    /** Where a position sits in a tree. */
    struct TreeNode
    {
        int64_t parent{-1}; //!< -1 for the root
        int64_t left{-1};   //!< -1 if none
        int64_t right{-1};  //!< -1 if none
    };

    /**
     * \param index a position
     * \param n positions, a power of two
     * \param rootLast true for the tree rooted at the last position
     * \return the position's neighbours
     */
    static TreeNode Locate(uint32_t index, uint32_t n, bool rootLast);

  protected:
    void OnReceived(uint32_t peer, PhaseIo& io) override;

  private:
    /** Where the node stands. */
    enum class State : uint8_t
    {
        Begin,
        WaitingForChildren,
        ReducingChildren,
        WaitingForParent,
        ForwardingDown,
        Ending,
    };

    TreeNode m_node;                  //!< this position's neighbours
    uint32_t m_children{0};           //!< children in the tree
    uint32_t m_childrenReceived{0};   //!< children's data received
    uint32_t m_reductionsFinished{0}; //!< children's reductions done
    State m_state{State::Begin};      //!< progress
};

} // namespace ns3

#endif /* MLFABRIC_COLLECTIVE_DOUBLE_BINARY_TREE_H */
