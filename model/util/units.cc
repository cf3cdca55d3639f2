/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "units.h"

#include "ns3/input-error.h"

#include <cctype>
#include <limits>
#include <vector>

namespace ns3
{

namespace
{

using Wide = unsigned __int128;

/** A unit and how many base units (byte, bit/s, femtosecond) it holds. */
struct Unit
{
    const char* name; //!< as written, case-sensitive
    Wide scale;       //!< base units per unit
};

constexpr Wide kKilo = 1000;
constexpr Wide kKibi = 1024;

/** A decimal number as an exact fraction: digits * 10^exponent. */
struct Decimal
{
    Wide digits{0};  //!< significant digits, at most 30 of them
    int exponent{0}; //!< power of ten
    bool negative{false};
};

/**
 * Split \p text into an exact decimal and the unit after it.
 * \return false if \p text does not start with a number
 */
bool
SplitNumber(const std::string& text, Decimal& number, std::string& unit)
{
    size_t i = 0;
    if (i < text.size() && text[i] == '-')
    {
        number.negative = true;
        ++i;
    }
    int digitCount = 0;
    int fractionDigits = 0;
    bool seenPoint = false;
    bool anyDigit = false;
    for (; i < text.size(); ++i)
    {
        const char c = text[i];
        if (c == '.' && !seenPoint)
        {
            seenPoint = true;
            continue;
        }
        if (!std::isdigit(static_cast<unsigned char>(c)))
        {
            break;
        }
        anyDigit = true;
        if (number.digits == 0 && c == '0')
        {
            // Leading zeros carry no digits but still shift the fraction.
            fractionDigits += seenPoint ? 1 : 0;
            continue;
        }
        if (digitCount >= 30)
        {
            // Past 30 digits only zeros keep the value exact; others make it too precise.
            if (c != '0')
            {
                return false;
            }
            number.exponent += seenPoint ? 0 : 1;
            continue;
        }
        number.digits = number.digits * 10 + static_cast<unsigned>(c - '0');
        ++digitCount;
        fractionDigits += seenPoint ? 1 : 0;
    }
    if (!anyDigit)
    {
        return false;
    }
    number.exponent -= fractionDigits;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E') && i + 1 < text.size())
    {
        size_t j = i + 1;
        bool negativeExponent = false;
        if (text[j] == '-' || text[j] == '+')
        {
            negativeExponent = text[j] == '-';
            ++j;
        }
        if (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j])))
        {
            int exponent = 0;
            for (; j < text.size() && std::isdigit(static_cast<unsigned char>(text[j])); ++j)
            {
                exponent = std::min(exponent * 10 + (text[j] - '0'), 10000);
            }
            number.exponent += negativeExponent ? -exponent : exponent;
            i = j;
        }
    }
    unit = text.substr(i);
    return true;
}

/** How a quantity is named in messages. */
struct Quantity
{
    const char* noun;    //!< "rate", "size", "duration"
    const char* base;    //!< "bit/s", "bytes", "picoseconds"
    const char* example; //!< unit of the suggestion, e.g. "Gbps"
    const char* units;   //!< the accepted units, for messages
};

/**
 * Read \p text as a number with one of \p units.
 * \param bareScale scale of a bare number, or 0 if a bare number is an error
 * \param divisor base units per result unit (1000 turns femtoseconds into picoseconds)
 * \param limit largest result
 */
