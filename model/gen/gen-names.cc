/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gen-names.h"

#include "ns3/input-error.h"
#include "ns3/log.h"

#include <algorithm>
#include <cctype>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GenNames");

namespace
{

/** \param text any text \return it in lower case */
std::string
Lower(std::string text)
{
    std::transform(text.begin(),
                   text.end(),
                   text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

} // namespace

std::string
CollectiveOptionName(EtCollectiveType collective)
{
    return Lower(ToString(collective));
}

EtCollectiveType
ParseCollectiveName(const std::string& text, const std::string& what)
{
    const std::string wanted = Lower(text);
    std::string accepted;
    for (int64_t number = 0; number <= kEtMaxCollectiveType; ++number)
    {
        const auto collective = static_cast<EtCollectiveType>(number);
        const std::string name = CollectiveOptionName(collective);
        if (name == wanted)
        {
            return collective;
        }
        accepted += (accepted.empty() ? "" : ", ") + name;
    }
    throw InputError(what + ": unknown collective '" + text + "' (use one of " + accepted + ")");
}

uint32_t
ParsePrecision(const std::string& text, const std::string& what)
{
    const std::string wanted = Lower(text);
    if (wanted == "fp32" || wanted == "tf32")
    {
        return 4;
    }
    if (wanted == "fp16" || wanted == "bf16")
    {
        return 2;
    }
    if (wanted == "fp8")
    {
        return 1;
    }
    throw InputError(what + ": unknown precision '" + text +
                     "' (use fp32, tf32, bf16, fp16 or fp8)");
}

std::vector<uint64_t>
ParseUintList(const std::string& text, const std::string& what)
{
    std::vector<uint64_t> values;
    size_t start = 0;
    while (true)
    {
        const size_t comma = text.find(',', start);
        const std::string item =
            text.substr(start, comma == std::string::npos ? comma : comma - start);
        size_t used = 0;
        unsigned long long value = 0;
        try
        {
            value = std::stoull(item, &used);
        }
        catch (const std::exception&)
        {
            used = 0;
        }
        if (item.empty() || used != item.size() ||
            !std::isdigit(static_cast<unsigned char>(item[0])))
        {
            throw InputError(what + ": not a comma-separated list of whole numbers (got '" + text +
                             "')");
        }
        values.push_back(value);
        if (comma == std::string::npos)
        {
            return values;
        }
        start = comma + 1;
    }
}

} // namespace ns3
