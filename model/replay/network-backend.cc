/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "network-backend.h"

#include "ns3/input-error.h"

#include <string>

namespace ns3
{

bool
NetworkBackend::CompletesWithoutNetwork(const Message& message,
                                        const MessageCallback& sent,
                                        const MessageCallback& arrived)
{
    const uint32_t ranks = GetRankCount();
    if (message.src >= ranks || message.dst >= ranks)
    {
        throw InputError("message from rank " + std::to_string(message.src) + " to rank " +
                         std::to_string(message.dst) + ": the network has " +
                         std::to_string(ranks) + " ranks");
    }
    if (message.src != message.dst && message.bytes != 0)
    {
        return false;
    }
    // Nothing crosses the network: both sides are done at once.
    Schedule(Time(0),
             [message, sent, arrived]
             {
                 if (arrived)
                 {
                     arrived(message);
                 }
                 if (sent)
                 {
                     sent(message);
                 }
             });
    return true;
}

} // namespace ns3
