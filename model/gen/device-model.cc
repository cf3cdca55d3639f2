/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "device-model.h"

#include "ns3/input-error.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DeviceModel");

void
DeviceModel::Validate() const
{
    auto fail = [](const std::string& name, double value, const std::string& rule)
    {
        std::ostringstream message;
        message << "--" << name << ": " << rule << " (got " << value << ")";
        throw InputError(message.str());
    };
    if (!(peakTflops > 0) || !std::isfinite(peakTflops))
    {
        fail("peak-tflops", peakTflops, "must be > 0");
    }
    if (!(efficiency > 0) || efficiency > 1)
    {
        fail("efficiency", efficiency, "must be in (0, 1]");
    }
    if (!(memoryGBps > 0) || !std::isfinite(memoryGBps))
    {
        fail("mem-bw", memoryGBps, "must be > 0 GB/s");
    }
}

uint64_t
DeviceModel::DurationMicros(const ComputeWork& work) const
{
    const double arithmetic = work.flops / (peakTflops * 1e12 * efficiency);
    const double memory = work.bytes / (memoryGBps * 1e9);
    const double micros = std::max(arithmetic, memory) * 1e6;
    if (work.flops == 0 && work.bytes == 0)
    {
        return 0;
    }
    return std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(micros)));
}

} // namespace ns3
