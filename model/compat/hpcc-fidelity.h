/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_HPCC_FIDELITY_H
#define MLFABRIC_HPCC_FIDELITY_H

#include "ns3/nstime.h"

#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-compat
 * How closely a run of the HPCC simulator's inputs follows that simulator.
 */
enum class HpccFidelity
{
    Faithful, //!< mlfabric's own model with the configuration's parameters
    Peer,     //!< the simulator's simplifications, for like-for-like comparisons
};

/**
 * \ingroup mlfabric-compat
 * \param text "faithful" or "peer"
 * \param what where the text came from, for the message
 * \return the fidelity
 * \throws InputError "<what>: ..." for any other text
 */
HpccFidelity ParseHpccFidelity(const std::string& text, const std::string& what);

/**
 * \ingroup mlfabric-compat
 * \param fidelity a fidelity
 * \return its name, as ParseHpccFidelity() reads it
 */
std::string HpccFidelityName(HpccFidelity fidelity);

/**
 * \ingroup mlfabric-compat
 * Set, with Config::SetDefault and the wire format, what a fidelity changes in the data
 * plane. Call before any node is created.
 *
 * Peer: the simulator's packet sizes (wire::Format::HpccPeer: 48-byte data header,
 * 42-byte INT, 60-byte control frames, no preamble, FCS or gap); pauses that last until
 * an explicit resume; ACKs and NACKs in the data's traffic class (its switches queue
 * them with the data); a NACK repeated for the same gap after 500 us; 4 KiB reserved per
 * ingress queue; and no retransmission timeout before \p stopTime (the simulator has
 * none). Faithful: RoCEv2 sizes and mlfabric's defaults.
 *
 * \param fidelity the fidelity
 * \param dataPriority traffic class of the data (the simulator's pg)
 * \param stopTime when the run stops
 */
void ApplyHpccFidelity(HpccFidelity fidelity, uint8_t dataPriority, Time stopTime);

} // namespace ns3

#endif /* MLFABRIC_HPCC_FIDELITY_H */
