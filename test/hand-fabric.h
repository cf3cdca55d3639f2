/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_TEST_HAND_FABRIC_H
#define MLFABRIC_TEST_HAND_FABRIC_H

#include "ns3/fabric.h"
#include "ns3/roce-network.h"
#include "ns3/shortest-path-routing.h"

#include <string>
#include <utility>

namespace ns3
{

/**
 * A fabric drawn by hand for the data-plane tests, installed with its shortest-path
 * routing. Node ids are creation order, as on the packet network; switches take the
 * SharedBufferMmu's BufferBytes default (so a test's Config::SetDefault holds) and NPUs
 * never carry transit traffic.
 */
class HandFabric
{
  public:
    HandFabric()
    {
        m_fabric.SetDefaultSwitchBuffer(0);
    }

    /** \return the node id of a new NPU */
    uint32_t
    AddHost()
    {
        return m_fabric.AddNpu();
    }

    /** \return the node id of a new switch */
    uint32_t
    AddSwitch()
    {
        return m_fabric.AddSwitch("sw" + std::to_string(m_fabric.GetNodeCount()), "switch", 1);
    }

    /**
     * Add a link with rate, delay and loss; ECN and PFC left to the run's defaults.
     * \return the port numbers at \p a and at \p b
     */
    std::pair<uint32_t, uint32_t>
    AddLink(uint32_t a, uint32_t b, uint64_t rateBps, Time delay, double loss = 0)
    {
        LinkSettings s;
        s.rateBps = rateBps;
        s.delayPs = delay.GetPicoSeconds();
        s.lossProbability = loss;
        return AddLink(a, b, s);
    }

    /** Add a link with any settings. \return the port numbers at \p a and at \p b */
    std::pair<uint32_t, uint32_t>
    AddLink(uint32_t a, uint32_t b, const LinkSettings& settings)
    {
        const FabricLink& link = m_fabric.GetLink(m_fabric.AddLink(a, b, settings));
        return {link.portA, link.portB};
    }

    /** Build the fabric into \p net with payload \p mtu per packet. */
    void
    Install(RoceNetwork& net, uint32_t mtu)
    {
        m_fabric.SetNpuForwarding(false);
        net.Install(m_fabric, ComputeShortestPathRouting(m_fabric), mtu);
    }

  private:
    Fabric m_fabric{"hand"};
};

} // namespace ns3

#endif /* MLFABRIC_TEST_HAND_FABRIC_H */
