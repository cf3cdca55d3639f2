/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_SWITCH_PIPELINE_H
#define MLFABRIC_SWITCH_PIPELINE_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/roce-port.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-switch
 * The time a packet spends inside a switch beyond queueing: the forwarding pipeline's
 * latency, and whether the switch waits for the whole frame before forwarding it.
 *
 * The latency is charged at the ingress port (RocePort::PipelineLatency), so a packet
 * occupies no buffer while in the pipeline. In cut-through mode an ingress port hands
 * a frame on once its first CutThroughBytes have arrived (RocePort::CutThroughBytes);
 * like real cut-through switches, a port falls back to store-and-forward when the
 * switch has a faster port, since a faster egress would otherwise finish a frame
 * before its last bit arrived.
 */
class SwitchPipeline : public Object
{
  public:
    /** How the switch forwards a frame. */
    enum Mode
    {
        STORE_AND_FORWARD, //!< after the frame's last bit
        CUT_THROUGH,       //!< after its first CutThroughBytes
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /** \return the forwarding pipeline latency */
    Time GetLatency() const;
    /** \return the forwarding mode */
    Mode GetMode() const;
    /** \return bytes a cut-through port waits for */
    uint32_t GetCutThroughBytes() const;

    /**
     * Set the pipeline latency and forwarding mode of a switch's ports.
     * \param ports the switch's Ethernet ports (scale-up ports keep their own latency)
     * \return the number of ports left store-and-forward in cut-through mode because the
     *         switch has a faster port
     */
    uint32_t Apply(const std::vector<Ptr<RocePort>>& ports) const;

  private:
    Time m_latency;             //!< forwarding pipeline latency
    Mode m_mode;                //!< forwarding mode
    uint32_t m_cutThroughBytes; //!< bytes a cut-through port waits for
};

} // namespace ns3

#endif // MLFABRIC_SWITCH_PIPELINE_H
