/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The unit grammar (doc/units.md): every unit, case, bare numbers, overflow, negatives,
// and the ns-3 string dialect of the HPCC files.

#include "ns3/input-error.h"
#include "ns3/units.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t kK = 1000;
constexpr uint64_t kKi = 1024;

/** One input and either its value or the text of its error. */
struct Case
{
    std::string text;  //!< what the user wrote
    uint64_t value;    //!< expected value when error is empty
    std::string error; //!< expected message after "what: ", or empty
};

/** Check every case of \p table against \p parse, called with what = "key". */
void
RunTable(const std::vector<Case>& table, const std::function<uint64_t(const std::string&)>& parse)
{
    for (const auto& c : table)
    {
        if (c.error.empty())
        {
            try
            {
                EXPECT_EQ(parse(c.text), c.value) << c.text;
            }
            catch (const InputError& e)
            {
                ADD_FAILURE() << c.text << ": unexpected error " << e.what();
            }
            continue;
        }
        try
        {
            const uint64_t value = parse(c.text);
            ADD_FAILURE() << c.text << ": expected an error, got " << value;
        }
        catch (const InputError& e)
        {
            EXPECT_EQ(std::string(e.what()), "key: " + c.error) << c.text;
        }
    }
}

const std::string kRateUnits = "(bps, Kbps, Mbps, Gbps, Tbps for bits; Bps, KBps, MBps, GBps, "
                               "TBps for bytes per second; Kib/s, KiB/s, ... for binary prefixes)";

} // namespace

TEST(Units, Sizes)
{
    const std::string units = "(B, kB or KB (1000), MB, GB, TB, KiB (1024), MiB, GiB, TiB)";
    RunTable(
        {
            {"0B", 0, ""},
            {"4096B", 4096, ""},
            {"1kB", kK, ""},
            {"1KB", kK, ""},
            {"1MB", kK * kK, ""},
            {"1GB", kK * kK * kK, ""},
            {"2TB", 2 * kK * kK * kK * kK, ""},
            {"1KiB", kKi, ""},
            {"4MiB", 4 * kKi * kKi, ""},
            {"1GiB", kKi * kKi * kKi, ""},
            {"1TiB", kKi * kKi * kKi * kKi, ""},
            {"1.5KB", 1500, ""},
            {"0.5KiB", 512, ""},
            {"2.5e3B", 2500, ""},
            {"1e2KB", 100 * kK, ""},
            {".5MB", 500 * kK, ""},
            {"16EiB", 0, "'EiB' in '16EiB' is not a size unit " + units},
            {"18446744073709551615B", UINT64_MAX, ""},
            {"18446744073709551616B", 0, "'18446744073709551616B' is too large"},
            {"16384PiB", 0, "'PiB' in '16384PiB' is not a size unit " + units},
            {"20000000TB", 0, "'20000000TB' is too large"},
            {"1e30B", 0, "'1e30B' is too large"},
            {"4096", 0, "'4096' has no unit; write e.g. 4096B"},
            {"4K", 0, "'K' in '4K' is not a size unit " + units},
            {"4k", 0, "'k' in '4k' is not a size unit " + units},
            {"4kib", 0, "'kib' in '4kib' is not a size unit " + units},
            {"4mb", 0, "'mb' in '4mb' is not a size unit " + units},
            {"4Kb", 0, "'Kb' in '4Kb' is not a size unit " + units},
            {"1.5B", 0, "'1.5B' is not a whole number of bytes"},
            {"-1KB", 0, "'-1KB' is negative"},
            {"+1KB", 0, "'+1KB' is not a size (write e.g. 100B)"},
            {"KB", 0, "'KB' is not a size (write e.g. 100B)"},
            {"", 0, "'' is not a size (write e.g. 100B)"},
            {"1 KB", 0, "' KB' in '1 KB' is not a size unit " + units},
        },
        [](const std::string& t) { return ParseBytes(t, "key"); });
}

