/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ONE_F_ONE_B_H
#define MLFABRIC_ONE_F_ONE_B_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-gen
 * One step of a pipeline stage: the forward or backward pass of one micro-batch.
 */
struct PipelineStep
{
    bool forward{true};     //!< forward pass (else backward)
    uint32_t microBatch{0}; //!< micro-batch index

    /** \param other step to compare \return true if both are the same step */
    bool operator==(const PipelineStep& other) const;
};

/**
 * \ingroup mlfabric-gen
 * The order in which one stage runs its passes under the 1F1B schedule
 * (PipeDream-Flush, as in Megatron-LM).
 *
 * Stage s of P first runs min(P − 1 − s, M) forward passes (warm-up), then alternates
 * one forward and one backward until every forward is done (steady state), then runs
 * the remaining backwards (cool-down). Backwards run in micro-batch order, so at most
 * P − s micro-batches are in flight on stage s.
 *
 * \param stage the stage, below stages
 * \param stages number of pipeline stages P
 * \param microBatches number of micro-batches M
 * \return 2M steps
 */
std::vector<PipelineStep> OneFOneBSchedule(uint32_t stage, uint32_t stages, uint32_t microBatches);

} // namespace ns3

#endif /* MLFABRIC_ONE_F_ONE_B_H */
