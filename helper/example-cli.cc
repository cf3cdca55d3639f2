/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "example-cli.h"

#include "ns3/config.h"
#include "ns3/et-rank-files.h"
#include "ns3/global-value.h"
#include "ns3/input-error.h"
#include "ns3/input-file.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ExampleCli");

namespace
{

/** \return true if \p name is an ns-3 global value. */
bool
IsGlobalValue(const std::string& name)
{
    for (auto it = GlobalValue::Begin(); it != GlobalValue::End(); ++it)
    {
        if ((*it)->GetName() == name)
        {
            return true;
        }
    }
    return false;
}

/** \return the attribute \p typeId::\p attribute, or throw InputError naming \p option */
TypeId::AttributeInformation
LookupAttribute(const std::string& typeId, const std::string& attribute, const std::string& option)
{
    TypeId tid;
    TypeId::AttributeInformation info;
    if (!TypeId::LookupByNameFailSafe(typeId, &tid) || !tid.LookupAttributeByName(attribute, &info))
    {
        throw InputError(option + ": " + typeId + "::" + attribute + " is not an ns-3 attribute");
    }
    return info;
}

/**
 * \return the value of --ns3::Type::Attribute=\p value as ns-3 should read it: rates and
 * times in the unit grammar, everything else as given
 */
std::string
AttributeText(const std::string& path, const std::string& value)
{
    const auto colons = path.rfind("::");
    TypeId tid;
    TypeId::AttributeInformation info;
    if (colons == std::string::npos ||
        !TypeId::LookupByNameFailSafe(path.substr(0, colons), &tid) ||
        !tid.LookupAttributeByName(path.substr(colons + 2), &info))
    {
        return value; // Config::SetDefaultFailSafe reports the unknown name
    }
    return UnitsToNs3String(info.checker->GetValueTypeName(), value, "--" + path);
}

} // namespace

ExampleCli::ExampleCli(const std::string& description)
{
    m_cmd.Usage(description);
}

void
ExampleCli::Add(const std::string& name, const std::string& help, const std::string& defaultValue)
{
    m_values[name] = defaultValue;
    m_given[name] = false;
    // CommandLine prints the default after the help text itself.
    m_cmd.AddValue(name, help, m_values[name]);
}

void
ExampleCli::AddInput(const std::string& name,
                     const std::string& help,
                     InputKind kind,
                     const std::string& noFile)
{
    Add(name, help, "");
    m_inputs.push_back(Input{name, kind, noFile});
}

void
ExampleCli::CheckInputs() const
{
    for (const auto& input : m_inputs)
    {
        const std::string value = Get(input.name);
        if (!IsSet(input.name) || value.empty() || value == input.noFile)
        {
            continue;
        }
        CheckInputFile(input.kind == InputKind::TracePrefix ? EtRankFilePath(value, 0) : value,
                       "--" + input.name);
    }
}

void
ExampleCli::PrintInputs() const
{
    for (const auto& input : m_inputs)
    {
        std::cout << input.name << (input.kind == InputKind::TracePrefix ? " prefix" : " file")
                  << "\n";
    }
    std::cout.flush();
}

void
ExampleCli::AddRepeated(const std::string& name, const std::string& help)
{
    Add(name, help + "; may be given several times", "");
    m_repeated[name] = {};
}

std::vector<std::string>
ExampleCli::GetAll(const std::string& name) const
{
    auto it = m_repeated.find(name);
    if (it == m_repeated.end())
    {
        throw InputError("--" + name + ": not a repeatable option of this program");
    }
    return it->second;
}

