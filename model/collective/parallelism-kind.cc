/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "parallelism-kind.h"

#include "ns3/log.h"

#include <algorithm>
#include <cctype>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ParallelismKind");

std::string
ParallelismKindOf(const std::string& description)
{
    std::string upper = description;
    std::transform(upper.begin(),
                   upper.end(),
                   upper.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    for (const char* kind : {"TP", "DP", "PP", "EP", "WORLD"})
    {
        if (upper == kind)
        {
            std::string lower = kind;
            std::transform(lower.begin(),
                           lower.end(),
                           lower.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
            return lower;
        }
    }
    auto has = [&](const char* word)
    {
        return upper.find(word) != std::string::npos;
    };
    if (upper == "DEFAULT_PG")
    {
        return "world";
    }
    if (has("EXPERT_DATA"))
    {
        return "dp";
    }
    if (has("EXPERT"))
    {
        return "ep";
    }
    if (has("TENSOR"))
    {
        return "tp";
    }
    if (has("PIPELINE"))
    {
        return "pp";
    }
    if (has("DATA") || has("CONTEXT"))
    {
        return "dp";
    }
    return "";
}

std::string
ReportedKind(const CommGroup* group, uint32_t worldSize)
{
    if (!group)
    {
        return "world";
    }
    if (!group->GetKind().empty())
    {
        return group->GetKind();
    }
    return group->GetSize() >= worldSize ? "world" : "group";
}

} // namespace ns3
