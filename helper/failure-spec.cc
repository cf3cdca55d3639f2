/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "failure-spec.h"

#include "ns3/input-error.h"
#include "ns3/units.h"

#include <algorithm>

namespace ns3
{

namespace
{

/** \return the links joining nodes \p a and \p b, in link order */
std::vector<uint32_t>
LinksBetween(const Fabric& fabric, uint32_t a, uint32_t b)
{
    std::vector<uint32_t> links;
    for (const auto& port : fabric.GetPorts(a))
    {
        if (port.peer == b)
        {
            links.push_back(port.link);
        }
    }
    std::sort(links.begin(), links.end());
    return links;
}

/** \return node \p name's id, or throw naming the option */
uint32_t
NodeNamed(const Fabric& fabric, const std::string& name, const std::string& option)
{
    const uint32_t node = fabric.FindNode(name);
    if (node == Fabric::kNoNode)
    {
        throw InputError(option + ": fabric '" + fabric.GetName() + "' has no node '" + name + "'");
    }
    return node;
}

/** Fill \p spec's links from a "a--b[/k]" name. */
void
ReadLink(const std::string& name,
         const Fabric& fabric,
         const std::string& option,
         FailureSpec& spec)
{
    const size_t sep = name.find("--");
    std::string second = name.substr(sep + 2);
    int64_t index = -1;
    const size_t slash = second.rfind('/');
    if (slash != std::string::npos)
    {
        const std::string k = second.substr(slash + 1);
        if (k.empty() || k.find_first_not_of("0123456789") != std::string::npos || k.size() > 6)
        {
            throw InputError(option + ": '/" + k + "' is not a link index");
        }
        index = std::stoll(k);
        second = second.substr(0, slash);
    }
    const uint32_t a = NodeNamed(fabric, name.substr(0, sep), option);
    const uint32_t b = NodeNamed(fabric, second, option);
    const auto links = LinksBetween(fabric, a, b);
    if (links.empty())
    {
        throw InputError(option + ": no link joins '" + name.substr(0, sep) + "' and '" + second +
                         "'");
    }
    if (index < 0 && links.size() > 1)
    {
        throw InputError(option + ": " + std::to_string(links.size()) + " links join '" +
                         name.substr(0, sep) + "' and '" + second + "'; name one as " + name +
                         "/0 .. /" + std::to_string(links.size() - 1));
    }
    if (index >= static_cast<int64_t>(links.size()))
    {
        throw InputError(option + ": only " + std::to_string(links.size()) +
                         " links join the two nodes (/0 .. /" + std::to_string(links.size() - 1) +
                         ")");
    }
    spec.links.push_back(links[index < 0 ? 0 : index]);
}

} // namespace

std::string
FailureLinkName(const Fabric& fabric, uint32_t link)
{
    const FabricLink& l = fabric.GetLink(link);
    std::string name = fabric.GetNode(l.nodeA).name + "--" + fabric.GetNode(l.nodeB).name;
    const auto parallel = LinksBetween(fabric, l.nodeA, l.nodeB);
    if (parallel.size() > 1)
    {
        const auto at = std::find(parallel.begin(), parallel.end(), link) - parallel.begin();
        name += "/" + std::to_string(at);
    }
    return name;
}

FailureSpec
ParseFailureSpec(const std::string& value, const Fabric& fabric)
{
    const std::string option = "--fail=" + value;
    FailureSpec spec;
    spec.text = value;
    const size_t at = value.find('@');
    if (at == std::string::npos || at == 0)
    {
        throw InputError(option + ": expected <link or switch>@<time>[,up@<time>]");
    }
    spec.target = value.substr(0, at);
    std::string rest = value.substr(at + 1);
    std::string upText;
    const size_t comma = rest.find(',');
    if (comma != std::string::npos)
    {
        const std::string tail = rest.substr(comma + 1);
        if (tail.rfind("up@", 0) != 0)
        {
            throw InputError(option + ": after the comma expected up@<time> (got '" + tail + "')");
        }
        upText = tail.substr(3);
        rest = rest.substr(0, comma);
    }
    spec.down = ParseTime(rest, option + ": failure time");
    if (comma != std::string::npos)
    {
        spec.up = ParseTime(upText, option + ": up time");
        if (spec.up <= spec.down)
        {
            throw InputError(option + ": up@" + upText + " is not after the failure at " + rest);
        }
    }
    if (spec.target.find("--") != std::string::npos)
    {
        ReadLink(spec.target, fabric, option, spec);
        return spec;
    }
    const uint32_t node = NodeNamed(fabric, spec.target, option);
    if (fabric.GetNode(node).kind != FabricNodeKind::Switch)
    {
        throw InputError(option + ": '" + spec.target +
                         "' is an NPU; name a switch or a link (a--b)");
    }
    spec.isSwitch = true;
    for (const auto& port : fabric.GetPorts(node))
    {
        spec.links.push_back(port.link);
    }
    return spec;
}

} // namespace ns3
