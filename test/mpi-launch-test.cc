/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The example programs other than incast, hpcc-compat and chakra-replay run one
// simulation in one process: started as one of several MPI processes they refuse with
// one line and status 2, instead of every process running the whole simulation and
// writing the same outputs.

#include "program-run.h"

#include <gtest/gtest.h>

#include <string>

namespace
{

const std::string kExamples = MLFABRIC_EXAMPLES_DIR;
const std::string kSource = MLFABRIC_SOURCE_DIR;
const std::string kFabricInfo =
    kExamples + "/fabric-info --fabric=" + kSource + "/fabrics/ring-8.yaml --svg=0";

} // namespace

TEST(MpiLaunch, SeveralProcessesAreRefusedByName)
{
    for (const std::string variable : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    {
        for (const std::string program : {kExamples + "/traffic", kFabricInfo})
        {
            const ProgramRun run = RunProgram(variable + "=2 " + program);
            EXPECT_EQ(run.status, 2) << program << ": " << run.output;
            EXPECT_EQ(run.output.find("error: started as one of 2 MPI processes: "), 0u)
                << run.output;
            EXPECT_EQ(run.output.find('\n'), run.output.size() - 1) << run.output;
        }
    }
}

TEST(MpiLaunch, OneProcessRuns)
{
    const ProgramRun run = RunProgram("OMPI_COMM_WORLD_SIZE=1 " + kFabricInfo);
    EXPECT_EQ(run.status, 0) << run.output;
    EXPECT_NE(run.output.find("bisection bandwidth"), std::string::npos) << run.output;
}
