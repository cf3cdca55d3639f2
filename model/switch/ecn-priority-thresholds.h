/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ECN_PRIORITY_THRESHOLDS_H
#define MLFABRIC_ECN_PRIORITY_THRESHOLDS_H

#include "ns3/egress-marking.h"
#include "ns3/roce-port.h"

#include <array>
#include <optional>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-switch
 * ECN thresholds of the traffic classes that have their own, unset for the others.
 */
using EcnPriorityThresholds = std::array<std::optional<EcnThresholds>, kNumPriorities>;

/**
 * \ingroup mlfabric-switch
 * Read per-priority ECN thresholds: "PRIO:KMIN/KMAX/PMAX[,PRIO:KMIN/KMAX/PMAX...]", e.g.
 * "3:100KB/400KB/0.2,1:20KB/80KB/1"; sizes in the unit grammar of doc/units.md. An empty
 * text sets none.
 * \param text the text
 * \param what what it is, for messages (e.g. the attribute's name)
 * \return the thresholds per priority
 * \throws InputError naming the entry and what is wrong with it
 */
EcnPriorityThresholds ParseEcnPriorityThresholds(const std::string& text, const std::string& what);

} // namespace ns3

#endif /* MLFABRIC_ECN_PRIORITY_THRESHOLDS_H */
