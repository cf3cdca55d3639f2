/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "link-utilization.h"

#include "ns3/input-error.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LinkUtilization");

namespace
{

/** \return \p bytes as a share of what \p rateBps carries in \p span */
double
Share(uint64_t bytes, uint64_t rateBps, Time span)
{
    const double capacity = static_cast<double>(rateBps) * span.GetSeconds() / 8.0;
    return capacity > 0 ? static_cast<double>(bytes) / capacity : 0.0;
}

/** \return \p x rounded to 6 decimals, so that the JSON stays short */
double
Rounded(double x)
{
    return std::round(x * 1e6) / 1e6;
}

} // namespace

nlohmann::json
LinkUtilization::ToJson() const
{
    return {{"name", name.GetName()},
            {"from", name.from},
            {"to", name.to},
            {"from_role", name.fromRole},
            {"to_role", name.toRole},
            {"roles", name.GetRoles()},
            {"rate_bps", rateBps},
            {"wire_bytes", wireBytes},
            {"mean", Rounded(mean)},
            {"peak", Rounded(peak)}};
}

LinkUtilizationSampler::LinkUtilizationSampler(const RoceNetwork& net,
                                               Time period,
                                               bool keepWindows)
    : m_period(period)
    , m_keepWindows(keepWindows)
{
    const Fabric& fabric = net.GetFabric();
    for (uint32_t link = 0; link < fabric.GetLinkCount(); ++link)
    {
        const auto [portA, portB] = net.GetLinkPorts(link);
        for (bool fromA : {true, false})
        {
            Direction d;
            d.port = fromA ? portA : portB;
            d.figures.link = link;
            d.figures.name = NameLinkDirection(fabric, link, fromA);
            d.figures.rateBps = fabric.GetLink(link).settings.rateBps;
            m_directions.push_back(d);
        }
    }
}

Time
LinkUtilizationSampler::GetPeriod() const
{
    return m_period;
}

void
LinkUtilizationSampler::Start(std::function<bool()> finished, bool drains)
{
    m_finished = std::move(finished);
    m_drains = drains;
    m_start = Simulator::Now();
    for (Direction& d : m_directions)
    {
        d.startBytes = d.lastBytes = d.port->GetTxBytes();
    }
    Simulator::Schedule(m_period, &LinkUtilizationSampler::Tick, this);
}

void
LinkUtilizationSampler::Tick()
{
    // A run that goes on after the work asks first: the work ended inside this window.
    if (m_drains && m_finished())
    {
        return;
    }
    for (Direction& d : m_directions)
    {
        const uint64_t bytes = d.port->GetTxBytes();
        const double share = Share(bytes - d.lastBytes, d.figures.rateBps, m_period);
        if (m_ticks > 0)
        {
            d.figures.peak = std::max(d.figures.peak, d.lastShare);
        }
        d.lastShare = share;
        d.lastWindowBytes = bytes - d.lastBytes;
        d.lastBytes = bytes;
        if (m_keepWindows)
        {
            d.figures.windows.push_back(static_cast<float>(share));
        }
    }
    ++m_ticks;
    m_lastTick = Simulator::Now();
    if (m_drains || (!m_finished() && !Simulator::IsFinished()))
    {
        Simulator::Schedule(m_period, &LinkUtilizationSampler::Tick, this);
    }
}

std::vector<LinkUtilization>
LinkUtilizationSampler::Finish(Time end)
{
    const Time span = end - m_start;
    // The rest of the run after the last full window joins that window, so that no
    // window is shorter than the period (a short one would magnify a single frame).
    const Time tail = end - (m_ticks > 0 ? m_lastTick : m_start);
    std::vector<LinkUtilization> out;
    out.reserve(m_directions.size());
    for (const Direction& d : m_directions)
    {
        LinkUtilization figures = d.figures;
        const uint64_t total = d.port->GetTxBytes();
        figures.wireBytes = total - d.startBytes;
        figures.mean = Share(figures.wireBytes, figures.rateBps, span);
        const uint64_t lastBytes = (m_ticks > 0 ? d.lastWindowBytes : 0) + (total - d.lastBytes);
        const Time lastSpan = m_ticks > 0 ? m_period + tail : tail;
        const double last = Share(lastBytes, figures.rateBps, lastSpan);
        figures.peak = std::max(figures.peak, last);
        if (m_keepWindows && m_ticks > 0)
        {
            figures.windows.back() = static_cast<float>(last);
        }
        else if (m_keepWindows && tail.IsStrictlyPositive())
        {
            figures.windows.push_back(static_cast<float>(last));
        }
        out.push_back(std::move(figures));
    }
    NS_LOG_INFO(out.size() << " link directions over " << span.As(Time::US));
    return out;
}

std::vector<LinkUtilization>
BusiestLinks(const std::vector<LinkUtilization>& links, size_t count)
{
    std::vector<LinkUtilization> sorted = links;
    std::stable_sort(sorted.begin(),
                     sorted.end(),
                     [](const LinkUtilization& a, const LinkUtilization& b)
                     {
                         if (a.mean != b.mean)
                         {
                             return a.mean > b.mean;
                         }
                         if (a.peak != b.peak)
                         {
                             return a.peak > b.peak;
                         }
                         return a.name.GetName() < b.name.GetName();
                     });
    sorted.resize(std::min(count, sorted.size()));
    return sorted;
}

void
WriteLinkUtilization(const std::string& path,
                     const std::vector<LinkUtilization>& links,
                     Time period)
{
    std::ofstream out(path);
    if (!out)
    {
        throw InputError(path + ": cannot write: " + std::strerror(errno));
    }
    nlohmann::json all = nlohmann::json::array();
    for (const LinkUtilization& l : links)
    {
        nlohmann::json j = l.ToJson();
        nlohmann::json windows = nlohmann::json::array();
        for (float w : l.windows)
        {
            windows.push_back(std::round(w * 1e4) / 1e4);
        }
        j["windows"] = std::move(windows);
        all.push_back(std::move(j));
    }
    out << nlohmann::json{{"window_ns", period.GetNanoSeconds()}, {"links", std::move(all)}}
        << "\n";
    if (!out)
    {
        throw InputError(path + ": cannot write: " + std::strerror(errno));
    }
}

} // namespace ns3