void
ExampleCli::Parse(int argc, char** argv)
{
    // Check every argument before CommandLine sees it: it would print its usage and
    // exit with status 1 on an unknown name.
    static const std::vector<std::string> ns3Flags = {"help",
                                                      "PrintHelp",
                                                      "PrintGlobals",
                                                      "PrintGroups",
                                                      "PrintTypeIds",
                                                      "PrintAttributes",
                                                      "PrintGroup",
                                                      "version",
                                                      "PrintVersion"};
    std::vector<char*> passOn = {argv[0]};
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        if (arg.rfind("--", 0) != 0 || arg.size() == 2)
        {
            throw InputError("unexpected argument '" + arg + "' (options are --name=value)");
        }
        const auto eq = arg.find('=');
        const std::string name = arg.substr(2, eq == std::string::npos ? eq : eq - 2);
        if (name.rfind("ns3::", 0) == 0)
        {
            if (eq == std::string::npos ||
                !Config::SetDefaultFailSafe(name,
                                            StringValue(AttributeText(name, arg.substr(eq + 1)))))
            {
                throw InputError("--" + name + ": not a settable ns-3 attribute or bad value");
            }
            continue;
        }
        if (m_values.find(name) == m_values.end() && IsGlobalValue(name))
        {
            // ns-3 global values, e.g. --SchedulerType=ns3::CalendarScheduler.
            if (eq == std::string::npos ||
                !GlobalValue::BindFailSafe(name, StringValue(arg.substr(eq + 1))))
            {
                throw InputError("--" + name + ": bad value for this ns-3 global value");
            }
            continue;
        }
        if (name == "PrintInputs")
        {
            PrintInputs();
            std::exit(0);
        }
        bool isNs3Flag = false;
        for (const auto& flag : ns3Flags)
        {
            isNs3Flag = isNs3Flag || name == flag;
        }
        if (!isNs3Flag && m_values.find(name) == m_values.end())
        {
            throw InputError("unknown argument --" + name + " (see --help)");
        }
        if (auto repeated = m_repeated.find(name); repeated != m_repeated.end())
        {
            // CommandLine keeps only the last value of an option: collect them here.
            m_given[name] = true;
            m_values[name] = eq == std::string::npos ? "" : arg.substr(eq + 1);
            repeated->second.push_back(m_values[name]);
            continue;
        }
        if (!isNs3Flag)
        {
            m_given[name] = true;
            if (eq == std::string::npos)
            {
                // A bare --flag means "true", as with ns-3's boolean options.
                m_values[name] = "1";
                continue;
            }
        }
        passOn.push_back(argv[i]);
    }
    m_cmd.Parse(static_cast<int>(passOn.size()), passOn.data());
    CheckInputs();
}

std::string
ExampleCli::Get(const std::string& name) const
{
    auto it = m_values.find(name);
    if (it == m_values.end())
    {
        throw InputError("--" + name + ": not an option of this program");
    }
    return it->second;
}

bool
ExampleCli::IsSet(const std::string& name) const
{
    auto it = m_given.find(name);
    return it != m_given.end() && it->second;
}

void
ExampleCli::Fail(const std::string& name, const std::string& what) const
{
    throw InputError("--" + name + ": " + what + " (got '" + Get(name) + "')");
}

uint64_t
ExampleCli::GetBytes(const std::string& name) const
{
    return ParseBytes(Get(name), "--" + name);
}

uint64_t
ExampleCli::GetRateBps(const std::string& name) const
{
    return ParseRateBps(Get(name), "--" + name);
}

Time
ExampleCli::GetTime(const std::string& name) const
{
    return ParseTime(Get(name), "--" + name);
}

