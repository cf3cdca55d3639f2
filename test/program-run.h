/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_TEST_PROGRAM_RUN_H
#define MLFABRIC_TEST_PROGRAM_RUN_H

#include <sys/wait.h>

#include <cstdio>
#include <string>

/** Output and exit status of a program run by a test. */
struct ProgramRun
{
    std::string output; //!< stdout and stderr, interleaved
    int status{-1};     //!< exit status; -1 if it did not exit normally
};

/** Run \p command through the shell and capture what it prints. */
inline ProgramRun
RunProgram(const std::string& command)
{
    ProgramRun run;
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    if (pipe == nullptr)
    {
        return run;
    }
    char buffer[4096];
    size_t n = 0;
    while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0)
    {
        run.output.append(buffer, n);
    }
    const int raw = pclose(pipe);
    run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    return run;
}

#endif /* MLFABRIC_TEST_PROGRAM_RUN_H */
