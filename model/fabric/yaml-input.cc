/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "yaml-input.h"

#include "ns3/input-error.h"
#include "ns3/input-file.h"
#include "ns3/log.h"
#include "ns3/units.h"

#include <yaml-cpp/depthguard.h>

#include <cmath>
#include <fstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("YamlInput");

YamlInput::YamlInput(const std::string& path)
    : m_path(path)
{
    CheckInputFile(path);
    std::ifstream probe(path);
    if (!probe)
    {
        throw InputError(path + ": cannot open");
    }
    try
    {
        m_root = YAML::LoadFile(path);
    }
    catch (const YAML::DeepRecursion& e)
    {
        // yaml-cpp gives this error the text of a file that cannot be opened.
        throw InputError(path + ":" + std::to_string(e.mark.line + 1) +
                         ": not valid YAML: nested more than " + std::to_string(e.depth()) +
                         " levels deep");
    }
    catch (const YAML::Exception& e)
    {
        throw InputError(path + ":" + std::to_string(e.mark.line + 1) +
                         ": not valid YAML: " + e.msg);
    }
}

const YAML::Node&
YamlInput::GetRoot() const
{
    return m_root;
}

const std::string&
YamlInput::GetPath() const
{
    return m_path;
}

std::string
YamlInput::Where(const YAML::Node& node) const
{
    const YAML::Mark mark = node.Mark();
    return mark.is_null() ? m_path : m_path + ":" + std::to_string(mark.line + 1);
}

void
YamlInput::Fail(const YAML::Node& node, const std::string& key, const std::string& what) const
{
    throw InputError(Where(node) + ": " + key + ": " + what);
}

void
YamlInput::RequireMap(const YAML::Node& node, const std::string& key) const
{
    if (!node.IsMap())
    {
        Fail(node, key, "must be a map of key: value");
    }
}

void
YamlInput::RequireSequence(const YAML::Node& node, const std::string& key) const
{
    if (!node.IsSequence())
    {
        Fail(node, key, "must be a list");
    }
}

void
YamlInput::CheckKeys(const YAML::Node& map,
                     const std::string& context,
                     std::initializer_list<const char*> allowed) const
{
    RequireMap(map, context);
    for (const auto& entry : map)
    {
        const std::string key = entry.first.Scalar();
        bool known = false;
        std::string list;
        for (const char* name : allowed)
        {
            known = known || key == name;
            list += (list.empty() ? "" : ", ") + std::string(name);
        }
        if (!known)
        {
            Fail(entry.first,
                 context.empty() ? key : context + "." + key,
                 "unknown key (known: " + list + ")");
        }
    }
}

YAML::Node
YamlInput::Require(const YAML::Node& map, const std::string& key) const
{
    RequireMap(map, key);
    YAML::Node value = map[key];
    if (!value)
    {
        Fail(map, key, "missing");
    }
    return value;
}

std::string
YamlInput::String(const YAML::Node& node, const std::string& key) const
{
    if (!node.IsScalar())
    {
        Fail(node, key, "must be a single value");
    }
    return node.Scalar();
}

double
YamlInput::Number(const YAML::Node& node, const std::string& key) const
{
    const std::string text = String(node, key);
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
        Fail(node, key, "not a number (got '" + text + "')");
    }
    return value;
}

uint64_t
YamlInput::Uint(const YAML::Node& node, const std::string& key, uint64_t min, uint64_t max) const
{
    const std::string text = String(node, key);
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
        Fail(node, key, "not a whole number (got '" + text + "')");
    }
    if (value < min || value > max)
    {
        Fail(node,
             key,
             "must be in [" + std::to_string(min) + ", " + std::to_string(max) + "] (got " + text +
                 ")");
    }
    return value;
}

bool
YamlInput::Bool(const YAML::Node& node, const std::string& key) const
{
    const std::string text = String(node, key);
    if (text == "true" || text == "yes" || text == "on" || text == "1")
    {
        return true;
    }
    if (text == "false" || text == "no" || text == "off" || text == "0")
    {
        return false;
    }
    Fail(node, key, "not a boolean (got '" + text + "')");
}

uint64_t
YamlInput::RateBps(const YAML::Node& node, const std::string& key) const
{
    return ParseRateBps(String(node, key), Where(node) + ": " + key);
}

int64_t
YamlInput::DelayPs(const YAML::Node& node, const std::string& key) const
{
    return ParseTime(String(node, key), Where(node) + ": " + key).GetPicoSeconds();
}

uint64_t
YamlInput::Bytes(const YAML::Node& node, const std::string& key) const
{
    return ParseBytes(String(node, key), Where(node) + ": " + key);
}

} // namespace ns3
