/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_IB_ACK_TIMEOUT_H
#define MLFABRIC_IB_ACK_TIMEOUT_H

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup mlfabric-rdma
 * Largest Local ACK Timeout exponent of the InfiniBand RC transport (5 bits).
 */
constexpr uint32_t kIbMaxAckTimeoutExponent = 31;

/**
 * \ingroup mlfabric-rdma
 * The transport timer of an InfiniBand or RoCE reliable-connected queue pair, as the
 * verbs' "timeout" QP attribute gives it (NCCL_IB_TIMEOUT sets it for NCCL).
 * \param exponent 0 to kIbMaxAckTimeoutExponent
 * \return 4.096 us x 2^exponent; Time::Max() for 0, which the specification defines
 *         as an infinite timeout
 */
Time IbLocalAckTimeout(uint32_t exponent);

} // namespace ns3

#endif /* MLFABRIC_IB_ACK_TIMEOUT_H */
