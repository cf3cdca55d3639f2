/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The HPCC simulator's config.txt: every key of the shipped configurations, warnings
// for unknown and repeated keys, and errors that name the file, line and key.

#include "ns3/hpcc-config.h"
#include "ns3/input-error.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

using namespace ns3;

namespace
{

const std::string kData = std::string(MLFABRIC_SHARED_DIR) + "/data/hpcc/";

/** Write \p text to a file in the test's temporary folder and return its path. */
std::string
WriteFile(const std::string& name, const std::string& text)
{
    const std::string path = testing::TempDir() + name;
    std::ofstream(path) << text;
    return path;
}

/** \return the keys a configuration file gives, one per non-blank line */
std::set<std::string>
KeysOf(const std::string& path)
{
    std::ifstream in(path);
    std::set<std::string> keys;
    for (std::string line; std::getline(in, line);)
    {
        std::istringstream words(line);
        std::string key;
        if (words >> key)
        {
            keys.insert(key);
        }
    }
    return keys;
}

} // namespace

TEST(HpccConfig, ShippedConfigurationsUseOnlyKnownKeys)
{
    const std::set<std::string> known(HpccConfigKeys().begin(), HpccConfigKeys().end());
    EXPECT_EQ(known.size(), 50u);
    for (const char* file : {"config_example.txt",
                             "config_fat_websearch_2ms_hpcc.txt",
                             "config_fat_websearch_2ms_dcqcn.txt"})
    {
        const HpccConfig c = ReadHpccConfig(kData + file);
        EXPECT_TRUE(c.warnings.empty()) << file << ": " << c.warnings.front();
        const auto keys = KeysOf(kData + file);
        EXPECT_EQ(keys.size(), 47u) << file;
        for (const auto& key : keys)
        {
            EXPECT_TRUE(known.count(key)) << file << ": " << key;
            EXPECT_TRUE(c.Has(key)) << file << ": " << key;
        }
    }
}

