/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_NS3_GTEST_BRIDGE_H
#define MLFABRIC_NS3_GTEST_BRIDGE_H

#include "ns3/test.h"

#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-tests
 * One ns-3 TestSuite that runs the GoogleTest cases of one `test/<area>-test.cc`.
 *
 * In an ns-3 source tree, ns-3's test.py runs TestSuites; the mlfabric cases are written
 * with GoogleTest (and run under ctest in the standalone build). Each suite runs the cases
 * its filter selects and fails, naming them, when any of them fails, so that test.py
 * checks the same assertions as ctest.
 */
class GtestSuite : public TestSuite
{
  public:
    /**
     * \param name the ns-3 suite name, e.g. "mlfabric-pfc"
     * \param filter a GoogleTest filter selecting the file's cases: "Pfc.*" for a suite
     *        Pfc, joined by ':' with the same behind the instantiation prefix of its
     *        parameterized cases (cmake/ns3-tree.cmake writes it)
     */
    GtestSuite(const std::string& name, const std::string& filter);
};

} // namespace ns3

#endif /* MLFABRIC_NS3_GTEST_BRIDGE_H */
