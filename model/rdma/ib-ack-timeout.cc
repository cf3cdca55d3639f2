/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ib-ack-timeout.h"

#include "ns3/abort.h"

namespace ns3
{

Time
IbLocalAckTimeout(uint32_t exponent)
{
    NS_ABORT_MSG_IF(exponent > kIbMaxAckTimeoutExponent, "ACK timeout exponent " << exponent);
    if (exponent == 0)
    {
        return Time::Max();
    }
    return NanoSeconds(4096) * (int64_t{1} << exponent);
}

} // namespace ns3
