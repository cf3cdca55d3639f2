/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_CC_DCQCN_WINDOW_H
#define MLFABRIC_CC_DCQCN_WINDOW_H

#include "ns3/cc-dcqcn.h"

namespace ns3
{

/**
 * \ingroup mlfabric-cc
 * DCQCN with a window: the paper's rate control (CcDcqcn), and at most a window of
 * bytes in flight, as the HPCC paper's "DCQCN+win" baseline and the HPCC simulator's
 * dcqcn_vwin (its HAS_WIN 1, VAR_WIN 1) run it.
 *
 * The window is the queue pair's BDP, line rate x base RTT, scaled by rate / line rate
 * when VariableWindow is true, and never below one MTU. It bounds what a sender puts
 * in flight while a cut has yet to take effect, which pacing alone does not.
 */
class CcDcqcnWindow
    : public CcDcqcn
    , private CcQueuePairView
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    std::string GetName() const override;
    void Init(CcQueuePairView* qp) override;
    void Stop() override;

  protected:
    /** Drop the queue-pair view. */
    void DoDispose() override;

  private:
    /** Window for \p rateBps. \param rateBps the pacing rate, bit/s */
    void UpdateWindow(uint64_t rateBps);

    // CcQueuePairView, as the DCQCN rate control sees the queue pair
    uint64_t GetLineRateBps() const override;
    uint64_t GetRateBps() const override;
    void SetRateBps(uint64_t rate) override;
    uint64_t GetWindowBytes() const override;
    void SetWindowBytes(uint64_t window) override;
    uint64_t GetSndNxt() const override;
    uint64_t GetSndUna() const override;
    Time GetBaseRtt() const override;
    uint32_t GetHopCount() const override;
    uint32_t GetMtuBytes() const override;

    bool m_variable{true};            //!< scale the window with the rate
    CcQueuePairView* m_view{nullptr}; //!< the real queue pair
    bool m_ownWindow{false};          //!< the window being set is this class's
};

} // namespace ns3

#endif /* MLFABRIC_CC_DCQCN_WINDOW_H */
