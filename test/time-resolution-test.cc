/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// A network needs picosecond time: a coarser resolution is refused, not rounded.
#include "program-run.h"

#include "ns3/input-error.h"
#include "ns3/nstime.h"
#include "ns3/roce-port.h"

#include <gtest/gtest.h>
#include <unistd.h>

using namespace ns3;

// Run by the next test in a process of its own that kept ns-3's default resolution.
TEST(TimeResolution, DISABLED_PortUnderDefaultResolution)
{
    ASSERT_EQ(Time::GetResolution(), Time::NS);
    try
    {
        CreateObject<RocePort>();
        ADD_FAILURE() << "a RocePort was built under nanosecond resolution";
    }
    catch (const InputError& error)
    {
        std::cout << "refused: " << error.what() << std::endl;
    }
}

TEST(TimeResolution, PortRefusesNanosecondResolution)
{
    // This very program again, in a process that keeps ns-3's default resolution, running
    // only the case above: a GoogleTest binary, or ns-3's test-runner in an ns-3 tree.
    const std::string self = "/proc/" + std::to_string(getpid()) + "/exe";
    const std::string only = "TimeResolution.DISABLED_PortUnderDefaultResolution";
#ifdef MLFABRIC_NS3_TEST_RUNNER
    const ProgramRun run =
        RunProgram("MLFABRIC_TEST_DEFAULT_RESOLUTION=1 MLFABRIC_GTEST_FILTER=" + only + " " + self +
                   " --suite=mlfabric-time-resolution");
#else
    const ProgramRun run = RunProgram("MLFABRIC_TEST_DEFAULT_RESOLUTION=1 " + self +
                                      " --gtest_also_run_disabled_tests --gtest_filter=" + only);
#endif
    EXPECT_EQ(run.status, 0) << run.output;
    EXPECT_NE(run.output.find("refused: RocePort: the simulator's time resolution is 1 ns"),
              std::string::npos)
        << run.output;
    EXPECT_NE(run.output.find("Time::SetResolution(Time::PS)"), std::string::npos) << run.output;
    // Under picoseconds (this process) the same port builds.
    EXPECT_NO_THROW(CreateObject<RocePort>());
}
