/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_UNITS_H
#define MLFABRIC_UNITS_H

#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

/** \name Unit parsing used by ExampleCli and the file readers
 * Each throws InputError with \p what as context when the text is malformed.
 * @{
 */
/**
 * \ingroup mlfabric-util
 * \param text a size such as "4096", "4KiB", "4MiB", "1GiB", "1KB" (10^3), "1MB", "1GB"
 * \param what where the text came from, for the message
 * \return the bytes
 */
uint64_t ParseBytes(const std::string& text, const std::string& what);
/**
 * \ingroup mlfabric-util
 * \param text a rate such as "100Gbps", "100Gb/s", "100G", "400Mbps", "1e9"
 * \param what where the text came from, for the message
 * \return the rate, bit/s
 */
uint64_t ParseRateBps(const std::string& text, const std::string& what);
/**
 * \ingroup mlfabric-util
 * \param text a duration such as "1us", "500ns", "2ms", "1s", "10ps"
 * \param what where the text came from, for the message
 * \return the duration
 */
Time ParseTime(const std::string& text, const std::string& what);
/** @} */

} // namespace ns3

#endif /* MLFABRIC_UNITS_H */
