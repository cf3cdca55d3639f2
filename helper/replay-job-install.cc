/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-job-install.h"

#include "ns3/et-replay-app.h"
#include "ns3/nstime.h"
#include "ns3/rank-map-backend.h"
#include "ns3/replay-system.h"
#include "ns3/uinteger.h"

namespace ns3
{

Ptr<NetworkBackend>
MakeJobBackend(Ptr<NetworkBackend> network, const std::vector<uint32_t>& npus)
{
    bool identity = npus.size() == network->GetRankCount();
    for (uint32_t r = 0; identity && r < npus.size(); ++r)
    {
        identity = npus[r] == r;
    }
    if (identity)
    {
        return network;
    }
    Ptr<RankMapBackend> view = CreateObject<RankMapBackend>();
    view->Attach(network, npus);
    return view;
}

void
InstallReplayJob(ReplayJob& job,
                 Ptr<NetworkBackend> network,
                 const std::vector<uint32_t>& networkDimensions,
                 const std::vector<Ptr<Node>>& rankNodes,
                 const ReplayInstallSettings& settings)
{
    ReplaySetup setup;
    setup.backend = MakeJobBackend(network, job.npus);
    setup.system = job.dimensions.size() < networkDimensions.size()
                       ? TrimReplaySystemConfig(settings.system, job.dimensions.size())
                       : settings.system;
    setup.physicalDimensions = job.dimensions;
    if (settings.ncclDimensions.size() >= job.dimensions.size())
    {
        // A job uses the network's lowest dimensions.
        setup.ncclDimensions.assign(settings.ncclDimensions.begin(),
                                    settings.ncclDimensions.begin() + job.dimensions.size());
    }
    setup.groups = job.groups;
    setup.remoteMemory = settings.remoteMemory;
    if (!job.engine)
    {
        job.engine = CreateObject<ReplayEngine>();
    }
    NamingJob(job, [&]() { job.engine->Setup(setup); });
    if (!settings.localRanks.empty())
    {
        job.engine->SetProcessRanks(settings.localRanks);
    }
    for (uint32_t r = 0; r < job.rankCount; ++r)
    {
        Ptr<EtReplayApp> app = CreateObject<EtReplayApp>();
        app->SetAttribute("Rank", UintegerValue(r));
        app->SetAttribute("CpuSlots", UintegerValue(settings.cpuSlots));
        app->SetAttribute("ComputeSlots", UintegerValue(settings.computeSlots));
        app->SetAttribute("CommSlots", UintegerValue(settings.commSlots));
        app->SetTrace(job.traces[r]);
        app->SetEngine(job.engine);
        app->SetStartTime(Seconds(0));
        // A rank another process runs has its application for the trace's checks only.
        if (job.engine->IsLocal(r))
        {
            rankNodes[job.npus[r]]->AddApplication(app);
        }
        NamingJob(job, [&]() { job.engine->AddRank(app); });
    }
}

} // namespace ns3
