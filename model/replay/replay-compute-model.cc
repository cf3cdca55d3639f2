/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "replay-compute-model.h"

#include "ns3/input-error.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReplayComputeModel");

ReplayComputeModel
ReplayComputeModel::FromSystem(const SystemConfig& config)
{
    ReplayComputeModel model;
    model.m_roofline = config.rooflineEnabled;
    if (!model.m_roofline)
    {
        return model;
    }
    if (!(config.peakPerfTflops > 0))
    {
        throw InputError(config.source + ": roofline-enabled needs a positive peak-perf (TFLOPS)");
    }
    if (!(config.localMemBwGBps > 0))
    {
        throw InputError(config.source + ": roofline-enabled needs a positive local-mem-bw (GB/s)");
    }
    model.m_peakOpsPerNs = config.peakPerfTflops * 1e3;
    model.m_memBytesPerNs = config.localMemBwGBps;
    return model;
}

bool
ReplayComputeModel::UsesRoofline(const EtNode& node) const
{
    return m_roofline && !node.isCpuOp && node.Has(ET_NUM_OPS);
}

uint64_t
ReplayComputeModel::RooflineNs(uint64_t numOps, uint64_t tensorBytes) const
{
    if (tensorBytes == 0)
    {
        return 0;
    }
    const double ops = static_cast<double>(numOps);
    const double intensity = ops / static_cast<double>(tensorBytes);
    const double perf = std::min(m_peakOpsPerNs, m_memBytesPerNs * intensity);
    return perf > 0 ? static_cast<uint64_t>(ops / perf) : 0;
}

uint64_t
ReplayComputeModel::GetDurationNs(const EtNode& node) const
{
    if (UsesRoofline(node))
    {
        return RooflineNs(node.numOps, node.tensorSize);
    }
    return node.durationMicros == 0 ? 1 : node.durationMicros * 1000;
}

} // namespace ns3
