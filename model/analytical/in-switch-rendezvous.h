/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_IN_SWITCH_RENDEZVOUS_H
#define MLFABRIC_IN_SWITCH_RENDEZVOUS_H

#include "ns3/network-backend.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-analytical
 * Gathers the contributions of in-switch reductions until every member's is in.
 *
 * A reduction is named by its tag and its members, so that jobs sharing one network
 * (whose tags may coincide) never meet in one reduction.
 */
class InSwitchRendezvous
{
  public:
    /** One member's contribution as it reached the backend. */
    struct Arrival
    {
        NetworkBackend::Contribution contribution; //!< what the member handed over
        NetworkBackend::ContributionCallback done; //!< whom to tell about the result
        double issuedNs{0};                        //!< when the member handed it over
    };

    /**
     * Record a contribution. Throws InputError if the rank is not a member or has
     * already contributed, or if its size differs from the other members'.
     * \param arrival the contribution
     * \return every member's contribution once the last is in, in member order;
     *         empty before
     */
    std::vector<Arrival> Add(Arrival arrival);

    /** \return reductions still waiting for members */
    size_t
    GetOpenCount() const
    {
        return m_open.size();
    }

  private:
    /** Tag and members of one reduction. */
    using Key = std::pair<uint64_t, std::vector<uint32_t>>;
    std::map<Key, std::vector<Arrival>> m_open; //!< by reduction, in arrival order
};

} // namespace ns3

#endif /* MLFABRIC_IN_SWITCH_RENDEZVOUS_H */
