/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "attribute-default.h"

#include "ns3/abort.h"
#include "ns3/config.h"
#include "ns3/type-id.h"

namespace ns3
{

void
ResetAttributeDefault(const std::string& path)
{
    const auto split = path.rfind("::");
    NS_ABORT_MSG_IF(split == std::string::npos, "not an attribute path: " << path);
    const TypeId tid = TypeId::LookupByName(path.substr(0, split));
    TypeId::AttributeInformation info;
    const bool found = tid.LookupAttributeByName(path.substr(split + 2), &info);
    NS_ABORT_MSG_UNLESS(found, "no attribute " << path);
    Config::SetDefault(path, *info.originalInitialValue);
}

} // namespace ns3
