/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ANALYTICAL_BACKEND_FACTORY_H
#define MLFABRIC_ANALYTICAL_BACKEND_FACTORY_H

#include "ns3/analytical-backend.h"
#include "ns3/fabric.h"
#include "ns3/ptr.h"
#include "ns3/routing-table.h"

#include <string>

namespace ns3
{

/** \ingroup mlfabric-analytical
 * ASTRA-sim's two analytical network models. */
enum class AnalyticalModel : uint8_t
{
    CongestionUnaware, //!< closed form per dimension (CongestionUnawareBackend)
    CongestionAware,   //!< store-and-forward over routed links (CongestionAwareBackend)
};

/**
 * \ingroup mlfabric-analytical
 * An analytical backend set up on a fabric.
 *
 * Throws InputError starting with \p source when the model cannot run on the fabric
 * (the congestion-unaware model on a fabric without ASTRA-sim's dimensions) or the
 * goodput fraction is outside (0, 1].
 * \param model which model
 * \param fabric the fabric (copied)
 * \param routes its routing tables (copied)
 * \param goodputFraction share of each link's rate that carries payload
 * \param source where the fabric comes from (its file), for messages
 * \return the backend
 */
Ptr<AnalyticalBackend> CreateAnalyticalBackend(AnalyticalModel model,
                                               const Fabric& fabric,
                                               const RoutingTable& routes,
                                               double goodputFraction,
                                               const std::string& source);

} // namespace ns3

#endif /* MLFABRIC_ANALYTICAL_BACKEND_FACTORY_H */
