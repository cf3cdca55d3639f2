/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-backend-attach.h"

namespace ns3
{

void
AttachRoceNetwork(Ptr<RdmaNetworkBackend> backend,
                  RoceNetwork& net,
                  const std::vector<uint32_t>& rankNode)
{
    std::vector<Ptr<RdmaNic>> nics;
    for (uint32_t node : rankNode)
    {
        nics.push_back(net.GetNic(node));
    }
    backend->Attach(nics,
                    [&net, rankNode](uint32_t src, uint32_t dst, uint8_t priority)
                    { return net.Connect(rankNode.at(src), rankNode.at(dst), priority); });
}

} // namespace ns3