uint64_t
ParseQuantity(const std::string& text,
              const std::string& what,
              const std::vector<Unit>& units,
              const Quantity& q,
              Wide bareScale,
              Wide divisor,
              Wide limit)
{
    Decimal number;
    std::string unitText;
    if (!SplitNumber(text, number, unitText))
    {
        throw InputError(what + ": '" + text + "' is not a " + q.noun + " (write e.g. 100" +
                         q.example + ")");
    }
    Wide scale = 0;
    if (unitText.empty())
    {
        if (bareScale == 0)
        {
            throw InputError(what + ": '" + text + "' has no unit; write e.g. " + text + q.example);
        }
        scale = bareScale;
    }
    for (const auto& unit : units)
    {
        if (unitText == unit.name)
        {
            scale = unit.scale;
        }
    }
    if (scale == 0)
    {
        throw InputError(what + ": '" + unitText + "' in '" + text + "' is not a " + q.noun +
                         " unit (" + q.units + ")");
    }
    if (number.negative && number.digits != 0)
    {
        throw InputError(what + ": '" + text + "' is negative");
    }
    const std::string tooLarge = what + ": '" + text + "' is too large";
    if (number.digits != 0 && scale > ~Wide(0) / number.digits)
    {
        throw InputError(tooLarge);
    }
    // value = digits * 10^exponent * scale / divisor, exactly, or an error.
    Wide numerator = number.digits * scale;
    Wide denominator = divisor;
    for (int e = number.exponent; e > 0 && numerator != 0; --e)
    {
        if (numerator > limit * denominator)
        {
            throw InputError(tooLarge);
        }
        numerator *= 10;
    }
    for (int e = number.exponent; e < 0 && numerator != 0; ++e)
    {
        if (denominator > std::numeric_limits<uint64_t>::max())
        {
            throw InputError(what + ": '" + text + "' is not a whole number of " + q.base);
        }
        denominator *= 10;
    }
    if (numerator % denominator != 0)
    {
        throw InputError(what + ": '" + text + "' is not a whole number of " + q.base);
    }
    const Wide value = numerator / denominator;
    if (value > limit)
    {
        throw InputError(tooLarge);
    }
    return static_cast<uint64_t>(value);
}

const Quantity kRate{"rate",
                     "bit/s",
                     "Gbps",
                     "bps, Kbps, Mbps, Gbps, Tbps for bits; Bps, KBps, MBps, GBps, TBps for "
                     "bytes per second; Kib/s, KiB/s, ... for binary prefixes"};

/** ns-3 DataRate's units, with their meaning: b is a bit, B a byte. */
std::vector<Unit>
Ns3RateUnits()
{
    const Wide k = kKilo;
    const Wide ki = kKibi;
    return {{"bps", 1},
            {"b/s", 1},
            {"Bps", 8},
            {"B/s", 8},
            {"kbps", k},
            {"kb/s", k},
            {"Kbps", k},
            {"Kb/s", k},
            {"kBps", 8 * k},
            {"kB/s", 8 * k},
            {"KBps", 8 * k},
            {"KB/s", 8 * k},
            {"Kib/s", ki},
            {"KiB/s", 8 * ki},
            {"Mbps", k * k},
            {"Mb/s", k * k},
            {"MBps", 8 * k * k},
            {"MB/s", 8 * k * k},
            {"Mib/s", ki * ki},
            {"MiB/s", 8 * ki * ki},
            {"Gbps", k * k * k},
            {"Gb/s", k * k * k},
            {"GBps", 8 * k * k * k},
            {"GB/s", 8 * k * k * k},
            {"Gib/s", ki * ki * ki},
            {"GiB/s", 8 * ki * ki * ki}};
}

} // namespace

uint64_t
ParseBytes(const std::string& text, const std::string& what)
{
    const Wide k = kKilo;
    const Wide ki = kKibi;
    static const std::vector<Unit> units = {{"B", 1},
                                            {"kB", k},
                                            {"KB", k},
                                            {"MB", k * k},
                                            {"GB", k * k * k},
                                            {"TB", k * k * k * k},
                                            {"KiB", ki},
                                            {"MiB", ki * ki},
                                            {"GiB", ki * ki * ki},
                                            {"TiB", ki * ki * ki * ki}};
    static const Quantity size{
        "size", "bytes", "B", "B, kB or KB (1000), MB, GB, TB, KiB (1024), MiB, GiB, TiB"};
    return ParseQuantity(text, what, units, size, 0, 1, std::numeric_limits<uint64_t>::max());
}

uint64_t
ParseRateBps(const std::string& text, const std::string& what, bool allowZero)
{
    static const std::vector<Unit> units = []
    {
        std::vector<Unit> u = Ns3RateUnits();
        const Wide tera = kKilo * kKilo * kKilo * kKilo;
        const Wide tebi = kKibi * kKibi * kKibi * kKibi;
        u.insert(u.end(),
                 {{"Tbps", tera},
                  {"Tb/s", tera},
                  {"TBps", 8 * tera},
                  {"TB/s", 8 * tera},
                  {"Tib/s", tebi},
                  {"TiB/s", 8 * tebi}});
        return u;
    }();
    const uint64_t bps =
        ParseQuantity(text, what, units, kRate, 0, 1, std::numeric_limits<uint64_t>::max());
    if (bps == 0 && !allowZero)
    {
        throw InputError(what + ": rate must be positive (got '" + text + "')");
    }
    return bps;
}

