/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_RDMA_BACKEND_ATTACH_H
#define MLFABRIC_RDMA_BACKEND_ATTACH_H

#include "ns3/ptr.h"
#include "ns3/rdma-network-backend.h"
#include "ns3/roce-network.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Put an RdmaNetworkBackend over a built RoCE network: rank r is the host \p rankNode[r],
 * and queue pairs open on the network's routed paths (RoceNetwork::Connect).
 * \param backend the backend
 * \param net the network; it must outlive the simulation
 * \param rankNode node id of each rank
 */
void AttachRoceNetwork(Ptr<RdmaNetworkBackend> backend,
                       RoceNetwork& net,
                       const std::vector<uint32_t>& rankNode);

} // namespace ns3

#endif /* MLFABRIC_RDMA_BACKEND_ATTACH_H */
