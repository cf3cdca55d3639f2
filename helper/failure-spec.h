/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_FAILURE_SPEC_H
#define MLFABRIC_FAILURE_SPEC_H

#include "ns3/fabric.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * One failure of a --fail option: a link or a switch goes down, and maybe comes back.
 */
struct FailureSpec
{
    std::string text;            //!< the option's value, for messages and reports
    std::string target;          //!< the link ("a--b") or switch name as given
    bool isSwitch{false};        //!< a whole switch: every link of it fails
    std::vector<uint32_t> links; //!< the fabric links that go down
    Time down;                   //!< when they fail
    Time up{Time::Max()};        //!< when they come back; Time::Max() if never
};

/**
 * \ingroup mlfabric-helper
 * The name of a link as --fail takes it: its two ends, "nodeA--nodeB" (the order of the
 * fabric, as the fabric-info picture draws it), with "/k" when several links join the
 * same two nodes (k counts them from 0 in link order).
 * \param fabric the fabric
 * \param link a link id
 * \return its name
 */
std::string FailureLinkName(const Fabric& fabric, uint32_t link);

/**
 * \ingroup mlfabric-helper
 * Read one --fail value, "<link or switch>@<time>[,up@<time>]", against \p fabric.
 *
 * A link is named by its two ends, in either order ("leaf0--spine1"), with "/k" to pick
 * one of several parallel links; a switch by its name. Times follow doc/units.md.
 * \param value the option's value
 * \param fabric the fabric the names refer to
 * \return the failure
 * \throws InputError "--fail=<value>: ..." for an unknown name, an NPU named alone, a
 *         bad time, or a restore that is not after the failure
 */
FailureSpec ParseFailureSpec(const std::string& value, const Fabric& fabric);

} // namespace ns3

#endif /* MLFABRIC_FAILURE_SPEC_H */
