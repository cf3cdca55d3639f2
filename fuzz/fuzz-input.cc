/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fuzz-input.h"

#include "ns3/input-error.h"
#include "ns3/nstime.h"

#include <cxxabi.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <typeinfo>

namespace ns3
{

namespace
{

/** The private folder of this process, removed at exit. */
std::string g_folder;
/** Print every InputError (MLFABRIC_FUZZ_SHOW_ERRORS=1), to see what the inputs get. */
bool g_showErrors{false};

/** Remove the private folder and the input files in it. */
void
RemoveFolder()
{
    std::error_code ignored;
    std::filesystem::remove_all(g_folder, ignored);
}

/** \param type a type \return its name as written in C++ */
std::string
TypeName(const std::type_info& type)
{
    int status = 0;
    std::unique_ptr<char, decltype(&std::free)> name(
        abi::__cxa_demangle(type.name(), nullptr, nullptr, &status), &std::free);
    return status == 0 && name ? name.get() : type.name();
}

/** Print a defect and abort, so that libFuzzer saves the input. \param report the defect */
[[noreturn]] void
Die(const std::string& report)
{
    std::fprintf(stderr, "==fuzz== DEFECT: %s\n", report.c_str());
    std::fflush(stderr);
    std::abort();
}

} // namespace

void
InitializeFuzzer()
{
    Time::SetResolution(Time::PS);
    const char* show = std::getenv("MLFABRIC_FUZZ_SHOW_ERRORS");
    g_showErrors = show != nullptr && std::string(show) == "1";
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern =
        std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/mlfabric-fuzz-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr)
    {
        Die("cannot create a folder from " + pattern + ": " + std::strerror(errno));
    }
    g_folder = pattern;
    std::atexit(RemoveFolder);
}

std::string
WriteFuzzInput(const uint8_t* data, size_t size, const std::string& name)
{
    const std::string path = g_folder + "/" + name;
    // A new file rather than a truncated one: ext4 flushes a file truncated and
    // rewritten on close, which would cost a disk write per input.
    std::remove(path.c_str());
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (file == nullptr || std::fwrite(data, 1, size, file) != size || std::fclose(file) != 0)
    {
        Die("cannot write " + path + ": " + std::strerror(errno));
    }
    return path;
}

void
RunReader(const std::function<void()>& read)
{
    try
    {
        read();
    }
    catch (const InputError& error)
    {
        const std::string message = error.what();
        Expect(!message.empty(), "an InputError has a message");
        if (g_showErrors)
        {
            std::fprintf(stderr, "InputError: %s\n", message.c_str());
        }
    }
    catch (const std::exception& error)
    {
        Die(std::string("exception of type ") + TypeName(typeid(error)) +
            " instead of InputError: " + error.what());
    }
    catch (...)
    {
        Die("an exception that is not a std::exception");
    }
}

void
Expect(bool holds, const char* what)
{
    if (!holds)
    {
        Die(std::string("broken contract: ") + what);
    }
}

} // namespace ns3
