/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-group-text.h"

#include "ns3/group-decomposition.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/replay-plan-text.h"

#include <algorithm>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReplayGroupText");

namespace
{

/** The collectives whose algorithms the system JSON chooses. */
const std::vector<std::pair<CollectiveType, const char*>>&
NativeTypes()
{
    static const std::vector<std::pair<CollectiveType, const char*>> types = {
        {CollectiveType::AllReduce, "all-reduce"},
        {CollectiveType::ReduceScatter, "reduce-scatter"},
        {CollectiveType::AllGather, "all-gather"},
        {CollectiveType::AllToAll, "all-to-all"}};
    return types;
}

/** \return "dimensions 0 (2 of 4) x 1 (4 of 4)" or why the group is no sub-grid */
std::string
Span(const CommGroup& group, const std::vector<uint32_t>& fabricDims)
{
    const GroupDecomposition layout = DecomposeGroup(group.GetRanks(), fabricDims);
    if (!layout.subGrid)
    {
        return "no sub-grid";
    }
    std::string text;
    uint32_t spanned = 0;
    for (uint32_t d = 0; d < layout.dimensions.size(); ++d)
    {
        const auto& dim = layout.dimensions[d];
        if (dim.size > 1)
        {
            text += (spanned++ ? " x " : "") + std::to_string(d) + " (" + std::to_string(dim.size) +
                    " of " + std::to_string(dim.span) + ")";
        }
    }
    if (spanned == 0)
    {
        return "one NPU";
    }
    return (spanned == 1 ? "dimension " : "dimensions ") + text;
}

/** \return numeric group names in numeric order, then the others */
bool
GroupOrder(const std::string& a, const std::string& b)
{
    const bool an = !a.empty() && std::all_of(a.begin(), a.end(), ::isdigit);
    const bool bn = !b.empty() && std::all_of(b.begin(), b.end(), ::isdigit);
    if (an != bn)
    {
        return an;
    }
    if (an && a.size() != b.size())
    {
        return a.size() < b.size();
    }
    return a < b;
}

} // namespace

std::vector<std::string>
DescribeGroupCollectives(const CollectivePlanner& planner, const CommGroupTable& groups)
{
    std::vector<std::string> names;
    for (const auto& [name, group] : groups.GetGroups())
    {
        names.push_back(name);
    }
    std::sort(names.begin(), names.end(), GroupOrder);
    std::vector<std::string> order;                         // distinct texts, first seen first
    std::map<std::string, std::vector<std::string>> byText; // text -> group names
    const SystemConfig& config = planner.GetConfig();
    for (const std::string& name : names)
    {
        const auto& group = groups.GetGroups().at(name);
        std::string text = std::to_string(group->GetSize()) + " ranks";
        if (group->GetSize() >= planner.GetWorldSize())
        {
            text += ", the world: as the default group";
        }
        else
        {
            text += " on " + Span(*group, planner.GetPhysicalDimensions());
            std::vector<std::string> notes;
            for (const auto& [type, label] : NativeTypes())
            {
                if (config.GetImplementation(type).empty())
                {
                    continue;
                }
                CollectivePlanner::Request request;
                request.type = type;
                request.bytes = 1 << 20;
                request.group = group;
                request.where = "group '" + name + "'";
                try
                {
                    const auto plan = planner.Plan(request);
                    text += std::string(", ") + label + " " + DescribeCollectiveAlgorithm(*plan);
                    for (const std::string& note : plan->notes)
                    {
                        // Notes name their group; the line names it already.
                        const auto colon = note.find(": ");
                        notes.push_back(colon == std::string::npos ? note : note.substr(colon + 2));
                    }
                }
                catch (const InputError& e)
                {
                    text += std::string(", ") + label + " cannot run (" + e.what() + ")";
                }
            }
            std::sort(notes.begin(), notes.end());
            notes.erase(std::unique(notes.begin(), notes.end()), notes.end());
            for (const std::string& note : notes)
            {
                text += "; " + note;
            }
        }
        auto& members = byText[text];
        if (members.empty())
        {
            order.push_back(text);
        }
        members.push_back(name);
    }
    std::vector<std::string> lines;
    for (const std::string& text : order)
    {
        const auto& members = byText[text];
        std::string who = members.size() == 1 ? "group " : "groups ";
        for (size_t i = 0; i < members.size(); ++i)
        {
            who += (i ? "," : "") + members[i];
        }
        lines.push_back(who + ": " + text);
    }
    // The world's collectives under nccl: its choice per size class.
    std::string world;
    for (const auto& [type, label] : NativeTypes())
    {
        const auto& listed = config.GetImplementation(type);
        if (listed.size() != 1 || !listed.front().nccl)
        {
            continue;
        }
        CollectivePlanner::Request request;
        request.type = type;
        request.bytes = 1 << 20;
        request.where = "the world";
        try
        {
            const auto plan = planner.Plan(request);
            for (const std::string& note : plan->notes)
            {
                const auto colon = note.find(": ");
                world += (world.empty() ? "" : "; ") +
                         (colon == std::string::npos ? note : note.substr(colon + 2));
            }
        }
        catch (const InputError& e)
        {
            world +=
                (world.empty() ? "" : "; ") + std::string(label) + " cannot run (" + e.what() + ")";
        }
    }
    if (!world.empty())
    {
        lines.push_back("world: " + world);
    }
    return lines;
}

} // namespace ns3
