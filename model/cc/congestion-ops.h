/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_CONGESTION_OPS_H
#define MLFABRIC_CONGESTION_OPS_H

#include "ns3/int-hop.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-cc
 * What an ACK or NACK tells the sender's congestion control.
 */
struct AckSample
{
    uint64_t ackedSeq{0};        //!< cumulative: every byte below has arrived
    uint64_t newlyAcked{0};      //!< bytes this ACK acknowledged for the first time
    bool ecnEcho{false};         //!< the acknowledged data carried an ECN CE mark
    Time rtt;                    //!< now minus the echoed transmit timestamp (zero if none)
    uint32_t nHops{0};           //!< INT hops valid in hops[]
    const IntHop* hops{nullptr}; //!< INT stack echoed by the receiver (HPCC)
    bool hasPint{false};         //!< the ACK echoes a PINT field (HPCC-PINT)
    uint16_t pintPower{0};       //!< the echoed PINT code: the path's largest utilisation
};

/**
 * \ingroup mlfabric-cc
 * What data packets ask of switches for HPCC-PINT: the code's log base and the period
 * of the switches' utilisation EWMA. A log base of 0 asks for no PINT.
 */
struct PintSettings
{
    double logBase{0}; //!< the code's log base b (> 1), or 0
    Time period;       //!< T of the switches' utilisation EWMA
};

/**
 * \ingroup mlfabric-cc
 * The view a congestion-control instance has of its queue pair.
 *
 * The NIC implements it; the algorithm reads the QP's progress and answers with a
 * pacing rate and a window.
 */
class CcQueuePairView
{
  public:
    virtual ~CcQueuePairView() = default;
    /** \return the NIC port's line rate, bit/s */
    virtual uint64_t GetLineRateBps() const = 0;
    /** \return the current pacing rate, bit/s */
    virtual uint64_t GetRateBps() const = 0;
    /** Set the pacing rate; clamped by the NIC to [1, line rate]. \param rate bit/s */
    virtual void SetRateBps(uint64_t rate) = 0;
    /** \return the window in bytes; 0 means no window */
    virtual uint64_t GetWindowBytes() const = 0;
    /** Set the window; 0 means no window. \param window bytes in flight allowed */
    virtual void SetWindowBytes(uint64_t window) = 0;
    /** \return the next byte sequence to send */
    virtual uint64_t GetSndNxt() const = 0;
    /** \return the oldest unacknowledged byte sequence */
    virtual uint64_t GetSndUna() const = 0;
    /** \return the unloaded round-trip time to the peer */
    virtual Time GetBaseRtt() const = 0;
    /** \return the number of switch hops to the peer */
    virtual uint32_t GetHopCount() const = 0;
    /** \return the payload bytes of a full packet (MTU) */
    virtual uint32_t GetMtuBytes() const = 0;
};

/**
 * \ingroup mlfabric-cc
 * Base class of the congestion-control algorithms: one instance per queue pair.
 *
 * Modelled on ns-3's TcpCongestionOps. The NIC calls the On* methods on transport
 * events; the algorithm answers through CcQueuePairView::SetRateBps and
 * SetWindowBytes, and may schedule its own timers with Simulator::Schedule.
 * Subclasses are selected by TypeId name and configured with attributes.
 */
class RdmaCongestionOps : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /** \return the scheme's short name, as given to --cc */
    virtual std::string GetName() const = 0;

    /**
     * Start controlling a queue pair. Called once, before its first packet.
     * \param qp the queue pair; it outlives this object's use of it
     */
    virtual void Init(CcQueuePairView* qp);

    /** The QP has finished or is being torn down: cancel timers, forget the view. */
    virtual void Stop();

    /**
     * A data packet was handed to the wire.
     * \param payloadBytes its payload size
     */
    virtual void OnSend(uint32_t payloadBytes);

    /** An ACK arrived. \param ack what it carried */
    virtual void OnAck(const AckSample& ack);

    /** A NACK arrived (a gap at the receiver). \param ack what it carried */
    virtual void OnNack(const AckSample& ack);

    /** A congestion notification packet arrived for this QP. */
    virtual void OnCnp();

    /** The retransmission timer fired. */
    virtual void OnTimeout();

    /** \return true if data packets must carry INT (switches stamp them) */
    virtual bool NeedsInt() const;

    /** \return what data packets ask of switches for PINT; the default asks nothing */
    virtual PintSettings GetPintSettings() const;

    /** \return true if the receiver must generate CNPs for ECN-marked data */
    virtual bool NeedsCnp() const;

    /** \return true if the receiver must echo the transmit timestamp in ACKs */
    virtual bool NeedsTimestamp() const;

    /**
     * TracedCallback signature of a rate or window change.
     * \param oldValue the value before (bit/s or bytes)
     * \param newValue the value after
     */
    typedef void (*ChangeTracedCallback)(uint64_t oldValue, uint64_t newValue);

  protected:
    /**
     * Hand a new pacing rate to the queue pair and fire the Rate trace if it changed.
     * \param rateBps the rate, bit/s
     */
    void ApplyRate(uint64_t rateBps);

    /**
     * Hand a new window to the queue pair and fire the Window trace if it changed.
     * \param windowBytes the window in bytes; 0 means no window
     */
    void ApplyWindow(uint64_t windowBytes);

    CcQueuePairView* m_qp{nullptr}; //!< the controlled queue pair

  private:
    uint64_t m_lastRateBps{0};                        //!< rate last handed to the queue pair
    uint64_t m_lastWindowBytes{0};                    //!< window last handed to the queue pair
    TracedCallback<uint64_t, uint64_t> m_rateTrace;   //!< pacing-rate changes
    TracedCallback<uint64_t, uint64_t> m_windowTrace; //!< window changes
};

} // namespace ns3

#endif /* MLFABRIC_CONGESTION_OPS_H */
