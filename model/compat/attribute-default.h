/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_ATTRIBUTE_DEFAULT_H
#define MLFABRIC_ATTRIBUTE_DEFAULT_H

#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-compat
 * Give an attribute back the initial value its TypeId declares, undoing an earlier
 * Config::SetDefault (runs in one process can then differ in their settings).
 * \param path "ns3::Type::Attribute"
 */
void ResetAttributeDefault(const std::string& path);

} // namespace ns3

#endif /* MLFABRIC_ATTRIBUTE_DEFAULT_H */
