/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "resnet50-layers.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ResNet50Layers");

uint64_t
ResNetLayer::Weights() const
{
    return uint64_t{kernel} * kernel * inChannels * outChannels;
}

uint64_t
ResNetLayer::ForwardFlops(uint64_t batch) const
{
    return 2 * Weights() * outSide * outSide * batch;
}

uint64_t
ResNetLayer::ForwardBytes(uint64_t batch, uint64_t elementBytes) const
{
    const uint64_t maps = batch * (uint64_t{inChannels} * inSide * inSide +
                                   uint64_t{outChannels} * outSide * outSide);
    return elementBytes * (maps + Weights());
}

namespace
{

/** \return the layer list, built from the stage description */
std::vector<ResNetLayer>
BuildResNet50()
{
    std::vector<ResNetLayer> layers;
    layers.push_back({"conv1", 7, 3, 64, 224, 112});
    struct Stage
    {
        uint32_t blocks;
        uint32_t width;
        uint32_t stride;
    };
    const Stage stages[] = {{3, 64, 1}, {4, 128, 2}, {6, 256, 2}, {3, 512, 2}};
    uint32_t channels = 64;
    uint32_t side = 56; // after the stem's stride 2 and the 3×3 max-pool's stride 2
    for (uint32_t s = 0; s < 4; ++s)
    {
        const Stage& stage = stages[s];
        const uint32_t out = stage.width * 4;
        for (uint32_t b = 0; b < stage.blocks; ++b)
        {
            const std::string block = "layer" + std::to_string(s + 1) + "." + std::to_string(b);
            const uint32_t stride = b == 0 ? stage.stride : 1;
            const uint32_t outSide = side / stride;
            layers.push_back({block + ".conv1", 1, channels, stage.width, side, side});
            layers.push_back({block + ".conv2", 3, stage.width, stage.width, side, outSide});
            layers.push_back({block + ".conv3", 1, stage.width, out, outSide, outSide});
            if (b == 0)
            {
                layers.push_back({block + ".downsample", 1, channels, out, side, outSide});
            }
            channels = out;
            side = outSide;
        }
    }
    layers.push_back({"fc", 1, channels, 1000, 1, 1});
    return layers;
}

} // namespace

const std::vector<ResNetLayer>&
ResNet50Layers()
{
    static const std::vector<ResNetLayer> layers = BuildResNet50();
    return layers;
}

} // namespace ns3