TEST(Units, Rates)
{
    const uint64_t G = kK * kK * kK;
    RunTable(
        {
            {"1bps", 1, ""},
            {"1b/s", 1, ""},
            {"1kbps", kK, ""},
            {"1Kbps", kK, ""},
            {"1kb/s", kK, ""},
            {"1Kb/s", kK, ""},
            {"1Mbps", kK * kK, ""},
            {"1Mb/s", kK * kK, ""},
            {"100Gbps", 100 * G, ""},
            {"100Gb/s", 100 * G, ""},
            {"1.6Tbps", 1600 * G, ""},
            {"1.6Tb/s", 1600 * G, ""},
            // Bytes per second are bytes, as in ns-3's DataRate.
            {"1Bps", 8, ""},
            {"1B/s", 8, ""},
            {"1kBps", 8 * kK, ""},
            {"1KBps", 8 * kK, ""},
            {"1kB/s", 8 * kK, ""},
            {"1KB/s", 8 * kK, ""},
            {"1MBps", 8 * kK * kK, ""},
            {"1MB/s", 8 * kK * kK, ""},
            {"100GBps", 800 * G, ""},
            {"12.5GB/s", 100 * G, ""},
            {"1TBps", 8000 * G, ""},
            {"1TB/s", 8000 * G, ""},
            {"1Kib/s", kKi, ""},
            {"1KiB/s", 8 * kKi, ""},
            {"1Mib/s", kKi * kKi, ""},
            {"1MiB/s", 8 * kKi * kKi, ""},
            {"1Gib/s", kKi * kKi * kKi, ""},
            {"1GiB/s", 8 * kKi * kKi * kKi, ""},
            {"1Tib/s", kKi * kKi * kKi * kKi, ""},
            {"1TiB/s", 8 * kKi * kKi * kKi * kKi, ""},
            {"2.5e1Gbps", 25 * G, ""},
            {"100", 0, "'100' has no unit; write e.g. 100Gbps"},
            {"1e9", 0, "'1e9' has no unit; write e.g. 1e9Gbps"},
            {"100G", 0, "'G' in '100G' is not a rate unit " + kRateUnits},
            {"100gbps", 0, "'gbps' in '100gbps' is not a rate unit " + kRateUnits},
            {"100GBPS", 0, "'GBPS' in '100GBPS' is not a rate unit " + kRateUnits},
            {"100mbps", 0, "'mbps' in '100mbps' is not a rate unit " + kRateUnits},
            {"100Gbit/s", 0, "'Gbit/s' in '100Gbit/s' is not a rate unit " + kRateUnits},
            {"0Gbps", 0, "rate must be positive (got '0Gbps')"},
            {"-100Gbps", 0, "'-100Gbps' is negative"},
            {"0.5bps", 0, "'0.5bps' is not a whole number of bit/s"},
            {"18446744073709551615bps", UINT64_MAX, ""},
            {"18446744073709552Kbps", 0, "'18446744073709552Kbps' is too large"},
            {"3000000TBps", 0, "'3000000TBps' is too large"},
            {"fast", 0, "'fast' is not a rate (write e.g. 100Gbps)"},
        },
        [](const std::string& t) { return ParseRateBps(t, "key"); });
    EXPECT_EQ(ParseRateBps("0bps", "key", true), 0u);
}

TEST(Units, Times)
{
    const std::string units = "(s, ms, us, ns, ps, min, h)";
    RunTable(
        {
            {"1s", 1000000000000, ""},
            {"2ms", 2000000000, ""},
            {"1us", 1000000, ""},
            {"0.001ms", 1000000, ""},
            {"500ns", 500000, ""},
            {"12500ns", 12500000, ""},
            {"10ps", 10, ""},
            {"0s", 0, ""},
            {"1min", 60000000000000, ""},
            {"2h", 7200000000000000, ""},
            {"1.5ps", 0, "'1.5ps' is not a whole number of picoseconds"},
            {"1fs", 0, "'fs' in '1fs' is not a duration unit " + units},
            {"1", 0, "'1' has no unit; write e.g. 1us"},
            {"1US", 0, "'US' in '1US' is not a duration unit " + units},
            {"1Ms", 0, "'Ms' in '1Ms' is not a duration unit " + units},
            {"-1us", 0, "'-1us' is negative"},
            {"107d", 0, "'d' in '107d' is not a duration unit " + units},
            {"2600h", 0, "'2600h' is too large"},
            {"soon", 0, "'soon' is not a duration (write e.g. 100us)"},
        },
        [](const std::string& t)
        { return static_cast<uint64_t>(ParseTime(t, "key").GetPicoSeconds()); });
}

