/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Shared main of the GoogleTest binaries: picosecond time, as in every mlfabric run.
#include "ns3/nstime.h"

#include <gtest/gtest.h>

int
main(int argc, char** argv)
{
    ns3::Time::SetResolution(ns3::Time::PS);
    testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
