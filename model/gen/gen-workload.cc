/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gen-workload.h"

#include "ns3/et-rank-files.h"
#include "ns3/et-writer.h"
#include "ns3/input-error.h"
#include "ns3/log.h"

#include <filesystem>
#include <iomanip>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GenWorkload");

GenWorkload::GenWorkload(std::string kindName, uint32_t rankCount)
    : kind(std::move(kindName))
{
    ranks.reserve(rankCount);
    for (uint32_t r = 0; r < rankCount; ++r)
    {
        ranks.emplace_back(r);
    }
}

void
GenWorkload::AddParameter(const std::string& name, const std::string& value)
{
    params.emplace_back(name, value);
}

void
GenWorkload::AddParameter(const std::string& name, double value)
{
    std::ostringstream text;
    text << std::setprecision(17) << value;
    std::ostringstream shortest;
    shortest << value;
    params.emplace_back(name, std::stod(shortest.str()) == value ? shortest.str() : text.str());
}

std::string
GenWorkload::DescribeParameters() const
{
    std::string text;
    for (const auto& [name, value] : params)
    {
        text += (text.empty() ? "" : " ") + name + "=" + value;
    }
    return text;
}

uint32_t
GenWorkload::Write(const std::string& prefix) const
{
    NS_LOG_FUNCTION(this << prefix);
    ChakraProtoMsg::GlobalMetadata metadata;
    metadata.set_version(kEtSchemaVersion);
    auto* generator = metadata.add_attr();
    generator->set_name("generator");
    generator->set_string_val("mlfabric et-gen " + kind);
    auto* parameters = metadata.add_attr();
    parameters->set_name("parameters");
    parameters->set_string_val(DescribeParameters());
    const std::string kinds = groups.KindsJson();
    if (!kinds.empty())
    {
        // The parallelism kind of each group, for the replay's reports.
        auto* groupKinds = metadata.add_attr();
        groupKinds->set_name("comm_group_kinds");
        groupKinds->set_string_val(kinds);
    }
    for (const auto& rank : ranks)
    {
        rank.Write(EtRankFilePath(prefix, rank.GetRank()), metadata);
    }
    groups.Write(CommGroupFilePath(prefix));
    uint32_t deleted = 0;
    for (auto r = static_cast<uint32_t>(ranks.size());; ++r)
    {
        const std::string stale = EtRankFilePath(prefix, r);
        std::error_code error;
        if (!std::filesystem::exists(stale, error))
        {
            return deleted;
        }
        if (!std::filesystem::remove(stale, error))
        {
            throw InputError(stale + ": cannot delete this file of an earlier, larger workload (" +
                             error.message() + ")");
        }
        ++deleted;
    }
}

std::string
CommGroupFilePath(const std::string& prefix)
{
    return prefix + ".comm-groups.json";
}

} // namespace ns3
