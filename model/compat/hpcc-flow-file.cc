/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-flow-file.h"

#include "ns3/fabric.h"
#include "ns3/input-error.h"
#include "ns3/input-file.h"
#include "ns3/log.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccFlowFile");

namespace
{

/** A whole number in [0, max], or InputError "<where>: <what>: ...". */
uint64_t
ParseWhole(const std::string& text, uint64_t max, const std::string& where, const char* what)
{
    errno = 0;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || text[0] == '-' || *end != '\0' || errno == ERANGE)
    {
        throw InputError(where + ": " + what + ": not a whole number (got '" + text + "')");
    }
    if (v > max)
    {
        throw InputError(where + ": " + what + ": must be at most " + std::to_string(max) +
                         " (got " + text + ")");
    }
    return v;
}

/** Seconds as a Time, or InputError for text that is not a non-negative number. */
Time
ParseStart(const std::string& text, const std::string& where)
{
    char* end = nullptr;
    const double seconds = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(seconds))
    {
        throw InputError(where + ": start time: not a number of seconds (got '" + text + "')");
    }
    if (seconds < 0 || seconds > 9.2e6)
    {
        throw InputError(where + ": start time: must be in [0, 9.2e6] seconds (got " + text + ")");
    }
    return PicoSeconds(std::llround(seconds * 1e12));
}

/** \return the words of a line */
std::vector<std::string>
Words(const std::string& line)
{
    std::istringstream in(line);
    std::vector<std::string> words;
    for (std::string w; in >> w;)
    {
        words.push_back(w);
    }
    return words;
}

} // namespace

std::vector<HpccFlow>
ReadHpccFlows(const std::string& path)
{
    CheckInputFile(path);
    std::ifstream in(path);
    if (!in)
    {
        throw InputError(path + ": cannot open the flow file");
    }
    std::string text;
    uint32_t lineNo = 0;
    std::vector<std::string> words;
    while (words.empty() && std::getline(in, text))
    {
        ++lineNo;
        words = Words(text);
    }
    if (words.empty())
    {
        throw InputError(path + ": empty; the first line must give the number of flows");
    }
    const std::string countWhere = path + ":" + std::to_string(lineNo);
    if (words.size() != 1)
    {
        throw InputError(countWhere + ": the first line must hold only the number of flows");
    }
    const uint64_t count = ParseWhole(words[0], 1ULL << 32, countWhere, "flow count");

    // Not reserved from the count: a first line of 4294967296 would claim 160 GiB.
    std::vector<HpccFlow> flows;
    while (flows.size() < count && std::getline(in, text))
    {
        ++lineNo;
        words = Words(text);
        if (words.empty())
        {
            continue;
        }
        const std::string where = path + ":" + std::to_string(lineNo);
        if (words.size() != 6)
        {
            throw InputError(where + ": expects 6 columns (src dst pg dport size start_s), got " +
                             std::to_string(words.size()));
        }
        HpccFlow f;
        f.line = lineNo;
        f.src = static_cast<uint32_t>(ParseWhole(words[0], 0xFFFFFFFE, where, "src"));
        f.dst = static_cast<uint32_t>(ParseWhole(words[1], 0xFFFFFFFE, where, "dst"));
        f.pg = static_cast<uint8_t>(ParseWhole(words[2], 7, where, "pg"));
        f.dport = static_cast<uint16_t>(ParseWhole(words[3], 65535, where, "dport"));
        f.bytes = ParseWhole(words[4], ~0ULL, where, "size");
        f.start = ParseStart(words[5], where);
        if (f.bytes == 0)
        {
            throw InputError(where + ": size: must be at least 1 byte");
        }
        if (f.src == f.dst)
        {
            throw InputError(where + ": src and dst are both node " + std::to_string(f.src));
        }
        flows.push_back(f);
    }
    if (flows.size() < count)
    {
        throw InputError(path + ": the first line announces " + std::to_string(count) +
                         " flows but only " + std::to_string(flows.size()) + " follow");
    }
    NS_LOG_INFO(path << ": " << flows.size() << " flows");
    return flows;
}

void
CheckHpccFlows(const std::vector<HpccFlow>& flows, const std::string& path, const Fabric& fabric)
{
    const uint32_t nodes = fabric.GetNodeCount();
    for (const HpccFlow& f : flows)
    {
        for (const uint32_t node : {f.src, f.dst})
        {
            const std::string where = path + ":" + std::to_string(f.line);
            if (node >= nodes)
            {
                throw InputError(where + ": node " + std::to_string(node) +
                                 " does not exist (the topology has " + std::to_string(nodes) +
                                 " nodes)");
            }
            if (!fabric.IsNpu(node))
            {
                throw InputError(where + ": node " + std::to_string(node) +
                                 " is a switch; flows run between hosts");
            }
        }
    }
}

uint32_t
FirstUnsortedFlowLine(const std::vector<HpccFlow>& flows)
{
    for (size_t i = 1; i < flows.size(); ++i)
    {
        if (flows[i].start < flows[i - 1].start)
        {
            return flows[i].line;
        }
    }
    return 0;
}

} // namespace ns3
