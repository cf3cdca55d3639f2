/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_INPUT_ERROR_H
#define MLFABRIC_INPUT_ERROR_H

#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-util
 * Bad user input: a file, a configuration key or a command-line argument.
 *
 * The message names where the problem is (file and line, node, key or argument) and
 * what is wrong, in one line. Programs catch it at the top, print
 * "error: <message>" and exit with status 2 (see RunMain in "ns3/example-cli.h").
 */
class InputError : public std::runtime_error
{
  public:
    /** \param message where and what, e.g. "fabric.yaml:12: bandwidth must be > 0" */
    explicit InputError(const std::string& message)
        : std::runtime_error(message)
    {
    }
};

} // namespace ns3

#endif /* MLFABRIC_INPUT_ERROR_H */
