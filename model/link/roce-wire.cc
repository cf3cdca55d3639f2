/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "roce-wire.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceWire");

namespace wire
{

namespace
{
Format g_format = Format::RoceV2; //!< chosen once per run, before packets exist
} // namespace

void
SetFormat(Format format)
{
    g_format = format;
}

Format
GetFormat()
{
    return g_format;
}

uint32_t
PhyOverheadBytes()
{
    return g_format == Format::RoceV2 ? kPhyOverhead : 0;
}

uint32_t
PfcWireBytes()
{
    return g_format == Format::RoceV2 ? kPfcWireBytes : peer::kMinControl;
}

} // namespace wire

} // namespace ns3