uint64_t
ParseNs3DataRate(const std::string& text, const std::string& what)
{
    static const std::vector<Unit> units = Ns3RateUnits();
    static const Quantity rate{kRate.noun,
                               kRate.base,
                               kRate.example,
                               "an ns-3 DataRate unit: bps, kbps, Kbps, Mbps, Gbps for bits; Bps, "
                               "KBps, MBps, GBps for bytes per second; Kib/s ... GiB/s; or a "
                               "bare number of bit/s"};
    const uint64_t bps =
        ParseQuantity(text, what, units, rate, 1, 1, std::numeric_limits<uint64_t>::max());
    if (bps == 0)
    {
        throw InputError(what + ": rate must be positive (got '" + text + "')");
    }
    return bps;
}

namespace
{

constexpr Wide kFsPerPs = 1000;
constexpr Wide kFsPerS = kFsPerPs * 1000 * 1000 * 1000 * 1000;

const Quantity kDuration{"duration", "picoseconds", "us", "s, ms, us, ns, ps, min, h"};

/** Time in picoseconds, below ns-3's int64 limit. */
Time
ToTime(uint64_t ps)
{
    return PicoSeconds(static_cast<int64_t>(ps));
}

} // namespace

Time
ParseTime(const std::string& text, const std::string& what)
{
    static const std::vector<Unit> units = {{"s", kFsPerS},
                                            {"ms", kFsPerS / 1000},
                                            {"us", kFsPerS / 1000000},
                                            {"ns", kFsPerPs * 1000},
                                            {"ps", kFsPerPs},
                                            {"min", 60 * kFsPerS},
                                            {"h", 3600 * kFsPerS}};
    return ToTime(ParseQuantity(
        text, what, units, kDuration, 0, kFsPerPs, std::numeric_limits<int64_t>::max()));
}

Time
ParseNs3Time(const std::string& text, const std::string& what)
{
    static const std::vector<Unit> units = {{"s", kFsPerS},
                                            {"ms", kFsPerS / 1000},
                                            {"us", kFsPerS / 1000000},
                                            {"ns", kFsPerPs * 1000},
                                            {"ps", kFsPerPs},
                                            {"fs", 1},
                                            {"min", 60 * kFsPerS},
                                            {"h", 3600 * kFsPerS},
                                            {"d", 86400 * kFsPerS},
                                            {"y", 365 * 86400 * kFsPerS}};
    static const Quantity duration{kDuration.noun,
                                   kDuration.base,
                                   kDuration.example,
                                   "an ns-3 Time unit: s, ms, us, ns, ps, fs, min, h, d, y; or a "
                                   "bare number of seconds"};
    return ToTime(ParseQuantity(
        text, what, units, duration, kFsPerS, kFsPerPs, std::numeric_limits<int64_t>::max()));
}

std::string
FormatRate(uint64_t bps)
{
    static const std::pair<uint64_t, const char*> units[] = {{1000000000000ULL, "Tbps"},
                                                             {1000000000ULL, "Gbps"},
                                                             {1000000ULL, "Mbps"},
                                                             {1000ULL, "Kbps"}};
    for (const auto& [scale, name] : units)
    {
        if (bps != 0 && bps % scale == 0)
        {
            return std::to_string(bps / scale) + name;
        }
    }
    return std::to_string(bps) + "bps";
}

std::string
FormatTime(Time t)
{
    static const std::pair<int64_t, const char*> units[] = {
        {1000000000000LL, "s"}, {1000000000LL, "ms"}, {1000000LL, "us"}, {1000LL, "ns"}};
    const int64_t ps = t.GetPicoSeconds();
    for (const auto& [scale, name] : units)
    {
        if (ps != 0 && ps % scale == 0)
        {
            return std::to_string(ps / scale) + name;
        }
    }
    return std::to_string(ps) + "ps";
}

std::string
UnitsToNs3String(const std::string& valueTypeName, const std::string& text, const std::string& what)
{
    // ns-3 names some value types with their namespace ("ns3::TimeValue") and some
    // without ("DataRateValue").
    if (valueTypeName == "DataRateValue" || valueTypeName == "ns3::DataRateValue")
    {
        return std::to_string(ParseRateBps(text, what, true)) + "bps";
    }
    if (valueTypeName == "TimeValue" || valueTypeName == "ns3::TimeValue")
    {
        return std::to_string(ParseTime(text, what).GetPicoSeconds()) + "ps";
    }
    return text;
}

} // namespace ns3
