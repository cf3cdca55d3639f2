/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-double-binary-tree.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DoubleBinaryTreePhase");

DoubleBinaryTreePhase::TreeNode
DoubleBinaryTreePhase::Locate(uint32_t index, uint32_t n, bool rootLast)
{
    const int64_t root = rootLast ? n - 1 : 0;
    int64_t lo = rootLast ? 0 : 1;
    int64_t hi = rootLast ? static_cast<int64_t>(n) - 2 : static_cast<int64_t>(n) - 1;
    TreeNode node;
    if (index == root)
    {
        const int64_t child = (lo + hi) / 2;
        (rootLast ? node.left : node.right) = child;
        return node;
    }
    // Descend the complete in-order tree of the other positions: its root is the middle.
    int64_t parent = root;
    while (lo <= hi)
    {
        const int64_t mid = (lo + hi) / 2;
        if (index == mid)
        {
            node.parent = parent;
            node.left = lo <= mid - 1 ? (lo + mid - 1) / 2 : -1;
            node.right = mid + 1 <= hi ? (mid + 1 + hi) / 2 : -1;
            return node;
        }
        parent = mid;
        (index < mid ? hi : lo) = index < mid ? mid - 1 : mid + 1;
    }
    return node;
}

DoubleBinaryTreePhase::DoubleBinaryTreePhase(const PhaseContext& context)
    : PhaseExecution(context)
    , m_node(Locate(context.index, context.size, context.chunk % 2 == 0))
{
    m_children = (m_node.left >= 0 ? 1 : 0) + (m_node.right >= 0 ? 1 : 0);
}

void
DoubleBinaryTreePhase::Start(PhaseIo& io)
{
    if (m_children == 0)
    {
        io.Wait(Context().handoffNs);
        return;
    }
    m_state = State::WaitingForChildren;
    if (m_node.left >= 0)
    {
        PostReceive(static_cast<uint32_t>(m_node.left), io);
    }
    if (m_node.right >= 0)
    {
        PostReceive(static_cast<uint32_t>(m_node.right), io);
    }
}

void
DoubleBinaryTreePhase::OnReceived(uint32_t peer, PhaseIo& io)
{
    const PhaseContext& ctx = Context();
    const uint64_t bytes = ctx.spec.inputBytes;
    if (m_state == State::WaitingForChildren || m_state == State::ReducingChildren)
    {
        ++m_childrenReceived;
        m_state = State::ReducingChildren;
        io.Wait(ctx.handoffNs + ctx.ReductionNs(bytes));
        return;
    }
    // The result from the parent: a leaf only hands it over, others reduce it too.
    const bool leaf = m_children == 0;
    m_state = leaf ? State::Ending : State::ForwardingDown;
    io.Wait(ctx.handoffNs + (leaf ? 0 : ctx.ReductionNs(bytes)));
}

void
DoubleBinaryTreePhase::OnTimer(PhaseIo& io)
{
    const uint64_t bytes = Context().spec.inputBytes;
    switch (m_state)
    {
    case State::Begin: // a leaf's hand-off of its data
        io.Send(static_cast<uint32_t>(m_node.parent), bytes);
        m_state = State::WaitingForParent;
        PostReceive(static_cast<uint32_t>(m_node.parent), io);
        return;
    case State::ReducingChildren:
        if (++m_reductionsFinished < m_children)
        {
            return;
        }
        if (m_node.parent < 0)
        {
            m_state = State::ForwardingDown;
            OnTimer(io);
            return;
        }
        io.Send(static_cast<uint32_t>(m_node.parent), bytes);
        m_state = State::WaitingForParent;
        PostReceive(static_cast<uint32_t>(m_node.parent), io);
        return;
    case State::ForwardingDown:
        if (m_node.left >= 0)
        {
            io.Send(static_cast<uint32_t>(m_node.left), bytes);
        }
        if (m_node.right >= 0)
        {
            io.Send(static_cast<uint32_t>(m_node.right), bytes);
        }
        Finish();
        return;
    case State::Ending:
        Finish();
        return;
    default:
        return;
    }
}

} // namespace ns3
