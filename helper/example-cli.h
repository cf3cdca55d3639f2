/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_EXAMPLE_CLI_H
#define MLFABRIC_EXAMPLE_CLI_H

#include "ns3/command-line.h"
#include "ns3/nstime.h"
#include "ns3/units.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Command line of an mlfabric program: ns-3's CommandLine with strict checking.
 *
 * Options are declared as strings with a default and read back with typed getters
 * that validate them. An unknown option or a bad value throws InputError naming the
 * option, so that RunMain prints one line and exits with status 2 instead of
 * CommandLine's usage dump. Sizes, rates and times follow the unit grammar of
 * doc/units.md. Attribute defaults (--ns3::Type::Attribute=value; rates and times read
 * with the same grammar) and global values (--SchedulerType=...) are set and checked
 * here; ns-3's own flags
 * (--PrintHelp, --PrintGlobals, ...) pass through to CommandLine.
 */
class ExampleCli
{
  public:
    /** \param description one line printed by --help */
    explicit ExampleCli(const std::string& description);

    /**
     * Declare an option.
     * \param name option name, without the leading dashes
     * \param help one-line help text
     * \param defaultValue value used when the option is absent
     */
    void Add(const std::string& name, const std::string& help, const std::string& defaultValue);

    /**
     * Declare an option that may be given several times, e.g. --job=a --job=b.
     * \param name option name, without the leading dashes
     * \param help one-line help text
     */
    void AddRepeated(const std::string& name, const std::string& help);

    /** What an input option names. */
    enum class InputKind
    {
        File,        //!< one file
        TracePrefix, //!< a Chakra workload: rank r reads <value>.r.et
    };

    /**
     * Declare an option that names an input, empty by default. When it is given, Parse
     * checks that the input exists, is a file, can be read and is not empty
     * (CheckInputFile), and throws InputError "--name: <path>: <problem>" otherwise,
     * before the program reads any other file. `--PrintInputs` lists these options, one
     * "<name> file|prefix" line each, so that tests cover every one of them.
     * \param name option name, without the leading dashes
     * \param help one-line help text
     * \param kind a file or a trace prefix (its rank 0 file is checked)
     * \param noFile a value that names no file (e.g. "empty"); "" for none
     */
    void AddInput(const std::string& name,
                  const std::string& help,
                  InputKind kind = InputKind::File,
                  const std::string& noFile = "");

    /**
     * Parse argv. Throws InputError on an unknown option or a malformed one.
     * \param argc argument count
     * \param argv argument vector
     */
    void Parse(int argc, char** argv);

    /** \param name option \return its raw value */
    std::string Get(const std::string& name) const;
    /** \param name a repeatable option \return its values in command-line order */
    std::vector<std::string> GetAll(const std::string& name) const;
    /** \param name option \return true if it was given on the command line */
    bool IsSet(const std::string& name) const;
    /** \param name option \return a size such as 4096B, 4KiB, 4MiB, 1GB (doc/units.md) */
    uint64_t GetBytes(const std::string& name) const;
    /** \param name option \return a rate in bit/s such as 100Gbps, 100Gb/s, 12.5GBps */
    uint64_t GetRateBps(const std::string& name) const;
    /** \param name option \return a duration such as 1us, 500ns, 2ms */
    Time GetTime(const std::string& name) const;
    /**
     * \param name option
     * \param min smallest accepted value
     * \param max largest accepted value
     * \return an integer in [min, max]
     */
    uint64_t GetUint(const std::string& name, uint64_t min, uint64_t max) const;
    /**
     * \param name option
     * \param min smallest accepted value
     * \param max largest accepted value
     * \return a real number in [min, max]
     */
    double GetDouble(const std::string& name, double min, double max) const;
    /**
     * A whole number that an ns-3 attribute holds: the range is the attribute's checker's,
     * so the command line cannot drift from the model.
     * \param name option
     * \param typeId the attribute's TypeId, e.g. "ns3::RdmaNic"
     * \param attribute the attribute, e.g. "CnpPriority"
     * \return the value
     */
    uint64_t GetUintFor(const std::string& name,
                        const std::string& typeId,
                        const std::string& attribute) const;
    /**
     * A size (with its unit, e.g. 4096B or 4KiB) that an ns-3 attribute holds in bytes,
     * checked by the attribute's checker.
     * \param name option
     * \param typeId the attribute's TypeId, e.g. "ns3::RdmaNic"
     * \param attribute the attribute, e.g. "Mtu"
     * \return bytes
     */
    uint64_t GetBytesFor(const std::string& name,
                         const std::string& typeId,
                         const std::string& attribute) const;
    /** \param name option \return a boolean given as 0/1/true/false/yes/no/on/off */
    bool GetBool(const std::string& name) const;

  private:
    /** Check every given input option (AddInput). */
    void CheckInputs() const;
    /** Print the input options for --PrintInputs. */
    void PrintInputs() const;

    /** An input option's declaration. */
    struct Input
    {
        std::string name;   //!< option name
        InputKind kind;     //!< file or trace prefix
        std::string noFile; //!< a value that names no file
    };

    /** Throw InputError("--name: what (got 'value')"). */
    [[noreturn]] void Fail(const std::string& name, const std::string& what) const;
    /** Throw InputError naming option \p name unless \p value passes the attribute's checker. */
    void CheckAttributeRange(const std::string& name,
                             uint64_t value,
                             const std::string& typeId,
                             const std::string& attribute) const;

    CommandLine m_cmd;                           //!< ns-3's parser, for --help and attributes
    std::map<std::string, std::string> m_values; //!< option name -> value
    std::map<std::string, bool> m_given;         //!< option name -> seen on the command line
    std::map<std::string, std::vector<std::string>> m_repeated; //!< repeatable option -> values
    std::vector<Input> m_inputs; //!< input options, in declaration order
};

/**
 * \ingroup mlfabric-helper
 * Run a program body, turning input errors into one line and exit status 2.
 *
 * Also sets picosecond time resolution before the body creates any Time, and the
 * priority-queue event scheduler unless NS_GLOBAL_VALUE chooses. Started by mpirun as
 * several processes, a program that cannot run across them stops with one line and
 * status 2; one that can (\p distributed) runs.
 * \param body the program
 * \param distributed true if the program runs one simulation across MPI processes
 * \return the process exit status
 */
int RunMain(const std::function<int()>& body, bool distributed = false);

/**
 * \ingroup mlfabric-helper
 * \return the processes the program was started as by mpirun (Open MPI's
 *         OMPI_COMM_WORLD_SIZE, MPICH's PMI_SIZE); 1 without mpirun
 */
uint32_t GetLaunchedProcessCount();

/**
 * \ingroup mlfabric-helper
 * \return this process's rank among them (OMPI_COMM_WORLD_RANK, PMI_RANK); 0 without mpirun
 */
uint32_t GetLaunchedProcess();

} // namespace ns3

#endif /* MLFABRIC_EXAMPLE_CLI_H */
