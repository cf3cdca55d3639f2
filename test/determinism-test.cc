/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Same inputs and seed give the same outputs, bit for bit; another seed changes them.

#include "program-run.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

namespace
{

/** Run the incast with random loss and return its summary without wall-clock figures. */
nlohmann::json
LossyIncast(const std::string& extra, const std::string& name)
{
    const std::string path = testing::TempDir() + name;
    const ProgramRun run = RunProgram(
        std::string(MLFABRIC_EXAMPLES_DIR) +
        "/incast --senders=8 --size=512KiB --loss=0.002 --summary=" + path + " " + extra);
    EXPECT_EQ(run.status, 0) << run.output;
    std::ifstream in(path);
    nlohmann::json summary = nlohmann::json::parse(in);
    summary.erase("wall_seconds"); // wall-clock figures are the only ones allowed to differ
    summary.erase("events_per_second");
    return summary;
}

} // namespace

TEST(Determinism, SameSeedSameOutputs)
{
    const auto first = LossyIncast("", "determinism-a.json");
    const auto second = LossyIncast("", "determinism-b.json");
    EXPECT_GT(first["lost_frames"].get<uint64_t>(), 0u);
    EXPECT_EQ(first.dump(), second.dump());
}

TEST(Determinism, AnotherRunNumberChangesTheLosses)
{
    const auto first = LossyIncast("--RngRun=1", "determinism-c.json");
    const auto second = LossyIncast("--RngRun=2", "determinism-d.json");
    EXPECT_EQ(first["bytes_delivered"], second["bytes_delivered"]);
    EXPECT_NE(first.dump(), second.dump());
}
