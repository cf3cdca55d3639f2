/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_NETWORK_BACKEND_H
#define MLFABRIC_NETWORK_BACKEND_H

#include "ns3/input-error.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/reduction-layout.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-replay
 * The one seam between the workload layer and a network model.
 *
 * A replay engine asks for point-to-point messages between ranks and is told when each
 * one has left its sender and when it has arrived at its receiver. It also schedules its
 * own work (compute, local reductions) through the backend, so that it never needs to
 * know whether the packet-level RDMA stack or an analytical model is underneath. Both
 * kinds run on ns-3's simulator clock by default.
 */
class NetworkBackend : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId
    GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::NetworkBackend").SetParent<Object>().SetGroupName("Mlfabric");
        return tid;
    }

    /** One message, as the workload names it. */
    struct Message
    {
        uint32_t src{0};   //!< sending rank
        uint32_t dst{0};   //!< receiving rank
        uint64_t bytes{0}; //!< payload size
        uint64_t tag{0};   //!< chosen by the workload; carried unchanged to both callbacks
    };

    /** Notification about one message. */
    using MessageCallback = std::function<void(const Message&)>;

    /** \return the number of ranks (NPUs) the network connects */
    virtual uint32_t GetRankCount() const = 0;

    /**
     * Carry a message from message.src to message.dst.
     *
     * Both callbacks are optional. \p sent fires on the sender's side when the message
     * has left (its buffer may be reused), \p arrived fires on the receiver's side when
     * the last byte has arrived. Arrival order is not promised: a small message may
     * overtake a large one sent earlier between the same ranks (the analytical models
     * charge each message on its own), so a workload that matches messages by tag must
     * number them itself. Throws InputError for a rank out of range.
     *
     * \param message source, destination, size and tag
     * \param sent sender-side notification
     * \param arrived receiver-side notification
     */
    virtual void Send(const Message& message, MessageCallback sent, MessageCallback arrived) = 0;

    /** What the switch does with the members' data. */
    enum class InSwitchOp
    {
        AllReduce,     //!< reduces it and sends every member the whole result
        ReduceScatter, //!< reduces it and sends member i the i-th of n equal shards
        AllGather,     //!< multicasts each member's data to every other member
    };

    /** One rank's share of a reduction done by a switch. */
    struct Contribution
    {
        uint32_t rank{0};                                     //!< contributing rank
        std::shared_ptr<const std::vector<uint32_t>> members; //!< every rank of it, ascending
        uint64_t bytes{0};                    //!< the rank's data, the same for every member
        uint64_t tag{0};                      //!< the same for every member of one reduction
        InSwitchOp op{InSwitchOp::AllReduce}; //!< the same for every member
    };

    /** \param op what the switch does \return the reduction engine's name for it */
    static ReductionOp
    LayoutOp(InSwitchOp op)
    {
        switch (op)
        {
        case InSwitchOp::ReduceScatter:
            return ReductionOp::ReduceScatter;
        case InSwitchOp::AllGather:
            return ReductionOp::AllGather;
        case InSwitchOp::AllReduce:
            break;
        }
        return ReductionOp::AllReduce;
    }

    /**
     * \param c a contribution (members set)
     * \return the bytes its rank receives: all-reduce its data, reduce-scatter its shard
     *         of it (floor(D / n), a byte more for the first D mod n members, as
     *         ReductionLayout splits it), all-gather the n-1 other members' data
     */
    static uint64_t
    ResultBytes(const Contribution& c)
    {
        const auto n = static_cast<uint32_t>(c.members ? c.members->size() : 1);
        uint32_t index = 0;
        if (c.members)
        {
            index = static_cast<uint32_t>(
                std::lower_bound(c.members->begin(), c.members->end(), c.rank) -
                c.members->begin());
        }
        ReductionLayout layout;
        layout.op = LayoutOp(c.op);
        layout.members = n;
        layout.bytes = c.bytes;
        return layout.GetResultBytes(index);
    }

    /**
     * \param c a contribution
     * \return the bytes the switch's engine adds up: the members' data for a
     *         reduction, none for an all-gather
     */
    static uint64_t
    ReducedBytes(const Contribution& c)
    {
        return c.op == InSwitchOp::AllGather ? 0 : c.bytes;
    }

    /** Notification about one contribution. */
    using ContributionCallback = std::function<void(const Contribution&)>;

    /**
     * Reduce in the switch that joins the members: every member sends its data up once
     * and receives its result (ResultBytes) once. \p done fires for each member when its
     * result has arrived. A backend that models no reduction engine, or a set of
     * members no single switch joins, is refused with an InputError that says so.
     *
     * \param contribution this rank's share
     * \param done receiver-side notification of the result
     */
    virtual void
    ReduceInSwitch(const Contribution& contribution, ContributionCallback done)
    {
        (void)done;
        throw InputError("rank " + std::to_string(contribution.rank) +
                         ": in-network reduction (nvls, inNetwork) is not modelled by " +
                         GetInstanceTypeId().GetName() +
                         "; the analytical backends and the packet level model it");
    }

    /**
     * Run \p fn after \p delay on the backend's clock.
     * \param delay non-negative delay
     * \param fn the work to run
     */
    virtual void
    Schedule(Time delay, std::function<void()> fn)
    {
        Simulator::Schedule(delay, std::move(fn));
    }

    /** \return the backend's current time */
    virtual Time
    Now() const
    {
        return Simulator::Now();
    }

  protected:
    /**
     * What every backend checks before it carries a message: throws InputError for a rank
     * out of range, and completes at once, on the backend's clock, a message that crosses
     * nothing (to its own rank, or empty).
     * \param message the message given to Send
     * \param sent its sender-side notification
     * \param arrived its receiver-side notification
     * \return true if the message is done and there is nothing to carry
     */
    bool CompletesWithoutNetwork(const Message& message,
                                 const MessageCallback& sent,
                                 const MessageCallback& arrived);
};

} // namespace ns3

#endif /* MLFABRIC_NETWORK_BACKEND_H */
