/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_DCQCN_ALPHA_MAPPING_H
#define MLFABRIC_DCQCN_ALPHA_MAPPING_H

#include "ns3/nstime.h"

#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-cc
 * The paper DCQCN settings (CcDcqcn and the receiver's RdmaNic::CnpInterval) that
 * reproduce the alpha of the HPCC simulator's slotted DCQCN.
 *
 * That simulator flags every ACK of a marked packet as a CNP and updates alpha at the
 * end of every alpha slot: up by g when the slot saw a flag, down by (1 - g)
 * otherwise; it cuts at most once per decrease slot. In the paper's model the
 * receiver sends at most one CNP per CnpInterval N, each CNP raises alpha by g, and
 * alpha decays by (1 - g) per AlphaInterval K without a CNP. Under persistent
 * marking the CNPs arrive every N plus up to one packet gap, so K must exceed N or
 * alpha decays between every two CNPs (to about 0.5 with K = N, 0.2 with K = N / 4).
 * The mapping: N = the decrease slot (the cadence of cuts), a CNP's gain = the
 * simulator's gains over the alpha slots of one decrease slot, 1 - (1 - g)^(N/slot),
 * and K = N + one alpha slot, so that alpha starts to decay between one and two alpha
 * slots after the last mark, as in the simulator.
 */
struct DcqcnPaperEquivalent
{
    Time cnpInterval;   //!< RdmaNic::CnpInterval N
    Time alphaInterval; //!< CcDcqcn::AlphaInterval K
    double gain{0};     //!< CcDcqcn::Gain per CNP
};

/**
 * \ingroup mlfabric-cc
 * \param alphaSlot the simulator's ALPHA_RESUME_INTERVAL
 * \param decreaseSlot its RATE_DECREASE_INTERVAL
 * \param gain its EWMA_GAIN g
 * \return the paper-model settings with the same alpha under marking (see
 *         DcqcnPaperEquivalent)
 */
DcqcnPaperEquivalent DcqcnPaperEquivalentOf(Time alphaSlot, Time decreaseSlot, double gain);

/**
 * \ingroup mlfabric-cc
 * \param alphaInterval CcDcqcn's K
 * \param cnpInterval the receivers' N
 * \return empty when K > N; otherwise the warning that alpha cannot reach 1 under
 *         persistent marking, with both values
 */
std::string DcqcnAlphaIntervalWarning(Time alphaInterval, Time cnpInterval);

/**
 * \ingroup mlfabric-cc
 * \return DcqcnAlphaIntervalWarning of the attribute defaults now in force
 *         (ns3::CcDcqcn::AlphaInterval, ns3::RdmaNic::CnpInterval)
 */
std::string DcqcnAlphaIntervalWarningForDefaults();

} // namespace ns3

#endif /* MLFABRIC_DCQCN_ALPHA_MAPPING_H */
