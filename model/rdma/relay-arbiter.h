/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_RELAY_ARBITER_H
#define MLFABRIC_RELAY_ARBITER_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-rdma
 * Weighted fair sharing of one NIC port between the NPU's own queue pairs (local) and
 * the frames it relays (transit).
 *
 * Each class has a virtual finish time that grows by the bytes it sends divided by its
 * weight; the class behind goes next. A class that has nothing to send while the other
 * is served is brought level with it, so idle time earns no credit: while both have
 * data, their byte shares are the weights' ratio; while one has none, the other has the
 * whole port.
 */
class RelayArbiter
{
  public:
    /** The two kinds of data a relaying NPU's port carries. */
    enum Class
    {
        LOCAL,   //!< the NPU's own queue pairs
        TRANSIT, //!< frames relayed for other nodes
    };

    /**
     * \param localWeight weight of the NPU's own data (at least 1)
     * \param transitWeight weight of relayed data (at least 1)
     */
    void SetWeights(uint32_t localWeight, uint32_t transitWeight);
    /** \return the class whose turn it is */
    Class Next() const;
    /**
     * Account a frame sent.
     * \param c the class that sent it
     * \param bytes its wire bytes
     * \param otherWaiting whether the other class had data it could have sent
     */
    void Served(Class c, uint32_t bytes, bool otherWaiting);

  private:
    uint64_t m_finish[2]{0, 0}; //!< virtual finish time, bytes x the other's weight
    uint32_t m_weight[2]{1, 1}; //!< LOCAL and TRANSIT weights
};

} // namespace ns3

#endif /* MLFABRIC_RELAY_ARBITER_H */
