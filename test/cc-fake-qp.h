/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// A queue pair stand-in for driving congestion-control algorithms without a NIC.
#ifndef MLFABRIC_TEST_CC_FAKE_QP_H
#define MLFABRIC_TEST_CC_FAKE_QP_H

#include "ns3/congestion-ops.h"

#include <algorithm>

namespace ns3
{

/** Holds what the algorithm sets; clamps the rate to [1, line rate] as the NIC does. */
class FakeQueuePair : public CcQueuePairView
{
  public:
    uint64_t lineRate{100000000000ULL}; //!< 100 Gb/s
    uint64_t rate{0};
    uint64_t window{0};
    uint64_t sndNxt{0};
    uint64_t sndUna{0};
    Time baseRtt{MicroSeconds(10)};
    uint32_t hops{2};
    uint32_t mtu{1000};
    uint32_t rateChanges{0};
    uint32_t windowChanges{0};

    uint64_t
    GetLineRateBps() const override
    {
        return lineRate;
    }

    uint64_t
    GetRateBps() const override
    {
        return rate;
    }

    void
    SetRateBps(uint64_t r) override
    {
        const uint64_t clamped = std::clamp<uint64_t>(r, 1, lineRate);
        rateChanges += clamped != rate;
        rate = clamped;
    }

    uint64_t
    GetWindowBytes() const override
    {
        return window;
    }

    void
    SetWindowBytes(uint64_t w) override
    {
        windowChanges += w != window;
        window = w;
    }

    uint64_t
    GetSndNxt() const override
    {
        return sndNxt;
    }

    uint64_t
    GetSndUna() const override
    {
        return sndUna;
    }

    Time
    GetBaseRtt() const override
    {
        return baseRtt;
    }

    uint32_t
    GetHopCount() const override
    {
        return hops;
    }

    uint32_t
    GetMtuBytes() const override
    {
        return mtu;
    }

    /** Send \p bytes and have them acknowledged: returns the ACK the NIC would report. */
    AckSample
    Deliver(uint64_t bytes, Time rtt = Time(0), bool ecn = false)
    {
        sndNxt += bytes;
        AckSample ack;
        ack.newlyAcked = bytes;
        sndUna += bytes;
        ack.ackedSeq = sndUna;
        ack.rtt = rtt;
        ack.ecnEcho = ecn;
        return ack;
    }
};

} // namespace ns3

#endif /* MLFABRIC_TEST_CC_FAKE_QP_H */
