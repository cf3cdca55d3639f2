/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_TIME_RESOLUTION_H
#define MLFABRIC_TIME_RESOLUTION_H

#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-util
 * Refuse to model a network when the simulator's time resolution is coarser than
 * picoseconds.
 *
 * At 400 Gb/s a byte takes 20 ps; ns-3's default nanosecond resolution rounds every
 * serialization time and changes results without a word. Every mlfabric port calls this
 * when it is created, so a program that forgot `Time::SetResolution(Time::PS)` stops with
 * one clear error instead.
 * \param who what is being built, for the message (e.g. "RocePort")
 * \throws InputError naming the resolution in force and the call that fixes it
 */
void RequirePicosecondResolution(const std::string& who);

} // namespace ns3

#endif /* MLFABRIC_TIME_RESOLUTION_H */
