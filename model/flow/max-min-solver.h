/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_MAX_MIN_SOLVER_H
#define MLFABRIC_MAX_MIN_SOLVER_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-flow
 * What one flow asks of one directed link: \p weight bits on the link per bit of the
 * flow's rate (1 for its data, a small fraction on the reverse path for its ACKs).
 */
struct FlowLinkUse
{
    uint32_t link{0};   //!< directed link
    double weight{1.0}; //!< link bits per bit of the flow's rate, > 0
};

/**
 * \ingroup mlfabric-flow
 * Weighted max-min fair rates by progressive filling.
 *
 * Every unfrozen flow's rate rises together; a link saturates when the flows on it use
 * its capacity, sum over flows of weight x rate; its unfrozen flows freeze at that
 * level and the rest go on rising. The result is the max-min fair allocation: no
 * flow's rate can grow without lowering that of a flow with an equal or smaller rate.
 * A step costs one pass over the links the flows use or, for many links, the links at
 * its level and those whose flows freeze (their levels kept in a heap).
 */
class MaxMinSolver
{
  public:
    /** \param capacityBps capacity of every directed link, bit/s, > 0 */
    explicit MaxMinSolver(std::vector<double> capacityBps);

    /**
     * \param flows the links each flow uses (a flow with none gets rate 0)
     * \param rates set to the rate of every flow, bit/s, in the order of \p flows
     */
    void Solve(const std::vector<const std::vector<FlowLinkUse>*>& flows,
               std::vector<double>& rates);

    /** \return the number of directed links */
    uint32_t
    GetLinkCount() const
    {
        return static_cast<uint32_t>(m_capacity.size());
    }

    /** \param link a directed link \return its capacity, bit/s */
    double
    GetCapacity(uint32_t link) const
    {
        return m_capacity[link];
    }

  private:
    /**
     * Links up to which every step scans them all; above, the steps after the first
     * kScannedSteps take their levels from a heap (a step then costs the links at its
     * level and those whose flows freeze).
     */
    static constexpr size_t kScannedLinks = 64;
    /** Steps scanned before the heap takes over, for a Solve over many links. */
    static constexpr uint64_t kScannedSteps = 8;

    /** Progressive filling, each step a pass over the Solve's links. \param steps at most */
    void FillByScans(uint64_t steps);
    /** Progressive filling on from where it is, the next level from a heap of the links'. */
    void FillByHeap();
    /**
     * Freeze the unfrozen flows of a link at \p level and take their rates off every link
     * they use.
     * \param slot the link, in m_active
     * \param level the step's rate
     * \param step the heap's step, whose changed links are listed; 0: none are
     */
    void FreezeFlowsOf(uint32_t slot, double level, uint64_t step);

    /** A link taking part in one Solve. */
    struct Active
    {
        uint32_t link;               //!< directed link
        double residual;             //!< capacity not taken by frozen flows
        double unfrozenWeight;       //!< sum of the weights of its unfrozen flows
        std::vector<uint32_t> flows; //!< flows on it (indices into the Solve's flows)
        uint32_t version;            //!< steps that changed it: older heap entries are stale
        uint64_t changedInStep;      //!< the last step that changed it
    };

    /** A link's bottleneck level when it was last changed. */
    struct Level
    {
        double level;     //!< residual / unfrozen weight
        uint32_t slot;    //!< the link, in m_active
        uint32_t version; //!< the link's version then
    };

    std::vector<double> m_capacity;    //!< directed link -> bit/s
    std::vector<uint32_t> m_slot;      //!< directed link -> index in m_active, this Solve
    std::vector<uint64_t> m_stamp;     //!< directed link -> Solve that last used m_slot
    std::vector<Active> m_active;      //!< links of this Solve: the first m_activeCount
    size_t m_activeCount{0};           //!< links of this Solve; the rest keep their storage
    std::vector<bool> m_frozen;        //!< flow of this Solve -> its rate is final
    std::vector<Level> m_heap;         //!< the links' levels, the lowest on top
    std::vector<uint32_t> m_saturated; //!< links at this step's level, in link order
    std::vector<uint32_t> m_changed;   //!< links whose flows froze in this step
    const std::vector<const std::vector<FlowLinkUse>*>* m_flows{nullptr}; //!< this Solve's
    std::vector<double>* m_rates{nullptr};                                //!< its rates
    size_t m_unfrozen{0}; //!< its flows not yet frozen
    uint64_t m_solves{0}; //!< Solve calls, for the stamps
};

} // namespace ns3

#endif /* MLFABRIC_MAX_MIN_SOLVER_H */
