/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "et-info-json.h"

#include "ns3/et-reader.h"
#include "ns3/input-error.h"
#include "ns3/log.h"

#include <google/protobuf/util/json_util.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EtInfoJson");

namespace
{

/** Write one message as a line of JSON. */
void
WriteLine(const google::protobuf::Message& message, const std::string& path, std::ostream& out)
{
    google::protobuf::util::JsonPrintOptions options;
    options.add_whitespace = false;
    std::string line;
    const auto status = google::protobuf::util::MessageToJsonString(message, &line, options);
    if (!status.ok())
    {
        throw InputError(path + ": cannot write as JSON (" + status.ToString() + ")");
    }
    out << line << '\n';
}

} // namespace

uint64_t
WriteEtJsonLines(const std::string& path, std::ostream& out)
{
    EtReader reader(path);
    WriteLine(reader.GetMetadata(), path, out);
    ChakraProtoMsg::Node node;
    uint64_t count = 0;
    while (reader.ReadNode(node))
    {
        WriteLine(node, path, out);
        ++count;
    }
    return count;
}

} // namespace ns3