uint64_t
ExampleCli::GetUint(const std::string& name, uint64_t min, uint64_t max) const
{
    const std::string text = Get(name);
    size_t used = 0;
    unsigned long long value = 0;
    try
    {
        value = std::stoull(text, &used);
    }
    catch (const std::exception&)
    {
        used = 0;
    }
    if (used == 0 || used != text.size() || text[0] == '-')
    {
        Fail(name, "not a whole number");
    }
    if (value < min || value > max)
    {
        Fail(name, "must be in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
    }
    return value;
}

double
ExampleCli::GetDouble(const std::string& name, double min, double max) const
{
    const std::string text = Get(name);
    size_t used = 0;
    double value = 0;
    try
    {
        value = std::stod(text, &used);
    }
    catch (const std::exception&)
    {
        used = 0;
    }
    if (used == 0 || used != text.size() || !std::isfinite(value))
    {
        Fail(name, "not a number");
    }
    if (value < min || value > max)
    {
        std::ostringstream range;
        range << "must be in [" << min << ", " << max << "]";
        Fail(name, range.str());
    }
    return value;
}

void
ExampleCli::CheckAttributeRange(const std::string& name,
                                uint64_t value,
                                const std::string& typeId,
                                const std::string& attribute) const
{
    const auto info = LookupAttribute(typeId, attribute, "--" + name);
    if (info.checker->Check(UintegerValue(value)))
    {
        return;
    }
    // The checker prints its range as "<type> <min>:<max>".
    const std::string range = info.checker->HasUnderlyingTypeInformation()
                                  ? info.checker->GetUnderlyingTypeInformation()
                                  : "";
    const auto space = range.find(' ');
    const auto colon = range.find(':');
    if (space == std::string::npos || colon == std::string::npos)
    {
        Fail(name, "not a value of " + typeId + "::" + attribute);
    }
    Fail(name,
         "must be in [" + range.substr(space + 1, colon - space - 1) + ", " +
             range.substr(colon + 1) + "], the range of " + typeId + "::" + attribute);
}

uint64_t
ExampleCli::GetUintFor(const std::string& name,
                       const std::string& typeId,
                       const std::string& attribute) const
{
    const uint64_t value = GetUint(name, 0, std::numeric_limits<uint64_t>::max());
    CheckAttributeRange(name, value, typeId, attribute);
    return value;
}

uint64_t
ExampleCli::GetBytesFor(const std::string& name,
                        const std::string& typeId,
                        const std::string& attribute) const
{
    const uint64_t value = GetBytes(name);
    CheckAttributeRange(name, value, typeId, attribute);
    return value;
}

bool
ExampleCli::GetBool(const std::string& name) const
{
    const std::string text = Get(name);
    if (text == "1" || text == "true" || text == "yes" || text == "on")
    {
        return true;
    }
    if (text == "0" || text == "false" || text == "no" || text == "off")
    {
        return false;
    }
    Fail(name, "not a boolean (use 0 or 1)");
}

namespace
{

/** \return the first of \p names set in the environment, as a number; \p otherwise if none */
uint32_t
FromEnvironment(std::initializer_list<const char*> names, uint32_t otherwise)
{
    for (const char* name : names)
    {
        const char* value = std::getenv(name);
        if (value != nullptr && *value != '\0')
        {
            return static_cast<uint32_t>(std::strtoul(value, nullptr, 10));
        }
    }
    return otherwise;
}

} // namespace

uint32_t
GetLaunchedProcessCount()
{
    return std::max<uint32_t>(FromEnvironment({"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}, 1), 1);
}

uint32_t
GetLaunchedProcess()
{
    return FromEnvironment({"OMPI_COMM_WORLD_RANK", "PMI_RANK"}, 0);
}

int
RunMain(const std::function<int()>& body, bool distributed)
{
    // Under mpirun a program that runs in one process would run the whole simulation in
    // every process and write the same files: say so rather than run N copies.
    const uint32_t processes = GetLaunchedProcessCount();
    if (processes > 1 && !distributed)
    {
        std::cerr << "error: started as one of " << processes
                  << " MPI processes: this program runs its simulation in one process; "
                     "incast runs across processes (doc/scaling.md)"
                  << std::endl;
        return 2;
    }
    Time::SetResolution(Time::PS);
    // The binary-heap priority queue runs mlfabric's event mix fastest (doc/performance.md);
    // --SchedulerType=... or NS_GLOBAL_VALUE still choose another.
    if (std::getenv("NS_GLOBAL_VALUE") == nullptr)
    {
        GlobalValue::Bind("SchedulerType", StringValue("ns3::PriorityQueueScheduler"));
    }
    try
    {
        return body();
    }
    catch (const InputError& e)
    {
        // Under mpirun every process reports (one that stops first may have the others
        // killed before they could), each in one write so that the lines do not mix.
        const std::string line = "error: " + std::string(e.what()) + "\n";
        std::fwrite(line.data(), 1, line.size(), stderr);
        std::fflush(stderr);
        return 2;
    }
}

} // namespace ns3
