/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Shared main of the GoogleTest binaries: picosecond time, as in every mlfabric run,
// unless MLFABRIC_TEST_DEFAULT_RESOLUTION is set (for the test that a network refuses
// ns-3's default resolution; ns-3 lets a process set its resolution only once).
#include "ns3/nstime.h"

#include <gtest/gtest.h>

#include <cstdlib>

int
main(int argc, char** argv)
{
    if (std::getenv("MLFABRIC_TEST_DEFAULT_RESOLUTION") == nullptr)
    {
        ns3::Time::SetResolution(ns3::Time::PS);
    }
    testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
