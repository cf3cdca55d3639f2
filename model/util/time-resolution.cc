/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "time-resolution.h"

#include "ns3/input-error.h"
#include "ns3/nstime.h"

namespace ns3
{

namespace
{

/** \return the name of a Time unit, as ns-3 prints it */
std::string
UnitName(Time::Unit unit)
{
    static const char* const names[] = {"y", "d", "h", "min", "s", "ms", "us", "ns", "ps", "fs"};
    const auto index = static_cast<unsigned>(unit);
    return index < sizeof(names) / sizeof(names[0]) ? names[index] : "?";
}

} // namespace

void
RequirePicosecondResolution(const std::string& who)
{
    // Time::Unit runs from years to femtoseconds: a smaller value is a coarser unit.
    const Time::Unit unit = Time::GetResolution();
    if (unit < Time::PS)
    {
        throw InputError(who + ": the simulator's time resolution is 1 " + UnitName(unit) +
                         "; mlfabric models serialization to the picosecond: call "
                         "Time::SetResolution(Time::PS) at the start of main(), before any "
                         "Time is created");
    }
}

} // namespace ns3
