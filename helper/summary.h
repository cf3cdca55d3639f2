/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_SUMMARY_H
#define MLFABRIC_SUMMARY_H

#include <nlohmann/json.hpp>

#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * Write a program's figures as JSON (the --summary=FILE convention of every example).
 *
 * Throws InputError naming the file when it cannot be written.
 * \param path file to write; nothing is written when empty
 * \param summary the figures
 */
void WriteSummary(const std::string& path, const nlohmann::json& summary);

} // namespace ns3

#endif /* MLFABRIC_SUMMARY_H */
