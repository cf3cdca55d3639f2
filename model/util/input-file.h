/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_INPUT_FILE_H
#define MLFABRIC_INPUT_FILE_H

#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-util
 * Check that \p path is an input a reader can open: it exists, is a regular file (or
 * a device or pipe, which cannot be probed further), can be read and is not empty.
 *
 * Every reader and every path option of the programs goes through this check before
 * it opens a file, so that a directory or an unreadable file ends in one message
 * instead of a stream exception deep inside a parser.
 *
 * \param path the file
 * \param what prefix of the message, e.g. "--fabric"; empty for none
 * \throws InputError "<what>: <path>: <problem>" (no such file, is a directory, cannot
 *         be read, is empty)
 */
void CheckInputFile(const std::string& path, const std::string& what = "");

} // namespace ns3

#endif /* MLFABRIC_INPUT_FILE_H */
