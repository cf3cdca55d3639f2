/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "analytical-backend-factory.h"

#include "ns3/congestion-aware-backend.h"
#include "ns3/congestion-unaware-backend.h"
#include "ns3/double.h"
#include "ns3/input-error.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AnalyticalBackendFactory");

Ptr<AnalyticalBackend>
CreateAnalyticalBackend(AnalyticalModel model,
                        const Fabric& fabric,
                        const RoutingTable& routes,
                        double goodputFraction,
                        const std::string& source)
{
    NS_LOG_FUNCTION(source << goodputFraction);
    if (!(goodputFraction > 0 && goodputFraction <= 1))
    {
        throw InputError(source + ": goodput fraction " + std::to_string(goodputFraction) +
                         " is not in (0, 1]");
    }
    Ptr<AnalyticalBackend> backend;
    if (model == AnalyticalModel::CongestionUnaware)
    {
        backend = CreateObject<CongestionUnawareBackend>();
    }
    else
    {
        backend = CreateObject<CongestionAwareBackend>();
    }
    backend->SetAttribute("GoodputFraction", DoubleValue(goodputFraction));
    try
    {
        backend->SetFabric(fabric, routes);
    }
    catch (const InputError& e)
    {
        const std::string hint =
            model == AnalyticalModel::CongestionUnaware
                ? "; the congestion-unaware model's closed form needs Ring, FullyConnected "
                  "and Switch dimensions (the congestion-aware model follows the routed "
                  "paths of any fabric)"
                : "";
        throw InputError(source + ": " + e.what() + hint);
    }
    return backend;
}

} // namespace ns3
