/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-phase-factory.h"

#include "ns3/collective-barrier.h"
#include "ns3/collective-chain.h"
#include "ns3/collective-direct.h"
#include "ns3/collective-double-binary-tree.h"
#include "ns3/collective-halving-doubling.h"
#include "ns3/collective-in-switch.h"
#include "ns3/collective-pat.h"
#include "ns3/collective-ring.h"
#include "ns3/collective-rooted-direct.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectivePhaseFactory");

std::unique_ptr<PhaseExecution>
CreatePhaseExecution(const PhaseContext& context)
{
    switch (context.spec.op)
    {
    case CollectiveType::Broadcast:
    case CollectiveType::Reduce:
        return std::make_unique<ChainPhase>(context);
    case CollectiveType::Gather:
    case CollectiveType::Scatter:
        return std::make_unique<RootedDirectPhase>(context);
    case CollectiveType::Barrier:
        return std::make_unique<BarrierPhase>(context);
    default:
        break;
    }
    switch (context.spec.algorithm.algorithm)
    {
    case CollectiveAlgorithm::Direct:
        return std::make_unique<DirectPhase>(context);
    case CollectiveAlgorithm::HalvingDoubling:
        return std::make_unique<HalvingDoublingPhase>(context);
    case CollectiveAlgorithm::DoubleBinaryTree:
        return std::make_unique<DoubleBinaryTreePhase>(context);
    case CollectiveAlgorithm::Nvls:
    case CollectiveAlgorithm::InNetwork:
        return std::make_unique<InSwitchPhase>(context);
    case CollectiveAlgorithm::Pat:
        return std::make_unique<PatPhase>(context);
    case CollectiveAlgorithm::Ring:
        break;
    }
    return std::make_unique<RingPhase>(context);
}

} // namespace ns3
