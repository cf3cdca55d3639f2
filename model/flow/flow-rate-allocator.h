/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_FLOW_RATE_ALLOCATOR_H
#define MLFABRIC_FLOW_RATE_ALLOCATOR_H

#include "ns3/max-min-solver.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-flow
 * The max-min fair rates of the active flows, kept up to date as flows start and stop.
 *
 * Rates depend only on the flows that share links with each other, directly or through
 * others: a component of the flow-link graph. Starts and stops are collected and one
 * Resolve re-solves the component(s) they touch (Incremental); otherwise every active
 * flow, which gives the same rates and serves to measure what the components save. The
 * caller resolves once for all the changes of one instant: a ring's steps end together,
 * and each re-solving the ring's component alone would repeat the same work.
 */
class FlowRateAllocator
{
  public:
    /**
     * \param capacityBps capacity of every directed link, bit/s
     * \param incremental re-solve only the components a change touches
     */
    FlowRateAllocator(std::vector<double> capacityBps, bool incremental);

    /**
     * A new, inactive flow.
     * \param uses the links it loads and how much
     * \return its id
     */
    uint32_t AddFlow(std::vector<FlowLinkUse> uses);

    /**
     * Make \p flow active or inactive. An inactive flow's rate is 0 at once; the rates of
     * the flows it shares links with are brought up to date by the next Resolve.
     * \param flow a flow id
     * \param active its new state
     */
    void SetActive(uint32_t flow, bool active);

    /** \return true if a start or stop awaits Resolve */
    bool
    HasChanges() const
    {
        return !m_touched.empty();
    }

    /**
     * Re-solve the rates the starts and stops since the last Resolve affect.
     * \return the flows whose rate was re-solved, stopped ones included (the old rate may
     *         equal the new one), in ascending flow id
     */
    const std::vector<uint32_t>& Resolve();

    /** \param flow a flow id \return its rate, bit/s (0 while inactive) */
    double
    GetRate(uint32_t flow) const
    {
        return m_flows[flow].rate;
    }

    /** \param flow a flow id \return true while it is active */
    bool
    IsActive(uint32_t flow) const
    {
        return m_flows[flow].active;
    }

    /** \param flow a flow id \return the links it loads */
    const std::vector<FlowLinkUse>&
    GetUses(uint32_t flow) const
    {
        return m_flows[flow].uses;
    }

    /** \return re-solves so far */
    uint64_t
    GetSolveCount() const
    {
        return m_solveCount;
    }

    /** \return flow rates computed so far, summed over the re-solves */
    uint64_t
    GetSolvedFlowCount() const
    {
        return m_solvedFlows;
    }

    /** \return the most flows active at once */
    uint32_t
    GetPeakActiveCount() const
    {
        return m_peakActive;
    }

  private:
    /** A flow and its place in the links' lists. */
    struct Flow
    {
        std::vector<FlowLinkUse> uses; //!< links it loads
        std::vector<uint32_t> slot;    //!< its index in each used link's list
        double rate{0};                //!< current rate, bit/s
        bool active{false};            //!< carrying bytes
        uint64_t mark{0};              //!< last collection that reached it
    };

    /** Collect the active flows reachable from the touched flows' links into m_changed. */
    void CollectComponents();
    /** Collect every active flow into m_changed. */
    void CollectAll();
    /** Solve the flows in m_changed. */
    void Solve();
    /** Put \p flow on its links' lists. */
    void Attach(uint32_t flow);
    /** Take \p flow off its links' lists. */
    void Detach(uint32_t flow);

    MaxMinSolver m_solver;                                  //!< the fair share
    bool m_incremental;                                     //!< components only
    std::vector<Flow> m_flows;                              //!< by id
    std::vector<std::vector<uint32_t>> m_linkFlows;         //!< directed link -> active flows
    std::vector<uint64_t> m_linkMark;                       //!< directed link -> last collection
    uint64_t m_collection{0};                               //!< collections so far
    uint32_t m_activeCount{0};                              //!< active flows
    uint32_t m_peakActive{0};                               //!< most active at once
    std::vector<uint32_t> m_touched;                        //!< started or stopped since Resolve
    std::vector<uint32_t> m_changed;                        //!< flows of the last re-solve
    std::vector<const std::vector<FlowLinkUse>*> m_problem; //!< scratch for the solver
    std::vector<uint32_t> m_linkStack;                      //!< scratch for CollectComponent
    std::vector<double> m_rates;                            //!< scratch for the solver
    uint64_t m_solveCount{0};                               //!< re-solves
    uint64_t m_solvedFlows{0};                              //!< flows over all re-solves
};

} // namespace ns3

#endif /* MLFABRIC_FLOW_RATE_ALLOCATOR_H */
