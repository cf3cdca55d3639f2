/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_RESNET50_LAYERS_H
#define MLFABRIC_RESNET50_LAYERS_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-gen
 * One weighted layer of ResNet-50: a convolution, or the classifier (kernel 1, 1×1 map).
 */
struct ResNetLayer
{
    std::string name;     //!< torchvision's name, e.g. "layer2.0.conv2"
    uint32_t kernel;      //!< kernel side k
    uint32_t inChannels;  //!< input channels
    uint32_t outChannels; //!< output channels
    uint32_t inSide;      //!< input feature-map side
    uint32_t outSide;     //!< output feature-map side

    /** \return weights: k² × in × out */
    uint64_t Weights() const;
    /** \param batch images \return forward FLOPs: 2 × weights × outSide² × batch */
    uint64_t ForwardFlops(uint64_t batch) const;
    /**
     * \param batch images
     * \param elementBytes bytes per element
     * \return bytes of input map, weights and output map
     */
    uint64_t ForwardBytes(uint64_t batch, uint64_t elementBytes) const;
};

/**
 * \ingroup mlfabric-gen
 * The 54 weighted layers of ResNet-50 (He et al., CVPR'16; torchvision's v1.5, which
 * strides the 3×3 convolution of a bottleneck) on 224×224 images, in forward order:
 * the 7×7 stem, 16 bottleneck blocks of three convolutions (1×1, 3×3, 1×1) in stages of
 * 3, 4, 6 and 3 blocks with widths 64, 128, 256 and 512 and expansion 4, a 1×1
 * projection shortcut in the first block of each stage, and the 2048 × 1000 classifier.
 *
 * Their weights total 25,502,912: the gradient volume of the ASTRA-sim 1.0
 * data-parallel ResNet-50 workload (102,011,648 bytes in fp32). Biases and batch-norm
 * parameters, 54,120 more, are not part of it.
 *
 * \return the layers
 */
const std::vector<ResNetLayer>& ResNet50Layers();

} // namespace ns3

#endif /* MLFABRIC_RESNET50_LAYERS_H */
