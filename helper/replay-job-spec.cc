/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-job-spec.h"

#include "ns3/input-error.h"

#include <cctype>
#include <set>

namespace ns3
{

namespace
{

/** \return \p text as an NPU number, or throw InputError naming \p what */
uint32_t
ParseNpu(const std::string& text, const std::string& what)
{
    if (text.empty() || text.size() > 9 ||
        text.find_first_not_of("0123456789") != std::string::npos)
    {
        throw InputError(what + ": '" + text + "' is not an NPU number or range (e.g. 0-3,8)");
    }
    return static_cast<uint32_t>(std::stoul(text));
}

} // namespace

std::vector<uint32_t>
ParseNpuList(const std::string& text, const std::string& what)
{
    std::vector<uint32_t> npus;
    size_t begin = 0;
    while (begin <= text.size())
    {
        const size_t comma = std::min(text.find(',', begin), text.size());
        const std::string item = text.substr(begin, comma - begin);
        const size_t dash = item.find('-');
        if (dash == std::string::npos)
        {
            npus.push_back(ParseNpu(item, what));
        }
        else
        {
            const uint32_t first = ParseNpu(item.substr(0, dash), what);
            const uint32_t last = ParseNpu(item.substr(dash + 1), what);
            if (last < first)
            {
                throw InputError(what + ": range '" + item + "' runs backwards");
            }
            if (last - first >= (1U << 24))
            {
                throw InputError(what + ": range '" + item + "' is too long");
            }
            for (uint32_t n = first; n <= last; ++n)
            {
                npus.push_back(n);
            }
        }
        begin = comma + 1;
    }
    return npus;
}

std::string
FormatNpuList(const std::vector<uint32_t>& npus)
{
    std::string text;
    for (size_t i = 0; i < npus.size();)
    {
        size_t j = i;
        while (j + 1 < npus.size() && npus[j + 1] == npus[j] + 1)
        {
            ++j;
        }
        text += (text.empty() ? "" : ",") + std::to_string(npus[i]);
        if (j > i)
        {
            text += "-" + std::to_string(npus[j]);
        }
        i = j + 1;
    }
    return text;
}

ReplayJobSpec
ParseReplayJobSpec(const std::string& text, size_t index)
{
    const std::string what = "--job=" + text;
    ReplayJobSpec job;
    job.name = "job" + std::to_string(index);
    std::set<std::string> seen;
    std::string npuText;
    std::string lastKey;
    size_t begin = 0;
    while (begin <= text.size())
    {
        const size_t comma = std::min(text.find(',', begin), text.size());
        const std::string token = text.substr(begin, comma - begin);
        begin = comma + 1;
        const size_t eq = token.find('=');
        if (eq == std::string::npos)
        {
            // An NPU list holds commas: "npus=0-3,8" continues with "8".
            if (lastKey == "npus")
            {
                npuText += "," + token;
            }
            else if (seen.empty() && !token.empty())
            {
                job.workload = token;
                seen.insert("workload");
                lastKey = "workload";
            }
            else
            {
                throw InputError(what + ": '" + token +
                                 "' is not key=value (keys: npus, comm_group, name)");
            }
            continue;
        }
        const std::string key = token.substr(0, eq);
        const std::string value = token.substr(eq + 1);
        if (key != "workload" && key != "npus" && key != "comm_group" && key != "name")
        {
            throw InputError(what + ": unknown key '" + key +
                             "' (keys: workload, npus, comm_group, name)");
        }
        if (!seen.insert(key).second)
        {
            throw InputError(what + ": '" + key + "' given twice");
        }
        if (value.empty())
        {
            throw InputError(what + ": '" + key + "' is empty");
        }
        lastKey = key;
        if (key == "workload")
        {
            job.workload = value;
        }
        else if (key == "npus")
        {
            npuText = value;
        }
        else if (key == "comm_group")
        {
            job.commGroupPath = value;
        }
        else
        {
            job.name = value;
        }
    }
    if (job.workload.empty())
    {
        throw InputError(what + ": no trace prefix (--job=PREFIX[,npus=LIST][,name=NAME])");
    }
    if (!npuText.empty())
    {
        job.npus = ParseNpuList(npuText, what + ": npus");
    }
    return job;
}

} // namespace ns3
