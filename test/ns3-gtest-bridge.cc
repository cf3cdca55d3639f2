/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3-gtest-bridge.h"

#include "ns3/nstime.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace ns3
{

namespace
{

/** Runs the GoogleTest cases that match a filter; fails with the names of those that fail. */
class GtestCase : public TestCase
{
  public:
    /** \param filter GoogleTest filter */
    explicit GtestCase(const std::string& filter)
        : TestCase("GoogleTest cases " + filter)
        , m_filter(filter)
    {
    }

  private:
    void
    DoRun() override
    {
        static bool initialized = false;
        if (!initialized)
        {
            // Picosecond time, as every mlfabric program and the ctest binaries use, unless
            // MLFABRIC_TEST_DEFAULT_RESOLUTION is set (for the test that a network refuses
            // ns-3's default resolution; ns-3 lets a process set its resolution only once).
            if (std::getenv("MLFABRIC_TEST_DEFAULT_RESOLUTION") == nullptr)
            {
                Time::SetResolution(Time::PS);
            }
            int argc = 1;
            char name[] = "test-runner";
            char* argv[] = {name, nullptr};
            testing::InitGoogleTest(&argc, argv);
            initialized = true;
        }
        // MLFABRIC_GTEST_FILTER runs one chosen case instead, disabled ones included: a test
        // that needs a process of its own runs a case of its suite that way.
        const char* chosen = std::getenv("MLFABRIC_GTEST_FILTER");
        GTEST_FLAG_SET(filter, chosen != nullptr ? std::string(chosen) : m_filter);
        GTEST_FLAG_SET(also_run_disabled_tests, chosen != nullptr);
        const int status = RUN_ALL_TESTS();
        const testing::UnitTest& unit = *testing::UnitTest::GetInstance();
        std::string failed;
        for (int i = 0; i < unit.total_test_suite_count(); ++i)
        {
            const testing::TestSuite& suite = *unit.GetTestSuite(i);
            for (int j = 0; j < suite.total_test_count(); ++j)
            {
                const testing::TestInfo& info = *suite.GetTestInfo(j);
                if (info.should_run() && info.result()->Failed())
                {
                    failed += std::string(" ") + suite.name() + "." + info.name();
                }
            }
        }
        NS_TEST_ASSERT_MSG_GT(
            unit.test_to_run_count(), 0, "no GoogleTest case matches " + m_filter);
        NS_TEST_ASSERT_MSG_EQ(failed, "", "GoogleTest cases failed:" + failed);
        NS_TEST_ASSERT_MSG_EQ(status, 0, "GoogleTest run failed for " + m_filter);
    }

    std::string m_filter; //!< which cases
};

} // namespace

GtestSuite::GtestSuite(const std::string& name, const std::string& filter)
    : TestSuite(name, TestSuite::UNIT)
{
    AddTestCase(new GtestCase(filter), TestCase::QUICK);
}

} // namespace ns3
