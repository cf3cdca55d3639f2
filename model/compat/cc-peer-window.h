/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_CC_PEER_WINDOW_H
#define MLFABRIC_CC_PEER_WINDOW_H

#include "ns3/congestion-ops.h"
#include "ns3/ptr.h"

#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-compat
 * A rate-based scheme with the HPCC simulator's window on top (its HAS_WIN 1).
 *
 * Runs the scheme named by the Scheme attribute and passes its rate through, and
 * keeps the queue pair's window at the base window (set per queue pair with
 * SetBaseWindow: the largest BDP with GLOBAL_T 1, the pair's BDP otherwise), scaled by
 * rate / line rate when VariableWindow is true (VAR_WIN 1), never below one byte, as
 * the simulator's RdmaQueuePair::GetWin() does. What the inner scheme asks of the
 * window is ignored. Use it for schemes that have no window of their own (DCQCN,
 * TIMELY, none); HPCC and DCTCP keep their own.
 */
class CcPeerWindow
    : public RdmaCongestionOps
    , private CcQueuePairView
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    CcPeerWindow() = default;

    /**
     * Set the window at line rate; 0 leaves the queue pair without a window.
     * \param bytes the window
     */
    void SetBaseWindow(uint64_t bytes);
    /** \return the inner scheme */
    Ptr<RdmaCongestionOps> GetInner() const;

    std::string GetName() const override;
    void Init(CcQueuePairView* qp) override;
    void Stop() override;
    void OnSend(uint32_t payloadBytes) override;
    void OnAck(const AckSample& ack) override;
    void OnNack(const AckSample& ack) override;
    void OnCnp() override;
    void OnTimeout() override;
    bool NeedsInt() const override;
    bool NeedsCnp() const override;
    bool NeedsTimestamp() const override;

  protected:
    /** Dispose of the wrapped scheme and drop the queue-pair view. */
    void DoDispose() override;

  private:
    /** Window for the current rate. */
    void UpdateWindow();

    // CcQueuePairView, as the inner scheme sees the queue pair
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

    std::string m_scheme;
    bool m_variable{true};
    uint64_t m_baseWindow{0};
    CcQueuePairView* m_view{nullptr}; //!< the real queue pair
    Ptr<RdmaCongestionOps> m_inner;
};

} // namespace ns3

#endif /* MLFABRIC_CC_PEER_WINDOW_H */
