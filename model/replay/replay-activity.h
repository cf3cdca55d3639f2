/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_REPLAY_ACTIVITY_H
#define MLFABRIC_REPLAY_ACTIVITY_H

#include "ns3/nstime.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-replay
 * What a running node keeps an NPU doing.
 */
enum class ReplayActivityKind : uint8_t
{
    Compute = 0, //!< device compute (COMP_NODE, not a CPU op)
    Comm = 1,    //!< communication: collectives, sends, receives
    Cpu = 2,     //!< host-side operations
    Memory = 3,  //!< remote-memory loads and stores
};

/**
 * \ingroup mlfabric-replay
 * Number of ReplayActivityKind values.
 */
constexpr size_t kReplayActivityKinds = 4;

/**
 * \ingroup mlfabric-replay
 * The busy time of one NPU, per kind of activity, as unions of intervals.
 *
 * Nodes of one kind may overlap (several receives, a send and a collective); the busy
 * time of a kind is the time during which at least one of its nodes runs. Exposed
 * communication is the time during which communication runs and device compute does
 * not: what overlapping them would hide.
 */
class ReplayActivity
{
  public:
    /**
     * A node of \p kind starts.
     * \param kind its activity
     * \param now the time
     */
    void Begin(ReplayActivityKind kind, Time now);

    /**
     * A node of \p kind ends.
     * \param kind its activity
     * \param now the time
     */
    void End(ReplayActivityKind kind, Time now);

    /** \param kind an activity \return time with at least one of its nodes running */
    Time GetBusy(ReplayActivityKind kind) const;

    /** \return time with communication running and device compute idle */
    Time GetExposedComm() const;

    /** \param kind an activity \return its nodes running now */
    uint32_t GetRunning(ReplayActivityKind kind) const;

  private:
    /** Charge the time since the last change to what was running. */
    void Advance(Time now);

    std::array<uint32_t, kReplayActivityKinds> m_running{}; //!< nodes running per kind
    std::array<Time, kReplayActivityKinds> m_busy{};        //!< busy time per kind
    Time m_exposed;                                         //!< comm without compute
    Time m_last;                                            //!< last change
};

} // namespace ns3

#endif /* MLFABRIC_REPLAY_ACTIVITY_H */
