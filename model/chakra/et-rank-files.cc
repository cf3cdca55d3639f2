/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "et-rank-files.h"

#include "ns3/input-error.h"
#include "ns3/log.h"

#include <filesystem>
#include <limits>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EtRankFiles");

namespace
{

/**
 * \param text a file name part
 * \param rank set to its value
 * \return true if text is a rank number as ASTRA-sim writes it: decimal digits, no
 *         leading zero, below 2^32
 */
bool
ParseRank(const std::string& text, uint32_t& rank)
{
    if (text.empty() || text.size() > 10 || (text[0] == '0' && text.size() > 1))
    {
        return false;
    }
    uint64_t value = 0;
    for (char c : text)
    {
        if (c < '0' || c > '9')
        {
            return false;
        }
        value = value * 10 + (c - '0');
    }
    if (value > std::numeric_limits<uint32_t>::max())
    {
        return false;
    }
    rank = static_cast<uint32_t>(value);
    return true;
}

/**
 * \param path a candidate file
 * \return true if it exists and is a file (or a link to one)
 */
bool
IsTraceFile(const std::string& path)
{
    std::error_code error;
    return std::filesystem::is_regular_file(path, error);
}

} // namespace

std::string
EtRankFilePath(const std::string& prefix, uint32_t rank)
{
    return prefix + "." + std::to_string(rank) + ".et";
}

uint32_t
DiscoverEtRankCount(const std::string& prefix)
{
    namespace fs = std::filesystem;
    fs::path prefixPath(prefix);
    fs::path directory =
        prefixPath.parent_path().empty() ? fs::path(".") : prefixPath.parent_path();
    std::string stem = prefixPath.filename().string() + ".";
    const std::string suffix = ".et";

    std::set<uint32_t> ranks;
    std::error_code error;
    for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error))
    {
        std::string name = it->path().filename().string();
        if (name.size() <= stem.size() + suffix.size() || name.compare(0, stem.size(), stem) != 0 ||
            name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
        {
            continue;
        }
        uint32_t rank = 0;
        if (ParseRank(name.substr(stem.size(), name.size() - stem.size() - suffix.size()), rank) &&
            IsTraceFile(it->path().string()))
        {
            ranks.insert(rank);
        }
    }
    if (ranks.empty())
    {
        throw InputError(EtRankFilePath(prefix, 0) + ": missing rank file: no trace " +
                         "<prefix>.<rank>.et found for workload prefix " + prefix);
    }
    uint32_t highest = *ranks.rbegin();
    if (highest == std::numeric_limits<uint32_t>::max() || ranks.size() != uint64_t{highest} + 1)
    {
        uint32_t missing = 0;
        while (ranks.count(missing) != 0)
        {
            ++missing;
        }
        throw InputError(EtRankFilePath(prefix, missing) + ": missing rank file (rank " +
                         std::to_string(highest) + " exists)");
    }
    NS_LOG_INFO(prefix << ": " << ranks.size() << " ranks");
    return highest + 1;
}

void
CheckEtRankFiles(const std::string& prefix, uint32_t rankCount)
{
    for (uint32_t rank = 0; rank < rankCount; ++rank)
    {
        std::string path = EtRankFilePath(prefix, rank);
        if (!IsTraceFile(path))
        {
            throw InputError(path + ": missing rank file (the workload has " +
                             std::to_string(rankCount) + " ranks)");
        }
    }
}

} // namespace ns3
