/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_MULTI_DIM_BUILDER_H
#define MLFABRIC_MULTI_DIM_BUILDER_H

#include "ns3/fabric.h"
#include "ns3/link-settings.h"
#include "ns3/scale-up-settings.h"

#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/** \ingroup mlfabric-fabric
 * How the NPUs of one dimension group are connected (ASTRA-sim's names). */
enum class DimensionTopology : uint8_t
{
    Ring,           //!< bidirectional ring; a ring of 2 is a single link
    FullyConnected, //!< a link between every pair
    Switch          //!< one switch per group, a link from each NPU to it
};

/**
 * \ingroup mlfabric-fabric
 * \param topology a dimension topology \return its ASTRA-sim name
 */
std::string GetDimensionTopologyName(DimensionTopology topology);

/**
 * \ingroup mlfabric-fabric
 * \param name "Ring", "FullyConnected" or "Switch"
 * \param topology set on success
 * \return false if the name is none of them
 */
bool ParseDimensionTopology(const std::string& name, DimensionTopology& topology);

/**
 * \ingroup mlfabric-fabric
 * One dimension of a multi-dimensional fabric.
 */
struct DimensionSpec
{
    DimensionTopology topology{DimensionTopology::Ring}; //!< how a group is connected
    uint32_t npus{0};                                    //!< group size, at least 2
    LinkSettings link;                                   //!< every link of the dimension
    std::string name;                                    //!< empty gives "dim<index>"
    std::optional<ScaleUpSettings> scaleUp;              //!< set: a scale-up domain (credit links)
};

/**
 * \ingroup mlfabric-fabric
 * Connect the fabric's NPUs dimension by dimension.
 *
 * NPU ids are mixed radix over the dimension sizes, dimension 0 fastest; a group of
 * dimension d is the NPUs whose coordinates differ only in d. When the NPU count is a
 * multiple of the product of the sizes (servers of NPUs), each block of product()
 * consecutive NPUs gets its own groups. Dimension indices continue after the fabric's
 * existing dimensions, whose metadata is appended. Throws InputError on a size below 2,
 * a zero rate or an NPU count that is not a multiple of the product.
 *
 * \param fabric fabric whose NPUs exist already
 * \param dims dimensions, fastest first
 */
void AddDimensionLinks(Fabric& fabric, const std::vector<DimensionSpec>& dims);

/**
 * \ingroup mlfabric-fabric
 * Bisection bandwidth of a multi-dimensional fabric between rank halves, which split
 * the last dimension when its size n is even: (N/n) x c x r with c = 2 for a ring
 * (1 if n = 2), (n/2)^2 fully connected, n/2 switch; 0 when n is odd.
 * \param dims dimensions, fastest first
 * \return bit/s, or 0
 */
uint64_t MultiDimBisectionBps(const std::vector<DimensionSpec>& dims);

/**
 * \ingroup mlfabric-fabric
 * A multi-dimensional fabric as ASTRA-sim describes it: prod(npus) NPUs that forward
 * traffic between dimensions.
 * Its structural bisection is MultiDimBisectionBps.
 *
 * \param name fabric name
 * \param dims dimensions, fastest first
 * \return the fabric
 */
Fabric BuildMultiDim(const std::string& name, const std::vector<DimensionSpec>& dims);

} // namespace ns3

#endif /* MLFABRIC_MULTI_DIM_BUILDER_H */
