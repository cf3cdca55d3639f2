/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-type.h"

#include "ns3/input-error.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveType");

std::string
ToString(CollectiveType type)
{
    switch (type)
    {
    case CollectiveType::AllReduce:
        return "ALL_REDUCE";
    case CollectiveType::Reduce:
        return "REDUCE";
    case CollectiveType::AllGather:
        return "ALL_GATHER";
    case CollectiveType::Gather:
        return "GATHER";
    case CollectiveType::Scatter:
        return "SCATTER";
    case CollectiveType::Broadcast:
        return "BROADCAST";
    case CollectiveType::AllToAll:
        return "ALL_TO_ALL";
    case CollectiveType::ReduceScatter:
        return "REDUCE_SCATTER";
    case CollectiveType::ReduceScatterBlock:
        return "REDUCE_SCATTER_BLOCK";
    case CollectiveType::Barrier:
        return "BARRIER";
    }
    return "UNKNOWN";
}

CollectiveType
CollectiveTypeFromChakra(int64_t value, const std::string& where)
{
    if (value < 0 || value > static_cast<int64_t>(CollectiveType::Barrier))
    {
        throw InputError(where + ": comm_type " + std::to_string(value) +
                         " is not a Chakra collective (0..9)");
    }
    return static_cast<CollectiveType>(value);
}

bool
IsNativeAstraCollective(CollectiveType type)
{
    return type == CollectiveType::AllReduce || type == CollectiveType::ReduceScatter ||
           type == CollectiveType::AllGather || type == CollectiveType::AllToAll;
}

} // namespace ns3
