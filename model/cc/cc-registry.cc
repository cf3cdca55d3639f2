/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "cc-registry.h"

#include "ns3/config.h"
#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/string.h"
#include "ns3/units.h"

#include <cstdlib>
#include <regex>
#include <sstream>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CcRegistry");

namespace
{

/** Short name and TypeId name of every scheme, in the order they are listed. */
const std::vector<std::pair<std::string, std::string>>&
Schemes()
{
    static const std::vector<std::pair<std::string, std::string>> schemes = {
        {"none", "ns3::CcNone"},
        {"dcqcn", "ns3::CcDcqcn"},
        {"dcqcn-hpccns3", "ns3::CcDcqcnHpccNs3"},
        {"dcqcn-window", "ns3::CcDcqcnWindow"},
        {"hpcc", "ns3::CcHpcc"},
        {"hpcc-pint", "ns3::CcHpccPint"},
        {"timely", "ns3::CcTimely"},
        {"dctcp", "ns3::CcDctcp"},
        {"swift", "ns3::CcSwift"},
        {"nscc", "ns3::CcNscc"},
    };
    return schemes;
}

std::string
Join(const std::vector<std::string>& items)
{
    std::string out;
    for (const auto& item : items)
    {
        out += (out.empty() ? "" : ", ") + item;
    }
    return out;
}

bool
EndsWith(const std::string& text, const std::string& suffix)
{
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/**
 * ns-3 aborts on some malformed numbers instead of rejecting them, so their syntax is
 * checked first.
 */
bool
SyntaxOk(const std::string& valueType, const std::string& value)
{
    static const std::regex real(R"([+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)");
    static const std::regex natural(R"(\+?\d+)");
    static const std::regex integer(R"([+-]?\d+)");
    static const std::regex time(
        R"([+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?(y|d|h|min|s|ms|us|ns|ps|fs)?)");
    if (EndsWith(valueType, "DoubleValue"))
    {
        return std::regex_match(value, real);
    }
    if (EndsWith(valueType, "UintegerValue"))
    {
        return std::regex_match(value, natural);
    }
    if (EndsWith(valueType, "IntegerValue"))
    {
        return std::regex_match(value, integer);
    }
    if (EndsWith(valueType, "TimeValue"))
    {
        return std::regex_match(value, time);
    }
    return true;
}

/** \return the time in the largest unit that shows it exactly, e.g. "1ns" */
std::string
ShortTime(Time t)
{
    static const std::pair<Time::Unit, const char*> units[] = {
        {Time::S, "s"}, {Time::MS, "ms"}, {Time::US, "us"}, {Time::NS, "ns"}};
    for (const auto& [unit, name] : units)
    {
        const Time one = Time::FromInteger(1, unit);
        if (!t.IsZero() && one.IsStrictlyPositive() && t.GetTimeStep() % one.GetTimeStep() == 0)
        {
            return std::to_string(t.GetTimeStep() / one.GetTimeStep()) + name;
        }
    }
    return std::to_string(t.GetPicoSeconds()) + "ps";
}

/** \return what an attribute accepts, in words, from its checker */
std::string
Describe(const AttributeChecker& checker)
{
    const std::string info =
        checker.HasUnderlyingTypeInformation() ? checker.GetUnderlyingTypeInformation() : "";
    const std::string type = info.substr(0, info.find(' '));
    const auto colon = info.find(':');
    const std::string low =
        colon == std::string::npos ? "" : info.substr(type.size() + 1, colon - type.size() - 1);
    const std::string high = colon == std::string::npos ? "" : info.substr(colon + 1);
    if (type == "double" && colon != std::string::npos)
    {
        // The bounds print with six digits: the smallest positive double stands for an
        // open interval at 0, the largest for no upper bound.
        const double lo = std::strtod(low.c_str(), nullptr);
        const double hi = std::strtod(high.c_str(), nullptr);
        std::ostringstream out;
        out << "a number in ";
        if (lo > 0 && lo < 1e-300)
        {
            out << "(0";
        }
        else
        {
            out << "[" << lo;
        }
        out << ", ";
        if (hi > 1e300)
        {
            out << "inf)";
        }
        else
        {
            out << hi << "]";
        }
        return out.str();
    }
    if (type.find("int") != std::string::npos && colon != std::string::npos)
    {
        return "an integer in [" + low + ", " + high + "]";
    }
    if (type == "Time")
    {
        return "a time with a unit (e.g. 55us) of at least " + ShortTime(Time(low));
    }
    if (type == "DataRate")
    {
        return "a rate with a unit (e.g. 40Mb/s)";
    }
    if (type == "bool")
    {
        return "true or false";
    }
    return "a valid " + checker.GetValueTypeName();
}

/** \return \p value in ns-3's syntax: rates and times read with the unit grammar */
std::string
Ns3Text(const AttributeChecker& checker,
        const std::string& scheme,
        const std::string& attribute,
        const std::string& value)
{
    return UnitsToNs3String(
        checker.GetValueTypeName(), value, "congestion control '" + scheme + "': " + attribute);
}

} // namespace

std::vector<std::string>
CcSchemeNames()
{
    std::vector<std::string> names;
    for (const auto& [name, tid] : Schemes())
    {
        names.push_back(name);
    }
    return names;
}

std::string
CcTypeIdName(const std::string& scheme)
{
    for (const auto& [name, tid] : Schemes())
    {
        if (name == scheme)
        {
            return tid;
        }
    }
    throw InputError("unknown congestion control '" + scheme +
                     "' (known: " + Join(CcSchemeNames()) + ")");
}

Ptr<RdmaCongestionOps>
CreateCongestionOps(const std::string& scheme)
{
    ObjectFactory factory(CcTypeIdName(scheme));
    return factory.Create<RdmaCongestionOps>();
}

void
CheckCcParameter(const std::string& scheme, const std::string& attribute, const std::string& value)
{
    const TypeId tid = TypeId::LookupByName(CcTypeIdName(scheme));
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(attribute, &info))
    {
        std::vector<std::string> known;
        for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
        {
            known.push_back(tid.GetAttribute(i).name);
        }
        throw InputError("congestion control '" + scheme + "' has no parameter '" + attribute +
                         "' (known: " + (known.empty() ? "none" : Join(known)) + ")");
    }
    // A rate or time outside the unit grammar (e.g. a bare "100") is invalid like any
    // other bad text; the message says what the attribute takes.
    std::string text;
    try
    {
        text = Ns3Text(*info.checker, scheme, attribute, value);
    }
    catch (const InputError&)
    {
        text.clear();
    }
    if (text.empty() || !SyntaxOk(info.checker->GetValueTypeName(), text) ||
        !info.checker->CreateValidValue(StringValue(text)))
    {
        throw InputError("congestion control '" + scheme + "': " + attribute + " = '" + value +
                         "' is invalid; it must be " + Describe(*info.checker));
    }
}

void
SetCcParameter(const std::string& scheme, const std::string& attribute, const std::string& value)
{
    CheckCcParameter(scheme, attribute, value);
    const TypeId tid = TypeId::LookupByName(CcTypeIdName(scheme));
    TypeId::AttributeInformation info;
    tid.LookupAttributeByName(attribute, &info);
    const std::string text = Ns3Text(*info.checker, scheme, attribute, value);
    // An inherited attribute (dcqcn-window's DCQCN parameters) has its default on the
    // TypeId that declares it.
    TypeId owner = tid;
    const auto declares = [&attribute](TypeId t)
    {
        for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
        {
            if (t.GetAttribute(i).name == attribute)
            {
                return true;
            }
        }
        return false;
    };
    while (!declares(owner))
    {
        owner = owner.GetParent();
    }
    NS_LOG_INFO("default " << owner.GetName() << "::" << attribute << " = " << text);
    Config::SetDefault(owner.GetName() + "::" + attribute, StringValue(text));
}

} // namespace ns3
