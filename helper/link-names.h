/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_LINK_NAMES_H
#define MLFABRIC_LINK_NAMES_H

#include "ns3/fabric.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * One direction of a fabric link, named by what its ends are rather than by node ids.
 */
struct LinkDirectionName
{
    std::string from;     //!< the transmitting end, e.g. "nic3", "npu3", "leaf0"
    std::string to;       //!< the receiving end
    std::string fromRole; //!< "nic", "npu" (a scale-up port), or the switch's role
    std::string toRole;   //!< the same for the receiving end

    /** \return "from>to", e.g. "nic3>leaf0" */
    std::string GetName() const;
    /** \return "fromRole>toRole", e.g. "nic>leaf": the group the link belongs to */
    std::string GetRoles() const;
};

/**
 * \ingroup mlfabric-helper
 * Name one direction of a link by role and index.
 *
 * A switch end is the switch's fabric name (builders name switches by role and index:
 * leaf0, spine1, scale-up-sw0) with its role. An NPU end is "npu<rank>" (role "npu")
 * when the link is a scale-up link (its dimension has scale-up settings or is named
 * "scale-up"), and "nic<rank>" (role "nic") otherwise: the NPU's RoCE NIC port.
 *
 * \param fabric the fabric
 * \param link a link id
 * \param fromA true for the direction from the link's nodeA to its nodeB
 * \return the names of both ends
 */
LinkDirectionName NameLinkDirection(const Fabric& fabric, uint32_t link, bool fromA);

} // namespace ns3

#endif /* MLFABRIC_LINK_NAMES_H */
