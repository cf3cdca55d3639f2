/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-config-json.h"

#include "ns3/input-error.h"
#include "ns3/input-file.h"
#include "ns3/log.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ConfigJson");

namespace
{

/** 1-based line of a byte offset. */
size_t
LineAt(const std::string& text, size_t offset)
{
    offset = std::min(offset, text.size());
    return 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n');
}

} // namespace

std::string
ConfigJson::ReadFile(const std::string& path)
{
    CheckInputFile(path);
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw InputError(path + ": cannot open the file");
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

ConfigJson
ConfigJson::Load(const std::string& path)
{
    return Parse(ReadFile(path), path);
}

ConfigJson
ConfigJson::Parse(const std::string& text, const std::string& source)
{
    ConfigJson doc;
    doc.m_text = text;
    doc.m_source = source;
    try
    {
        doc.m_root = nlohmann::json::parse(text);
    }
    catch (const nlohmann::json::parse_error& e)
    {
        // nlohmann reports the byte just past the offending token.
        size_t line = LineAt(text, e.byte > 0 ? e.byte - 1 : 0);
        throw InputError(source + ":" + std::to_string(line) + ": not valid JSON");
    }
    catch (const nlohmann::json::out_of_range& e)
    {
        // A number too large for a double, e.g. 1e400; nlohmann gives no position.
        const std::string what = e.what();
        throw InputError(source + ": not valid JSON: " + what.substr(what.find(']') + 2));
    }
    return doc;
}

std::string
ConfigJson::Describe(const nlohmann::json& value)
{
    constexpr size_t kShown = 60;
    if (value.is_array() || value.is_object())
    {
        const bool one = value.size() == 1;
        return value.is_array()
                   ? "a list of " + std::to_string(value.size()) + (one ? " value" : " values")
                   : "an object of " + std::to_string(value.size()) + (one ? " key" : " keys");
    }
    std::string text = value.dump();
    if (text.size() > kShown)
    {
        text = text.substr(0, kShown) + "...";
    }
    return text;
}

std::string
ConfigJson::Where(const std::string& key) const
{
    const std::string quoted = "\"" + key + "\"";
    for (size_t pos = m_text.find(quoted); pos != std::string::npos;
         pos = m_text.find(quoted, pos + 1))
    {
        size_t after = m_text.find_first_not_of(" \t\r\n", pos + quoted.size());
        if (after != std::string::npos && m_text[after] == ':')
        {
            return m_source + ":" + std::to_string(LineAt(m_text, pos)) + ": key \"" + key + "\"";
        }
    }
    return m_source + ": key \"" + key + "\"";
}

} // namespace ns3
