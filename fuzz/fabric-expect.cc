/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-expect.h"

#include "fuzz-input.h"

#include "ns3/fabric.h"

namespace ns3
{

void
ExpectValidFabric(const Fabric& fabric)
{
    Expect(fabric.GetNpuCount() >= 2, "a fabric has at least two NPUs");
    for (uint32_t l = 0; l < fabric.GetLinkCount(); ++l)
    {
        const FabricLink& link = fabric.GetLink(l);
        const LinkSettings& s = link.settings;
        Expect(link.nodeA < fabric.GetNodeCount() && link.nodeB < fabric.GetNodeCount() &&
                   link.nodeA != link.nodeB,
               "a link joins two distinct nodes");
        Expect(s.rateBps >= 1, "a link's rate is at least 1 bit/s");
        Expect(s.delayPs >= 0, "a link's delay is not negative");
        Expect(s.lossProbability >= 0 && s.lossProbability <= 1, "a loss probability is in [0, 1]");
        Expect(!s.ecn || (s.ecn->pmax >= 0 && s.ecn->pmax <= 1), "ECN pmax is in [0, 1]");
        Expect(!s.ecn || s.ecn->kminBytes <= s.ecn->kmaxBytes, "ECN kmin does not exceed kmax");
    }
}

} // namespace ns3
