/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-packet-observer.h"

#include "ns3/replay-gather.h"

#include <iostream>

namespace ns3
{

namespace
{

/**
 * \return \p test, or across \p processes whether it holds on every one of them (each
 *         process must ask at the same simulated time)
 */
std::function<bool()>
AllProcesses(std::function<bool()> test, ProcessGroup* processes)
{
    if (!processes)
    {
        return test;
    }
    return [test, processes]()
    {
        std::vector<uint64_t> failing{test() ? 0u : 1u};
        processes->SumOver(failing);
        return failing[0] == 0;
    };
}

} // namespace

ReplayPacketObserver::ReplayPacketObserver(std::unique_ptr<RoceNetwork> net,
                                           Ptr<RdmaNetworkBackend> backend)
    : m_net(std::move(net))
    , m_backend(backend)
{
}

RoceNetwork&
ReplayPacketObserver::GetNetwork()
{
    return *m_net;
}

void
ReplayPacketObserver::SetRunEnd(Time end)
{
    m_runEnd = end;
}

const QueueMonitor*
ReplayPacketObserver::GetQueues() const
{
    return m_queues.get();
}

void
ReplayPacketObserver::SetQuiet(std::function<bool()> quiet)
{
    m_quiet = std::move(quiet);
}

void
ReplayPacketObserver::Start(const ReplayWatchSettings& settings, std::function<bool()> finished)
{
    // The order in which the instruments schedule their first checks is the order of
    // their simultaneous events, kept as it was so that runs repeat exactly.
    m_queues = std::make_unique<QueueMonitor>(*m_net);
    m_timeseriesPath = settings.timeseriesPath;
    if (!m_timeseriesPath.empty())
    {
        m_sampler = std::make_unique<NetworkSampler>(*m_net, settings.samplePeriod);
        m_sampler->Start();
    }
    // Across processes the watches decide together, at the same simulated times, which
    // only the granted time window's lockstep allows; null-message runs end at --stop.
    ProcessGroup* processes = settings.processes;
    const bool watch = !settings.drains || processes;
    if (watch)
    {
        m_guard = std::make_unique<RunGuard>(
            *m_net, settings.stallTimeout, settings.pfcDeadlockThreshold);
        m_guard->Start(settings.drains ? finished : nullptr, processes);
    }
    // The network's periodic events would keep ranks that only wait running for ever.
    Ptr<RdmaNetworkBackend> backend = m_backend;
    std::function<bool()> quiet = m_quiet;
    if (!quiet)
    {
        quiet = [backend]()
        {
            return backend->IsIdle();
        };
    }
    if (watch)
    {
        m_stuck = std::make_unique<ReplayStuckWatch>(AllProcesses(quiet, processes),
                                                     AllProcesses(finished, processes),
                                                     settings.stallTimeout);
        m_stuck->Start();
    }
    if (settings.invariantPeriod.IsStrictlyPositive())
    {
        m_checker = std::make_unique<InvariantChecker>(*m_net);
        m_checker->StartPeriodic(settings.invariantPeriod, finished);
    }
    // Last, so that the instruments above keep the order of their simultaneous events.
    m_linkSettings = settings.links;
    m_processes = processes;
    const bool keepWindows = !m_linkSettings.path.empty() || m_linkSettings.timelineLinks > 0;
    if (!watch)
    {
        // Null-message processes cannot agree when the ranks have finished: no windows.
        return;
    }
    m_links = std::make_unique<LinkUtilizationSampler>(*m_net, m_linkSettings.period, keepWindows);
    m_links->Start(AllProcesses(finished, processes), settings.drains);
}

bool
ReplayPacketObserver::IsSettled() const
{
    return !m_checker || m_checker->AllAcknowledged();
}

ReplayNetworkFigures
ReplayPacketObserver::Collect(bool finished)
{
    ReplayNetworkFigures figures;
    if (m_guard && m_guard->GetVerdict() != RunGuard::Verdict::NONE)
    {
        figures.failure = m_guard->GetReport();
    }
    figures.stats = CollectNetworkStats(*m_net, m_queues.get());
    if (figures.stats->relayHeldCredits > 0)
    {
        const std::string warning = RelayHeldCreditsWarning(figures.stats->relayHeldCredits);
        std::cerr << "warning: " << warning << std::endl;
        figures.warnings.push_back(warning);
    }
    if (m_links)
    {
        std::vector<LinkUtilization> links;
        if (m_processes)
        {
            // The span ends where one process stops: at the last rank's finish.
            links = m_links->Finish(m_runEnd);
            GatherLinkUtilization(links, *m_processes);
        }
        else
        {
            links = m_links->Finish();
        }
        figures.stats->busiestLinks = BusiestLinks(links, m_linkSettings.busiest);
        figures.stats->linkWindow = m_links->GetPeriod();
        for (LinkUtilization& l : figures.stats->busiestLinks)
        {
            l.windows.clear();
        }
        figures.timelineLinks = BusiestLinks(links, m_linkSettings.timelineLinks);
        if (!m_linkSettings.path.empty() && (!m_processes || m_processes->GetProcess() == 0))
        {
            WriteLinkUtilization(m_linkSettings.path, links, m_links->GetPeriod());
        }
    }
    if (m_checker)
    {
        figures.invariants = FinishInvariantChecks(*m_checker, finished);
    }
    if (m_sampler)
    {
        m_sampler->WriteCsv(m_timeseriesPath);
    }
    figures.deliveredBytes = m_backend->GetDeliveredBytes();
    return figures;
}

} // namespace ns3
