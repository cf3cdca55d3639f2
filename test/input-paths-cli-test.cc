/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Every program's every input option, given an input that is missing, a directory,
// unreadable, empty or garbage, ends with one error line that names the option (the
// file for garbage) and exit status 2. The options come from the programs themselves
// (--PrintInputs), so an option added later is covered without touching this file.

#include "program-run.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace
{

namespace fs = std::filesystem;

const std::string kSource = MLFABRIC_SOURCE_DIR;

/** A program and the arguments of a valid run, apart from the input under test. */
struct Program
{
    std::string binary;                //!< path of the built program
    std::string leading;               //!< arguments before the options (et-info's prefix)
    std::vector<std::string> baseline; //!< --name=value options of a valid run
    std::string positionalPrefix;      //!< name for a positional trace prefix, "" if none
};

std::vector<Program>
Programs(const std::string& scratch)
{
    const std::string ex = MLFABRIC_EXAMPLES_DIR;
    const std::string tools = MLFABRIC_TOOLS_DIR;
    const std::string allreduce = kSource + "/traces/allreduce-8npu/allreduce";
    const std::string ring8 = kSource + "/fabrics/ring-8.yaml";
    const std::string hpcc = kSource + "/examples/inputs/hpcc/config_fat_websearch_2ms_hpcc.txt";
    return {
        {ex + "/chakra-replay",
         "",
         {"--workload=" + allreduce, "--fabric=" + ring8, "--backend=analytical", "--progress=0"},
         ""},
        {ex + "/fabric-info",
         "",
         {"--fabric=" + ring8, "--dot=" + scratch + "/f.dot", "--svg=0"},
         ""},
        {ex + "/incast", "", {"--senders=2", "--size=4KiB"}, ""},
        {ex + "/traffic",
         "",
         {"--fabric=" + kSource + "/fabrics/fat-tree-k4.yaml", "--size=4KiB"},
         ""},
        {ex + "/hpcc-compat",
         "",
         {"--config=" + hpcc,
          "--topology=" + kSource + "/examples/inputs/hpcc/fat.txt",
          "--flows=" + kSource + "/examples/inputs/hpcc/flows_websearch_320h_30pct_2ms.txt",
          "--out-dir=" + scratch,
          "--progress=0"},
         ""},
        {tools + "/et-info", allreduce, {"--dry-run=0"}, "workload"},
        {tools + "/et-gen", "microbench", {"--out=" + scratch + "/gen"}, ""},
    };
}

/** One input option as --PrintInputs lists it. */
struct Input
{
    std::string name; //!< option name
    bool prefix;      //!< a trace prefix rather than a file
};

std::vector<Input>
ListInputs(const Program& program)
{
    const ProgramRun run =
        RunProgram("(" + program.binary + " " + program.leading + " --PrintInputs 2>/dev/null)");
    EXPECT_EQ(run.status, 0) << program.binary << " --PrintInputs";
    std::vector<Input> inputs;
    std::istringstream lines(run.output);
    std::string name;
    std::string kind;
    while (lines >> name >> kind)
    {
        EXPECT_TRUE(kind == "file" || kind == "prefix") << program.binary << ": " << kind;
        inputs.push_back({name, kind == "prefix"});
    }
    return inputs;
}

/** The five bad inputs. */
enum class Bad
{
    Missing,
    Directory,
    Unreadable,
    Empty,
    Garbage,
};

const char*
BadName(Bad bad)
{
    switch (bad)
    {
    case Bad::Missing:
        return "missing";
    case Bad::Directory:
        return "directory";
    case Bad::Unreadable:
        return "unreadable";
    case Bad::Empty:
        return "empty";
    case Bad::Garbage:
        return "garbage";
    }
    return "";
}

/**
 * Make the bad input \p bad in its own folder under \p scratch.
 * \return the value to give the option: the file, or the prefix whose rank 0 file is bad
 */
std::string
MakeBad(const std::string& scratch, Bad bad, bool prefix, const std::string& tag)
{
    const fs::path folder = fs::path(scratch) / (tag + "-" + BadName(bad));
    fs::create_directories(folder);
    const std::string value = (folder / "input").string();
    const std::string file = prefix ? value + ".0.et" : value;
    switch (bad)
    {
    case Bad::Missing:
        break;
    case Bad::Directory:
        fs::create_directories(file);
        break;
    case Bad::Unreadable:
        std::ofstream(file) << "{}\n";
        ::chmod(file.c_str(), 0);
        break;
    case Bad::Empty:
        std::ofstream(file).flush();
        break;
    case Bad::Garbage:
        std::ofstream(file, std::ios::binary) << "\x01\x7f garbage {[: \"\n\xff\xfe";
        break;
    }
    return value;
}

/** Root reads any file: run the unreadable case as nobody, if setpriv can. */
std::string
Unprivileged()
{
    if (::geteuid() != 0)
    {
        return "";
    }
    return ::access("/usr/bin/setpriv", X_OK) == 0
               ? "/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups "
               : "-";
}

/** The error lines of \p text (stderr of one run). */
std::vector<std::string>
ErrorLines(const std::string& text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
    {
        lines.push_back(line);
    }
    return lines;
}

void
Check(const Program& program,
      const std::string& option,
      bool prefix,
      const std::string& scratch,
      Bad bad)
{
    const std::string tag = fs::path(program.binary).filename().string() + "-" +
                            (option.empty() ? program.positionalPrefix : option);
    const std::string value = MakeBad(scratch, bad, prefix, tag);
    std::string command;
    if (bad == Bad::Unreadable)
    {
        command = Unprivileged();
        if (command == "-")
        {
            return; // root without setpriv: nothing is unreadable
        }
    }
    command += program.binary + " " + (option.empty() ? value : program.leading);
    for (const auto& arg : program.baseline)
    {
        if (option.empty() || arg.rfind("--" + option + "=", 0) != 0)
        {
            command += " " + arg;
        }
    }
    if (!option.empty())
    {
        command += " --" + option + "=" + value;
    }
    // stderr only: the table's header may already be on stdout.
    const ProgramRun run = RunProgram("(" + command + " 2>&1 >/dev/null)");
    const std::string what = command + " (" + BadName(bad) + ")";
    EXPECT_EQ(run.status, 2) << what << "\n" << run.output;
    const auto lines = ErrorLines(run.output);
    ASSERT_EQ(lines.size(), 1U) << what << "\n" << run.output;
    EXPECT_EQ(lines[0].rfind("error: ", 0), 0U) << what << "\n" << run.output;
    const std::string named = option.empty() ? program.positionalPrefix : "--" + option;
    if (bad == Bad::Garbage)
    {
        // The reader finds the garbage and names the file (and line) where it is.
        EXPECT_NE(lines[0].find(value), std::string::npos) << what << "\n" << lines[0];
    }
    else
    {
        EXPECT_NE(lines[0].find(named + ": "), std::string::npos) << what << "\n" << lines[0];
    }
    const std::vector<std::pair<Bad, std::string>> problems = {
        {Bad::Missing, "no such file"},
        {Bad::Directory, "is a directory"},
        {Bad::Unreadable, "cannot be read"},
        {Bad::Empty, "is empty"},
    };
    for (const auto& [kind, words] : problems)
    {
        if (kind == bad)
        {
            EXPECT_NE(lines[0].find(words), std::string::npos) << what << "\n" << lines[0];
        }
    }
}

class InputPathsTest : public ::testing::Test
{
  protected:
    void
    SetUp() override
    {
        m_scratch =
            (fs::temp_directory_path() / ("mlfabric-input-paths-" + std::to_string(::getpid())))
                .string();
        fs::create_directories(m_scratch);
    }

    void
    TearDown() override
    {
        std::error_code ignored;
        fs::remove_all(m_scratch, ignored);
    }

    std::string m_scratch; //!< bad inputs and outputs of the runs
};

TEST_F(InputPathsTest, ProgramsDeclareTheirInputs)
{
    const auto programs = Programs(m_scratch);
    const auto replay = ListInputs(programs[0]);
    std::vector<std::string> names;
    for (const auto& input : replay)
    {
        names.push_back(input.name + (input.prefix ? " prefix" : " file"));
    }
    for (const std::string expected :
         {"workload prefix", "fabric file", "system file", "comm-group file", "remote-memory file"})
    {
        EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
    }
}

TEST_F(InputPathsTest, EveryInputOfEveryProgram)
{
    const std::vector<Bad> bads = {
        Bad::Missing, Bad::Directory, Bad::Unreadable, Bad::Empty, Bad::Garbage};
    size_t checked = 0;
    for (const auto& program : Programs(m_scratch))
    {
        ASSERT_TRUE(fs::exists(program.binary)) << program.binary << " not built";
        for (const auto& input : ListInputs(program))
        {
            for (Bad bad : bads)
            {
                Check(program, input.name, input.prefix, m_scratch, bad);
                ++checked;
            }
        }
        if (!program.positionalPrefix.empty())
        {
            for (Bad bad : bads)
            {
                Check(program, "", true, m_scratch, bad);
                ++checked;
            }
        }
    }
    // chakra-replay 5, fabric-info 1, incast 1, hpcc-compat 3, et-info 1 and its prefix.
    EXPECT_GE(checked, 12U * bads.size());
}

} // namespace
