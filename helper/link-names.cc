/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "link-names.h"

#include <tuple>
#include <utility>

namespace ns3
{

namespace
{

/** \return true if \p link belongs to a scale-up domain */
bool
IsScaleUpLink(const Fabric& fabric, uint32_t link)
{
    if (fabric.GetLinkScaleUp(link) != nullptr)
    {
        return true;
    }
    // A scale-up dimension modelled with RoCE links keeps its name.
    const int32_t dim = fabric.GetLink(link).dimension;
    return dim >= 0 && static_cast<size_t>(dim) < fabric.GetDimensions().size() &&
           fabric.GetDimensions()[dim].name == "scale-up";
}

/** Name and role of \p node as an end of \p link. */
std::pair<std::string, std::string>
EndOf(const Fabric& fabric, uint32_t node, uint32_t link)
{
    const FabricNode& n = fabric.GetNode(node);
    if (n.kind == FabricNodeKind::Switch)
    {
        return {n.name, n.role};
    }
    const std::string role = IsScaleUpLink(fabric, link) ? "npu" : "nic";
    return {role + std::to_string(n.rank), role};
}

} // namespace

std::string
LinkDirectionName::GetName() const
{
    return from + ">" + to;
}

std::string
LinkDirectionName::GetRoles() const
{
    return fromRole + ">" + toRole;
}

LinkDirectionName
NameLinkDirection(const Fabric& fabric, uint32_t link, bool fromA)
{
    const FabricLink& l = fabric.GetLink(link);
    const auto a = EndOf(fabric, l.nodeA, link);
    const auto b = EndOf(fabric, l.nodeB, link);
    LinkDirectionName name;
    std::tie(name.from, name.fromRole) = fromA ? a : b;
    std::tie(name.to, name.toRole) = fromA ? b : a;
    return name;
}

} // namespace ns3
