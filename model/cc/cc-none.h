/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_CC_NONE_H
#define MLFABRIC_CC_NONE_H

#include "ns3/congestion-ops.h"

namespace ns3
{

/**
 * \ingroup mlfabric-cc
 * No end-to-end congestion control: line rate, with an optional fixed window.
 *
 * Only PFC (if enabled) and the window stop a sender. The window is off (0) unless
 * set, unlike the peers' "PFC only", which silently caps every QP at one BDP.
 */
class CcNone : public RdmaCongestionOps
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    std::string GetName() const override;
    void Init(CcQueuePairView* qp) override;

  private:
    uint64_t m_windowBytes{0}; //!< fixed window; 0 = none
};

} // namespace ns3

#endif /* MLFABRIC_CC_NONE_H */
