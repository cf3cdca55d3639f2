/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-algorithm.h"

#include "ns3/input-error.h"
#include "ns3/log.h"

#include <cctype>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveAlgorithm");

namespace
{

/** Window digits after "direct": at least one, value >= 1. */
uint32_t
ParseWindow(const std::string& digits, const std::string& text, const std::string& where)
{
    bool allDigits = !digits.empty() && digits.size() <= 9;
    for (char c : digits)
    {
        allDigits = allDigits && std::isdigit(static_cast<unsigned char>(c));
    }
    uint32_t window = allDigits ? static_cast<uint32_t>(std::stoul(digits)) : 0;
    if (window == 0)
    {
        throw InputError(where + ": implementation \"" + text +
                         "\": the direct window must be a positive integer");
    }
    return window;
}

} // namespace

AlgorithmSpec
ParseAlgorithmSpec(const std::string& text, const std::string& where)
{
    AlgorithmSpec spec;
    std::string name = text;
    const std::string onePrefix = "one";
    if (name.rfind(onePrefix, 0) == 0 && name.size() > onePrefix.size() &&
        std::isupper(static_cast<unsigned char>(name[onePrefix.size()])))
    {
        spec.flat = true;
        name = name.substr(onePrefix.size());
        name[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(name[0])));
    }
    if (name == "nccl" && !spec.flat)
    {
        spec.nccl = true;
    }
    else if (name == "ring")
    {
        spec.algorithm = CollectiveAlgorithm::Ring;
    }
    else if (name == "halvingDoubling")
    {
        spec.algorithm = CollectiveAlgorithm::HalvingDoubling;
    }
    else if (name == "doubleBinaryTree" && !spec.flat)
    {
        spec.algorithm = CollectiveAlgorithm::DoubleBinaryTree;
    }
    else if (name == "nvls" && !spec.flat)
    {
        spec.algorithm = CollectiveAlgorithm::Nvls;
    }
    else if (name == "inNetwork" && !spec.flat)
    {
        spec.algorithm = CollectiveAlgorithm::InNetwork;
    }
    else if (name == "pat")
    {
        spec.algorithm = CollectiveAlgorithm::Pat;
    }
    else if (name.rfind("direct", 0) == 0)
    {
        spec.algorithm = CollectiveAlgorithm::Direct;
        if (name.size() > 6)
        {
            spec.window = ParseWindow(name.substr(6), text, where);
        }
    }
    else
    {
        throw InputError(where + ": unknown implementation \"" + text +
                         "\" (expected ring, oneRing, direct, directN, oneDirect, oneDirectN, "
                         "halvingDoubling, oneHalvingDoubling, doubleBinaryTree, nvls, "
                         "inNetwork, pat, onePat or nccl)");
    }
    return spec;
}

std::string
ToString(const AlgorithmSpec& spec)
{
    if (spec.nccl)
    {
        return "nccl";
    }
    std::string name;
    switch (spec.algorithm)
    {
    case CollectiveAlgorithm::Ring:
        name = "ring";
        break;
    case CollectiveAlgorithm::Direct:
        name = "direct";
        break;
    case CollectiveAlgorithm::HalvingDoubling:
        name = "halvingDoubling";
        break;
    case CollectiveAlgorithm::DoubleBinaryTree:
        name = "doubleBinaryTree";
        break;
    case CollectiveAlgorithm::Nvls:
        name = "nvls";
        break;
    case CollectiveAlgorithm::InNetwork:
        name = "inNetwork";
        break;
    case CollectiveAlgorithm::Pat:
        name = "pat";
        break;
    }
    if (spec.window > 0)
    {
        name += std::to_string(spec.window);
    }
    if (spec.flat)
    {
        name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
        name = "one" + name;
    }
    return name;
}

} // namespace ns3
