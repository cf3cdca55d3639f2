/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-output-path.h"

#include "ns3/input-error.h"

#include <filesystem>
#include <system_error>

namespace ns3
{

namespace fs = std::filesystem;

std::string
HpccOutputPath(const HpccConfig& config,
               const std::string& key,
               const std::string& configured,
               const std::string& outDir)
{
    std::error_code ec;
    if (!outDir.empty() && !fs::is_directory(outDir, ec))
    {
        throw InputError("--out-dir: " + outDir +
                         (fs::exists(outDir, ec) ? ": not a folder" : ": no such folder"));
    }
    const fs::path path =
        outDir.empty() ? fs::path(configured) : fs::path(outDir) / fs::path(configured).filename();
    const std::string where = outDir.empty() ? config.Where(key) + ": " + key + " " + configured
                                             : "--out-dir: " + path.string() + " (" + key + ")";
    if (path.filename().empty() || fs::is_directory(path, ec))
    {
        throw InputError(where + ": is a folder, not a file");
    }
    const fs::path folder = path.parent_path();
    if (!folder.empty() && !fs::is_directory(folder, ec))
    {
        throw InputError(where + ": folder " + folder.string() +
                         (fs::exists(folder, ec) ? " is not a folder" : " does not exist"));
    }
    return path.string();
}

} // namespace ns3
