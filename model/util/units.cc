/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "units.h"

#include "ns3/input-error.h"

#include <cctype>
#include <cmath>
#include <vector>

namespace ns3
{

namespace
{

/** Split "12.5MiB" into 12.5 and "MiB"; false if there is no leading number. */
bool
SplitNumber(const std::string& text, double& number, std::string& suffix)
{
    size_t used = 0;
    try
    {
        number = std::stod(text, &used);
    }
    catch (const std::exception&)
    {
        return false;
    }
    suffix = text.substr(used);
    return std::isfinite(number);
}

/** Case-insensitive lookup of \p suffix in \p table. */
bool
LookupScale(const std::vector<std::pair<std::string, double>>& table,
            std::string suffix,
            double& scale)
{
    for (auto& c : suffix)
    {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    for (const auto& [name, value] : table)
    {
        if (name == suffix)
        {
            scale = value;
            return true;
        }
    }
    return false;
}

} // namespace

uint64_t
ParseBytes(const std::string& text, const std::string& what)
{
    static const std::vector<std::pair<std::string, double>> units = {
        {"", 1},
        {"b", 1},
        {"kib", 1024.0},
        {"mib", 1024.0 * 1024},
        {"gib", 1024.0 * 1024 * 1024},
        {"tib", 1024.0 * 1024 * 1024 * 1024},
        {"kb", 1e3},
        {"mb", 1e6},
        {"gb", 1e9},
        {"tb", 1e12},
        {"k", 1024.0},
        {"m", 1024.0 * 1024},
        {"g", 1024.0 * 1024 * 1024},
    };
    double number = 0;
    std::string suffix;
    double scale = 0;
    if (!SplitNumber(text, number, suffix) || !LookupScale(units, suffix, scale))
    {
        throw InputError(what + ": not a byte size (got '" + text +
                         "'; use e.g. 4096, 64KiB, 4MiB, 1GB)");
    }
    const double bytes = number * scale;
    if (bytes < 0 || bytes > 1.8e19 || bytes != std::floor(bytes))
    {
        throw InputError(what + ": byte size must be a whole non-negative number (got '" + text +
                         "')");
    }
    return static_cast<uint64_t>(bytes);
}

uint64_t
ParseRateBps(const std::string& text, const std::string& what)
{
    static const std::vector<std::pair<std::string, double>> units = {
        {"", 1},
        {"bps", 1},
        {"b/s", 1},
        {"kbps", 1e3},
        {"kb/s", 1e3},
        {"k", 1e3},
        {"mbps", 1e6},
        {"mb/s", 1e6},
        {"m", 1e6},
        {"gbps", 1e9},
        {"gb/s", 1e9},
        {"g", 1e9},
        {"tbps", 1e12},
        {"tb/s", 1e12},
        {"t", 1e12},
    };
    double number = 0;
    std::string suffix;
    double scale = 0;
    if (!SplitNumber(text, number, suffix) || !LookupScale(units, suffix, scale))
    {
        throw InputError(what + ": not a rate (got '" + text + "'; use e.g. 100Gbps, 25G)");
    }
    const double rate = number * scale;
    if (!(rate >= 1) || rate > 1e16)
    {
        throw InputError(what + ": rate must be positive (got '" + text + "')");
    }
    return static_cast<uint64_t>(std::llround(rate));
}

Time
ParseTime(const std::string& text, const std::string& what)
{
    static const std::vector<std::pair<std::string, double>> units = {
        {"s", 1e12},
        {"ms", 1e9},
        {"us", 1e6},
        {"ns", 1e3},
        {"ps", 1},
    };
    double number = 0;
    std::string suffix;
    double scale = 0;
    if (!SplitNumber(text, number, suffix) || !LookupScale(units, suffix, scale))
    {
        throw InputError(what + ": not a duration (got '" + text + "'; use e.g. 1us, 500ns)");
    }
    const double ps = number * scale;
    if (ps < 0 || ps > 9.2e18)
    {
        throw InputError(what + ": duration must be non-negative (got '" + text + "')");
    }
    return PicoSeconds(static_cast<int64_t>(std::llround(ps)));
}

} // namespace ns3
