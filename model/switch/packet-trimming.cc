/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "packet-trimming.h"

#include "ns3/roce-header.h"

namespace ns3
{

uint32_t
TrimToHeader(RoceFrame& frame, uint8_t priority)
{
    RoceHeader& h = *frame.header;
    const uint32_t cut = h.payload;
    h.payload = 0;
    h.sackBytes = cut; // the header still says which bytes it carried
    h.Set(RoceHeader::TRIMMED);
    h.priority = priority;
    frame.priority = priority;
    frame.payload = 0;
    frame.wireBytes = h.GetWireBytes();
    frame.linkFramed = false;
    return cut;
}

} // namespace ns3
