/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
/**
 * \file
 * \ingroup mlfabric-fuzz
 * Fuzzes the communicator groups: the input is read both as ASTRA-sim's
 * --comm-group-configuration file and as the value of a process-group METADATA node.
 */
#include "fuzz-input.h"

#include "ns3/comm-group-table.h"

#include <string>

namespace
{

/** Ranks of the run the groups belong to. */
constexpr uint32_t kWorldSize = 64;

/** Check a group's ranks: sorted, distinct, in the run. \param group a group or null */
void
CheckGroup(const std::shared_ptr<const ns3::CommGroup>& group)
{
    if (!group)
    {
        return;
    }
    const auto& ranks = group->GetRanks();
    ns3::Expect(!ranks.empty(), "a group has ranks");
    for (size_t i = 0; i < ranks.size(); ++i)
    {
        ns3::Expect(ranks[i] < kWorldSize, "ranks are below the world size");
        ns3::Expect(i == 0 || ranks[i - 1] < ranks[i], "ranks are sorted and distinct");
        ns3::Expect(group->IndexOf(ranks[i]) == i, "IndexOf gives a rank's position");
    }
}

/** Look up a few names a trace would use and check the groups found. */
void
CheckTable(const ns3::CommGroupTable& table)
{
    for (const char* name : {"", "0", "1", "2", "3"})
    {
        ns3::RunReader([&]() { CheckGroup(table.Lookup(name, "fuzz")); });
    }
}

} // namespace

extern "C" int
LLVMFuzzerInitialize(int*, char***)
{
    ns3::InitializeFuzzer();
    return 0;
}

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string path = ns3::WriteFuzzInput(data, size, "comm-group.json");
    ns3::RunReader(
        [&]()
        {
            ns3::CommGroupTable table(kWorldSize);
            table.LoadFile(path);
            CheckTable(table);
        });
    ns3::RunReader(
        [&]()
        {
            ns3::CommGroupTable table(kWorldSize);
            table.AddProcessGroups(std::string(reinterpret_cast<const char*>(data), size),
                                   "trace.0.et: node 1");
            CheckTable(table);
        });
    return 0;
}
