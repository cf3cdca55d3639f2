/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-input-path.h"

#include "ns3/input-error.h"

#include <filesystem>

namespace ns3
{

namespace fs = std::filesystem;

HpccInputPath
ResolveHpccInput(const HpccConfig& config,
                 const std::string& key,
                 const std::string& override,
                 const std::string& option)
{
    if (!override.empty())
    {
        return HpccInputPath{override, ""};
    }
    const std::string value = key == "TOPOLOGY_FILE" ? config.topologyFile
                              : key == "FLOW_FILE"   ? config.flowFile
                                                     : "";
    if (value.empty())
    {
        throw InputError(config.path + ": " + key + " not given; name the file with " + option);
    }
    const fs::path given(value);
    const fs::path folder = fs::path(config.path).parent_path();
    std::error_code ec;
    if (given.is_absolute())
    {
        if (fs::is_regular_file(given, ec))
        {
            return HpccInputPath{value, ""};
        }
    }
    else
    {
        const fs::path beside = folder / given;
        if (fs::is_regular_file(beside, ec))
        {
            return HpccInputPath{beside.string(), ""};
        }
        if (fs::is_regular_file(given, ec))
        {
            return HpccInputPath{value, key + " " + value + " found in the working directory"};
        }
    }
    const fs::path bare = folder / given.filename();
    if (fs::is_regular_file(bare, ec))
    {
        return HpccInputPath{bare.string(),
                             key + " " + value + " not found; using " + bare.string() +
                                 " (same name, beside the configuration)"};
    }
    throw InputError(config.Where(key) + ": " + key + " " + value +
                     ": no such file (looked beside the configuration, in the working "
                     "directory, and for " +
                     given.filename().string() + " beside the configuration); give " + option +
                     "=FILE");
}

} // namespace ns3
