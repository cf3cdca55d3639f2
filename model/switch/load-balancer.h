/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_LOAD_BALANCER_H
#define MLFABRIC_LOAD_BALANCER_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class RoceHeader;

/**
 * \ingroup mlfabric-switch
 * What a load balancer may read of its switch: the bytes queued at each egress port.
 */
class EgressLoad
{
  public:
    virtual ~EgressLoad() = default;
    /** \param port egress port index \return bytes queued there now, all priorities */
    virtual uint64_t GetQueueBytes(uint32_t port) const = 0;
};

/**
 * \ingroup mlfabric-switch
 * Picks the egress port of a data packet among the equal-cost ports toward its
 * destination.
 *
 * A switch holds one, chosen by TypeId (RoceSwitch::LoadBalancer). Control packets
 * (ACK, NACK, CNP) do not come here: they follow the flow hash, so a queue pair's
 * acknowledgements keep one path whatever its data does.
 */
class LoadBalancer : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /** Create a balancer with its random stream (used by the schemes that draw). */
    LoadBalancer();

    /**
     * \param h the data packet's header
     * \param ports the equal-cost egress ports (at least two)
     * \param hash the packet's flow hash at this switch (entropy included)
     * \param load the switch's egress queues
     * \return one of \p ports
     */
    virtual uint32_t Choose(const RoceHeader& h,
                            const std::vector<uint32_t>& ports,
                            uint32_t hash,
                            const EgressLoad& load) = 0;

    /** \return the scheme and its parameters, as the run header prints it */
    virtual std::string Describe() const = 0;

    /** \return true if Choose may reorder a queue pair's packets of one entropy value */
    virtual bool MayReorder() const = 0;

    /**
     * Assign a fixed random stream to the schemes that draw.
     * \param stream the stream index
     * \return the number of streams used: 0 for the schemes that never draw
     */
    virtual int64_t AssignStreams(int64_t stream);

  protected:
    /** Drop the random stream. */
    void DoDispose() override;

    /** \param n how many \return a uniform index below \p n */
    uint32_t Draw(uint32_t n);

    Ptr<UniformRandomVariable> m_rng; //!< draws of the randomised schemes
};

/**
 * \ingroup mlfabric-switch
 * Per-flow ECMP: the flow hash picks the port, so every packet of one queue pair and
 * entropy value takes one path (the switches' behaviour before spraying).
 */
class EcmpBalancer : public LoadBalancer
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    uint32_t Choose(const RoceHeader& h,
                    const std::vector<uint32_t>& ports,
                    uint32_t hash,
                    const EgressLoad& load) override;
    std::string Describe() const override;
    bool MayReorder() const override;
    int64_t AssignStreams(int64_t stream) override;
};

/**
 * \ingroup mlfabric-switch
 * Flowlet switching in the manner of LetFlow: a flow keeps its port while its packets
 * follow each other closely; after a gap longer than Gap, its next packet starts a new
 * flowlet on a port drawn at random. A gap longer than the difference of the paths'
 * delays keeps packets in order.
 */
class FlowletBalancer : public LoadBalancer
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    uint32_t Choose(const RoceHeader& h,
                    const std::vector<uint32_t>& ports,
                    uint32_t hash,
                    const EgressLoad& load) override;
    std::string Describe() const override;
    bool MayReorder() const override;

    /** \return flowlets started so far (a flow's first packet starts one) */
    uint64_t GetFlowlets() const;

  private:
    /** The port a flow's current flowlet takes and when its last packet passed. */
    struct Flowlet
    {
        uint32_t port{0}; //!< egress port
        Time last;        //!< last packet seen
    };

    /** A flow: source node and queue pair (they name it), and entropy value. */
    struct FlowKey
    {
        uint64_t sourceQp; //!< source node << 32 | source QP number
        uint32_t entropy;  //!< entropy value

        /** \param o another key \return true if both name one flow */
        bool
        operator==(const FlowKey& o) const
        {
            return sourceQp == o.sourceQp && entropy == o.entropy;
        }
    };

    /** Hash of a FlowKey. */
    struct FlowKeyHash
    {
        /** \param k a key \return its hash */
        size_t operator()(const FlowKey& k) const;
    };

    Time m_gap;                                                //!< Gap attribute
    std::unordered_map<FlowKey, Flowlet, FlowKeyHash> m_flows; //!< by flow
    uint64_t m_flowlets{0};
};

/**
 * \ingroup mlfabric-switch
 * Per-packet spraying: each data packet takes a port drawn at random, or the next in
 * round robin per destination, whatever its flow.
 */
class SprayBalancer : public LoadBalancer
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /** How the port of a packet is picked. */
    enum Order
    {
        RANDOM,      //!< uniform draw per packet
        ROUND_ROBIN, //!< the next port per destination
    };

    uint32_t Choose(const RoceHeader& h,
                    const std::vector<uint32_t>& ports,
                    uint32_t hash,
                    const EgressLoad& load) override;
    std::string Describe() const override;
    bool MayReorder() const override;

  private:
    Order m_order;                  //!< Order attribute
    std::vector<uint32_t> m_cursor; //!< round robin: next position per destination
};

/**
 * \ingroup mlfabric-switch
 * Adaptive routing per packet: the equal-cost port with the fewest bytes queued, ties
 * broken at random (as switches with adaptive routing do on their local queue state).
 */
class AdaptiveBalancer : public LoadBalancer
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    uint32_t Choose(const RoceHeader& h,
                    const std::vector<uint32_t>& ports,
                    uint32_t hash,
                    const EgressLoad& load) override;
    std::string Describe() const override;
    bool MayReorder() const override;

  private:
    std::vector<uint32_t> m_ties; //!< scratch: the least-loaded ports
};

/**
 * \ingroup mlfabric-switch
 * \return the names --lb accepts, in order: ecmp, flowlet, spray, adaptive
 */
std::vector<std::string> LoadBalancerNames();

/**
 * \ingroup mlfabric-switch
 * \param name one of LoadBalancerNames()
 * \return its TypeId; throws InputError naming the known ones for another name
 */
TypeId LoadBalancerTypeId(const std::string& name);

} // namespace ns3

#endif /* MLFABRIC_LOAD_BALANCER_H */