TEST(HpccConfig, FatTreeHpccValues)
{
    const HpccConfig c = ReadHpccConfig(kData + "config_fat_websearch_2ms_hpcc.txt");
    EXPECT_TRUE(c.enableQcn);
    EXPECT_EQ(c.packetPayloadSize, 1000u);
    EXPECT_EQ(c.topologyFile, "mix/fat.txt");
    EXPECT_EQ(c.flowFile, "mix/bench_ws320_l30_2ms.txt");
    EXPECT_EQ(c.fctOutputFile, "mix/fct_fat_bench_ws320_l30_2ms_hp95.txt");
    EXPECT_EQ(c.pfcOutputFile, "mix/pfc_fat_bench_ws320_l30_2ms_hp95.txt");
    EXPECT_EQ(c.qlenMonFile, "mix/qlen_fat_bench_ws320_l30_2ms_hp95.txt");
    EXPECT_DOUBLE_EQ(c.simulatorStopTime, 4.0);
    EXPECT_EQ(c.ccMode, 3u);
    EXPECT_DOUBLE_EQ(c.alphaResumeInterval, 1);
    EXPECT_DOUBLE_EQ(c.rateDecreaseInterval, 4);
    EXPECT_FALSE(c.clampTargetRate);
    EXPECT_DOUBLE_EQ(c.rpTimer, 300);
    EXPECT_DOUBLE_EQ(c.ewmaGain, 1.0 / 256);
    EXPECT_EQ(c.fastRecoveryTimes, 1u);
    EXPECT_EQ(c.rateAiBps, 40'000'000u);
    EXPECT_EQ(c.rateHaiBps, 40'000'000u);
    EXPECT_EQ(c.minRateBps, 1'000'000'000u);
    EXPECT_EQ(c.dctcpRateAiBps, 1'000'000'000u);
    EXPECT_DOUBLE_EQ(c.errorRatePerLink, 0);
    EXPECT_EQ(c.l2ChunkSize, 4000u);
    EXPECT_EQ(c.l2AckInterval, 1u);
    EXPECT_FALSE(c.l2BackToZero);
    EXPECT_TRUE(c.hasWin);
    EXPECT_TRUE(c.globalT);
    EXPECT_TRUE(c.varWin);
    EXPECT_TRUE(c.fastReact);
    EXPECT_DOUBLE_EQ(c.uTarget, 0.95);
    EXPECT_EQ(c.miThresh, 0u);
    EXPECT_EQ(c.intMulti, 4u);
    EXPECT_FALSE(c.multiRate);
    EXPECT_FALSE(c.sampleFeedback);
    EXPECT_DOUBLE_EQ(c.pintLogBase, 1.05);
    EXPECT_DOUBLE_EQ(c.pintProb, 1.0);
    EXPECT_TRUE(c.rateBound);
    EXPECT_EQ(c.ackHighPrio, 0u);
    EXPECT_EQ(c.linkDownTimeUs, 0u);
    EXPECT_FALSE(c.enableTrace);
    EXPECT_EQ(c.bufferSizeMiB, 32u);
    EXPECT_EQ(c.qlenMonStartNs, 3'900'000'000u);
    EXPECT_EQ(c.qlenMonEndNs, 3'900'000'000u);
    ASSERT_EQ(c.ecn.size(), 2u);
    const HpccEcnEntry& e100 = c.ecn.at(100'000'000'000);
    EXPECT_EQ(e100.kminKb, 400u);
    EXPECT_EQ(e100.kmaxKb, 1600u);
    EXPECT_DOUBLE_EQ(e100.pmax, 0.2);
    const HpccEcnEntry& e400 = c.ecn.at(400'000'000'000);
    EXPECT_EQ(e400.kminKb, 1600u);
    EXPECT_EQ(e400.kmaxKb, 6400u);
    EXPECT_TRUE(e400.hasKmin && e400.hasKmax && e400.hasPmax);
    EXPECT_EQ(c.Where("CC_MODE"), kData + "config_fat_websearch_2ms_hpcc.txt:15");
}

TEST(HpccConfig, DcqcnAndExampleValues)
{
    const HpccConfig d = ReadHpccConfig(kData + "config_fat_websearch_2ms_dcqcn.txt");
    EXPECT_EQ(d.ccMode, 1u);
    EXPECT_EQ(d.rateAiBps, 20'000'000u);
    EXPECT_EQ(d.rateHaiBps, 200'000'000u);
    EXPECT_FALSE(d.hasWin);
    EXPECT_FALSE(d.varWin);
    EXPECT_FALSE(d.fastReact);
    EXPECT_EQ(d.intMulti, 1u);
    EXPECT_EQ(d.ackHighPrio, 1u);

    // CRLF line ends; three-rate ECN maps; tracing on.
    const HpccConfig x = ReadHpccConfig(kData + "config_example.txt");
    EXPECT_EQ(x.topologyFile, "mix/topology.txt");
    EXPECT_EQ(x.flowFile, "mix/flow.txt");
    EXPECT_DOUBLE_EQ(x.rpTimer, 900);
    EXPECT_EQ(x.rateAiBps, 50'000'000u);
    EXPECT_EQ(x.rateHaiBps, 100'000'000u);
    EXPECT_EQ(x.minRateBps, 100'000'000u);
    EXPECT_TRUE(x.enableTrace);
    EXPECT_EQ(x.qlenMonStartNs, 2'000'000'000u);
    EXPECT_EQ(x.qlenMonEndNs, 2'010'000'000u);
    ASSERT_EQ(x.ecn.size(), 3u);
    EXPECT_EQ(x.ecn.at(25'000'000'000).kminKb, 100u);
    EXPECT_EQ(x.ecn.at(50'000'000'000).kmaxKb, 800u);
}

TEST(HpccConfig, AbsentKeysKeepTheSimulatorsBuiltInValues)
{
    const HpccConfig c = ReadHpccConfig(WriteFile("hpcc-empty.txt", "\n# nothing\n"));
    EXPECT_TRUE(c.warnings.empty());
    EXPECT_TRUE(c.lines.empty());
    EXPECT_EQ(c.ccMode, 1u);
    EXPECT_DOUBLE_EQ(c.alphaResumeInterval, 55);
    EXPECT_DOUBLE_EQ(c.rpTimer, 0);
    EXPECT_DOUBLE_EQ(c.ewmaGain, 0);
    EXPECT_EQ(c.fastRecoveryTimes, 5u);
    EXPECT_EQ(c.miThresh, 5u);
    EXPECT_TRUE(c.multiRate);
    EXPECT_EQ(c.bufferSizeMiB, 16u);
    EXPECT_DOUBLE_EQ(c.simulatorStopTime, 3.01);
    EXPECT_EQ(c.fctOutputFile, "fct.txt");
    EXPECT_EQ(c.pfcOutputFile, "pfc.txt");
    EXPECT_FALSE(c.Has("RATE_AI"));
    EXPECT_EQ(c.Where("RATE_AI"), c.path);
}

TEST(HpccConfig, UnknownAndRepeatedKeysAreWarnings)
{
    const std::string path = WriteFile("hpcc-unknown.txt",
                                       "CC_MODE 3\n"
                                       "NIC_TOTAL_PAUSE_TIME 0\n"
                                       "\n"
                                       "CC_MODE 8\n"
                                       "U_TARGET 0.9\n");
    const HpccConfig c = ReadHpccConfig(path);
    ASSERT_EQ(c.warnings.size(), 2u);
    EXPECT_EQ(c.warnings[0], path + ":2: unknown key NIC_TOTAL_PAUSE_TIME, ignored");
    EXPECT_EQ(c.warnings[1], path + ":4: CC_MODE given again (first on line 1); this value wins");
    EXPECT_EQ(c.ccMode, 8u);
    EXPECT_EQ(c.Where("CC_MODE"), path + ":4");
    EXPECT_DOUBLE_EQ(c.uTarget, 0.9);
}

TEST(HpccConfig, BadValuesNameTheFileLineAndKey)
{
    const std::pair<const char*, const char*> cases[] = {
        {"CC_MODE three", "CC_MODE: not a whole number"},
        {"CC_MODE -1", "CC_MODE: not a whole number"},
        {"ENABLE_QCN 2", "ENABLE_QCN: must be in [0, 1]"},
        {"HAS_WIN", "HAS_WIN: expects 1 value, got 0"},
        {"RATE_AI fast", "RATE_AI: 'fast' is not a rate"},
        {"MIN_RATE 0Mb/s", "MIN_RATE: rate must be positive"},
        {"U_TARGET 1.5", "U_TARGET: must be in"},
        {"EWMA_GAIN 0.1x", "EWMA_GAIN: not a number"},
        {"PACKET_PAYLOAD_SIZE 10", "PACKET_PAYLOAD_SIZE: must be in [64, 9000]"},
        {"KMAX_MAP 2 100000000000 1600", "KMAX_MAP: announces 2 rates, so expects 5 values"},
        {"PMAX_MAP 1 100000000000 1.2", "PMAX_MAP: must be in [0, 1]"},
        // The simulator reads a map's rate into a uint64_t: a unit or an exponent would
        // stop its stream there.
        {"KMAX_MAP 1 100Gbps 1600", "KMAX_MAP: link rate '100Gbps' must be a whole number"},
        {"KMIN_MAP 1 1e11 400", "KMIN_MAP: link rate '1e11' must be a whole number"},
        // RATE_AI and friends are ns-3 DataRate strings, case-sensitive as there.
        {"RATE_AI 50mb/s", "RATE_AI: 'mb/s' in '50mb/s' is not a rate unit (an ns-3 DataRate"},
        {"RATE_AI 5Tbps", "RATE_AI: 'Tbps' in '5Tbps' is not a rate unit"},
        {"LINK_DOWN 0 1", "LINK_DOWN: expects 3 values, got 2"},
        {"TOPOLOGY_FILE a b", "TOPOLOGY_FILE: expects 1 value, got 2"},
        {"RP_TIMER 0", "RP_TIMER: must be in"},
        {"BUFFER_SIZE 0", "BUFFER_SIZE: must be in [1,"},
    };
    for (const auto& [line, message] : cases)
    {
        const std::string path =
            WriteFile("hpcc-bad.txt", "ENABLE_QCN 1\n\n" + std::string(line) + "\n");
        try
        {
            ReadHpccConfig(path);
            ADD_FAILURE() << line << ": no error";
        }
        catch (const InputError& e)
        {
            const std::string what = e.what();
            EXPECT_EQ(what.rfind(path + ":3: " + message, 0), 0u) << line << " -> " << what;
        }
    }
}

TEST(HpccConfig, MissingFileIsAnInputError)
{
    try
    {
        ReadHpccConfig("/nonexistent/config.txt");
        ADD_FAILURE() << "no error";
    }
    catch (const InputError& e)
    {
        EXPECT_EQ(std::string(e.what()),
                  "/nonexistent/config.txt: no such file");
    }
}
