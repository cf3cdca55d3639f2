/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "dcqcn-alpha-mapping.h"

#include "ns3/type-id.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

DcqcnPaperEquivalent
DcqcnPaperEquivalentOf(Time alphaSlot, Time decreaseSlot, double gain)
{
    DcqcnPaperEquivalent e;
    e.cnpInterval = decreaseSlot;
    e.alphaInterval = decreaseSlot + alphaSlot;
    // Whole picoseconds, so that 4 us over 1 us is exactly 4.
    const double slots =
        std::max(1.0,
                 static_cast<double>(decreaseSlot.GetPicoSeconds()) /
                     static_cast<double>(std::max<int64_t>(alphaSlot.GetPicoSeconds(), 1)));
    e.gain = 1.0 - std::pow(1.0 - gain, slots);
    return e;
}

std::string
DcqcnAlphaIntervalWarning(Time alphaInterval, Time cnpInterval)
{
    if (alphaInterval > cnpInterval)
    {
        return "";
    }
    // Persistent marking gives one CNP per N: alpha decays floor(N/K) times between two.
    const auto us = [](Time t)
    {
        std::ostringstream text;
        text << t.GetPicoSeconds() / 1e6 << "us";
        return text.str();
    };
    std::ostringstream out;
    out << "DCQCN alpha interval K = " << us(alphaInterval)
        << " is not above the CNP interval N = " << us(cnpInterval)
        << " (ns3::CcDcqcn::AlphaInterval, ns3::RdmaNic::CnpInterval): alpha decays between "
           "CNPs and stays well below 1 under persistent marking (the paper has K = 55us > "
           "N = 50us)";
    return out.str();
}

std::string
DcqcnAlphaIntervalWarningForDefaults()
{
    const auto defaultOf = [](const std::string& type, const std::string& attribute)
    {
        TypeId::AttributeInformation info;
        TypeId::LookupByName(type).LookupAttributeByName(attribute, &info);
        return DynamicCast<const TimeValue>(info.initialValue)->Get();
    };
    return DcqcnAlphaIntervalWarning(defaultOf("ns3::CcDcqcn", "AlphaInterval"),
                                     defaultOf("ns3::RdmaNic", "CnpInterval"));
}

} // namespace ns3