// The HPCC simulator's files hold ns-3 strings: DataRate and Time read them.
TEST(Units, Ns3StringDialect)
{
    const uint64_t G = kK * kK * kK;
    const std::string ns3Rates = "(an ns-3 DataRate unit: bps, kbps, Kbps, Mbps, Gbps for bits; "
                                 "Bps, KBps, MBps, GBps for bytes per second; Kib/s ... GiB/s; or "
                                 "a bare number of bit/s)";
    RunTable(
        {
            {"100Gbps", 100 * G, ""},
            {"50Mb/s", 50 * kK * kK, ""},
            {"25000000000", 25 * G, ""},
            {"5MB/s", 40 * kK * kK, ""},
            {"1Gib/s", kKi * kKi * kKi, ""},
            {"1Tbps", 0, "'Tbps' in '1Tbps' is not a rate unit " + ns3Rates},
            {"100gbps", 0, "'gbps' in '100gbps' is not a rate unit " + ns3Rates},
            {"0", 0, "rate must be positive (got '0')"},
            {"0.5", 0, "'0.5' is not a whole number of bit/s"},
        },
        [](const std::string& t) { return ParseNs3DataRate(t, "key"); });
    RunTable(
        {
            {"1000ns", 1000000, ""},
            {"0.001ms", 1000000, ""},
            {"0.000001", 1000000, ""},
            {"1000fs", 1, ""},
            {"1d", 86400000000000000, ""},
            {"1fs", 0, "'1fs' is not a whole number of picoseconds"},
            {"1y", 0, "'1y' is too large"},
        },
        [](const std::string& t)
        { return static_cast<uint64_t>(ParseNs3Time(t, "key").GetPicoSeconds()); });
}

TEST(Units, FormattedRatesReadBack)
{
    for (const uint64_t bps : {uint64_t{1},
                               uint64_t{999},
                               uint64_t{25000},
                               uint64_t{40000000},
                               uint64_t{100000000000},
                               uint64_t{2400000000000},
                               uint64_t{429496729600}})
    {
        EXPECT_EQ(ParseRateBps(FormatRate(bps), "key"), bps) << FormatRate(bps);
    }
    EXPECT_EQ(FormatRate(100000000000), "100Gbps");
    EXPECT_EQ(FormatRate(2000000000000), "2Tbps");
    EXPECT_EQ(FormatRate(1500000), "1500Kbps");
}

TEST(Units, FormattedTimesAreExactAndReadBack)
{
    for (const Time t : {Seconds(1), MilliSeconds(30), NanoSeconds(2500), PicoSeconds(1), Time(0)})
    {
        EXPECT_EQ(ParseTime(FormatTime(t), "key"), t) << FormatTime(t);
    }
    EXPECT_EQ(FormatTime(Seconds(1)), "1s");
    EXPECT_EQ(FormatTime(MicroSeconds(1500)), "1500us");
    EXPECT_EQ(FormatTime(PicoSeconds(5120)), "5120ps");
}

TEST(Units, AttributeValuesGoToNs3Exactly)
{
    EXPECT_EQ(UnitsToNs3String("ns3::DataRateValue", "100GBps", "--x"), "800000000000bps");
    EXPECT_EQ(UnitsToNs3String("DataRateValue", "0bps", "--x"), "0bps"); // as ns-3 names it
    EXPECT_EQ(UnitsToNs3String("ns3::TimeValue", "1.5us", "--x"), "1500000ps");
    EXPECT_EQ(UnitsToNs3String("ns3::UintegerValue", "100", "--x"), "100");
    EXPECT_THROW(UnitsToNs3String("DataRateValue", "100", "--x"), InputError);
    EXPECT_THROW(UnitsToNs3String("ns3::TimeValue", "5", "--x"), InputError);
}
