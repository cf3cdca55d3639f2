/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Helpers shared by the Chakra trace tests: scratch directories, raw bytes, framing.
#ifndef MLFABRIC_ET_TEST_SUPPORT_H
#define MLFABRIC_ET_TEST_SUPPORT_H

#include "ns3/input-error.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>

namespace ns3
{
namespace ettest
{

/** A fresh directory under the system temporary directory, removed on destruction. */
class ScratchDir
{
  public:
    ScratchDir()
    {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "mlfabric-et-XXXXXX").string();
        char* made = mkdtemp(pattern.data());
        if (made == nullptr)
        {
            throw std::runtime_error("mkdtemp failed");
        }
        m_path = made;
    }

    ~ScratchDir()
    {
        std::error_code ignored;
        std::filesystem::remove_all(m_path, ignored);
    }

    /** \param name file name \return its path inside the directory */
    std::string
    File(const std::string& name) const
    {
        return (std::filesystem::path(m_path) / name).string();
    }

  private:
    std::string m_path;
};

/** \param path a file \return its bytes */
inline std::string
ReadBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/** \param path file to overwrite \param bytes its new content */
inline void
WriteBytes(const std::string& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/** \param value a number \return its protobuf base-128 varint encoding */
inline std::string
Varint(uint64_t value)
{
    std::string bytes;
    while (value >= 0x80)
    {
        bytes.push_back(static_cast<char>((value & 0x7f) | 0x80));
        value >>= 7;
    }
    bytes.push_back(static_cast<char>(value));
    return bytes;
}

/** \param message serialized message \return it preceded by its varint length */
inline std::string
Frame(const std::string& message)
{
    return Varint(message.size()) + message;
}

/**
 * Run `action`, expect an InputError whose message contains every one of `parts`.
 * \param action code that should throw
 * \param parts substrings the message must contain
 * \return the message
 */
inline std::string
ExpectInputError(const std::function<void()>& action, std::initializer_list<std::string> parts)
{
    try
    {
        action();
    }
    catch (const InputError& error)
    {
        std::string message = error.what();
        for (const auto& part : parts)
        {
            EXPECT_NE(message.find(part), std::string::npos)
                << "message \"" << message << "\" lacks \"" << part << "\"";
        }
        EXPECT_EQ(message.find('\n'), std::string::npos) << "one line expected: " << message;
        return message;
    }
    ADD_FAILURE() << "no InputError thrown";
    return "";
}

} // namespace ettest
} // namespace ns3

#endif /* MLFABRIC_ET_TEST_SUPPORT_H */
