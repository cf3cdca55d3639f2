/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_DLRM_GENERATOR_H
#define MLFABRIC_DLRM_GENERATOR_H

#include "ns3/device-model.h"
#include "ns3/gen-workload.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-gen
 * Parameters of DLRM training with model-parallel embeddings and data-parallel MLPs.
 */
struct DlrmConfig
{
    uint32_t npus{8};                              //!< ranks
    uint64_t batch{128};                           //!< samples per rank per iteration, b
    uint64_t denseFeatures{13};                    //!< dense inputs of the bottom MLP
    uint32_t tables{64};                           //!< embedding tables T, spread evenly
    uint64_t embeddingDim{64};                     //!< embedding dimension d
    uint32_t pooling{1};                           //!< lookups per table per sample
    std::vector<uint64_t> bottomMlp{512, 256, 64}; //!< bottom MLP widths, ending in d
    std::vector<uint64_t> topMlp{512, 256, 1};     //!< top MLP widths
    uint32_t precision{4};                         //!< bytes per element
    uint32_t iterations{1};                        //!< training iterations
    DeviceModel device;                            //!< compute timing

    /**
     * \throws InputError naming the parameter: npus below 2, tables not a multiple of
     *         npus, a size of 0, an empty MLP, a bottom MLP not ending in the embedding
     *         dimension, sizes beyond the bounds that keep FLOP counts in 64 bits
     */
    void Validate() const;
    /** \return the top MLP's input width: d + T(T+1)/2 (pairwise dot interactions) */
    uint64_t InteractionWidth() const;
};

/**
 * \ingroup mlfabric-gen
 * Generate DLRM training (Naumov et al., 2019) in its hybrid-parallel layout.
 *
 * Every rank holds T / npus whole tables and a replica of both MLPs. Per iteration:
 * the rank looks up its tables for the whole global batch, and one all-to-all
 * (`comm_size` b·T·d·p, every rank's pooled embeddings of its b samples) gives each
 * rank the embeddings of its own samples, overlapped with the bottom MLP; the dot
 * interaction and the top MLP follow. Backward runs the top MLP, the interaction, a
 * second all-to-all of the same size returning embedding gradients to the table
 * owners, and the bottom MLP; each MLP layer's gradient (in·out + out parameters) is
 * all-reduced as soon as computed, so 2 all-to-alls and (bottom + top layers)
 * all-reduces run per iteration, all over one group of every rank.
 *
 * \param config the parameters, validated here
 * \return the workload
 * \throws InputError for invalid parameters
 */
GenWorkload GenerateDlrm(const DlrmConfig& config);

} // namespace ns3

#endif /* MLFABRIC_DLRM_GENERATOR_H */
