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

/**
 * \ingroup mlfabric-util
 * \name The unit grammar of mlfabric's inputs (doc/units.md)
 *
 * One grammar for the command line, fabric YAML, the ECN threshold map, unit-carrying
 * JSON strings and ns-3 attribute values given on the command line. A value is a
 * non-negative decimal number (optionally with a fraction and an exponent, e.g. 2.5,
 * 1e3) followed directly by a unit. Units are case-sensitive where case carries
 * meaning, as in ns-3's DataRate: b is a bit, B a byte. A number without a unit is an
 * error, as is a value that overflows, is negative, or is not a whole number of the
 * base unit (byte, bit/s, picosecond). Each function throws InputError whose message
 * starts with \p what (the file:line and key, or the option).
 * @{
 */

/**
 * \param text e.g. "4096B", "64KiB", "1.5MB"
 * \param what context for messages, e.g. "fabric.yaml:12: links.buffer"
 * \return bytes; B, kB/KB (1000), MB, GB, TB, KiB (1024), MiB, GiB, TiB
 */
uint64_t ParseBytes(const std::string& text, const std::string& what);

/**
 * \param text e.g. "100Gbps", "100Gb/s", "12.5GBps"
 * \param what context for messages
 * \param allowZero accept "0bps" (ns-3 attributes use a zero rate for "not set")
 * \return bit/s. Bits: bps, kbps/Kbps, Mbps, Gbps, Tbps (also b/s, kb/s, ...). Bytes per
 * second: Bps, kBps/KBps, MBps, GBps, TBps (also B/s, ...). Binary: Kib/s, KiB/s, Mib/s,
 * MiB/s, Gib/s, GiB/s, Tib/s, TiB/s. The T forms are mlfabric's; ns-3's DataRate has
 * all the others.
 */
uint64_t ParseRateBps(const std::string& text, const std::string& what, bool allowZero = false);

/**
 * \param text e.g. "1us", "500ns", "0.001ms"
 * \param what context for messages
 * \return the duration; units s, ms, us, ns, ps, min, h (whole picoseconds)
 */
Time ParseTime(const std::string& text, const std::string& what);

/**
 * A rate written as an ns-3 DataRate string, for file formats that define their values
 * that way (the HPCC simulator's config and topology files): exactly DataRate's units
 * (no T forms), and a bare number is bit/s as DataRate reads it. Fractions of a bit/s,
 * which DataRate truncates, are rejected.
 * \param text e.g. "100Gbps", "50Mb/s", "25000000000"
 * \param what context for messages
 * \return bit/s, at least 1
 */
uint64_t ParseNs3DataRate(const std::string& text, const std::string& what);

/**
 * A duration written as an ns-3 Time string, for file formats that define their values
 * that way: units s, ms, us, ns, ps, fs, min, h, d, y, and a bare number is seconds as
 * ns-3's Time reads it. The result must be a whole number of picoseconds.
 * \param text e.g. "1000ns", "0.001ms"
 * \param what context for messages
 * \return the duration
 */
Time ParseNs3Time(const std::string& text, const std::string& what);

/**
 * \param bps a rate in bit/s
 * \return it in the largest of Tbps, Gbps, Mbps, Kbps, bps that shows it exactly,
 * e.g. "100Gbps"; ParseRateBps reads it back
 */
std::string FormatRate(uint64_t bps);

/**
 * \param t a duration
 * \return it in the largest of s, ms, us, ns, ps that shows it exactly, e.g. "1s",
 * "2500ns"; ParseTime reads it back
 */
std::string FormatTime(Time t);

/**
 * An ns-3 attribute value given by a user, in ns-3's own syntax: rates (DataRateValue) and
 * times (TimeValue) are read with this grammar, so that "100" or "100GBps" mean what they
 * mean everywhere else, and handed on exactly ("100000000000bps", "1000000ps"); other
 * values pass through unchanged for the attribute's checker.
 * \param valueTypeName the checker's GetValueTypeName(), e.g. "DataRateValue", "ns3::TimeValue"
 * \param text the value
 * \param what context for messages
 * \return the text to give ns-3
 */
std::string UnitsToNs3String(const std::string& valueTypeName,
                             const std::string& text,
                             const std::string& what);

/** @} */

} // namespace ns3

#endif /* MLFABRIC_UNITS_H */
