/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_HPCC_CC_MODE_H
#define MLFABRIC_HPCC_CC_MODE_H

#include "ns3/hpcc-config.h"
#include "ns3/hpcc-fidelity.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-compat
 * The congestion control a CC_MODE value selects.
 */
struct HpccCcChoice
{
    uint32_t ccMode{0};   //!< the CC_MODE value
    std::string scheme;   //!< short name in the scheme registry (cc-registry.h)
    std::string peerName; //!< what the HPCC simulator runs, e.g. "DCQCN"; "" for none
    bool exact{true};     //!< false when the scheme is not the one the simulator runs
    std::string warning;  //!< why not, to print loudly; empty when exact
};

/**
 * \ingroup mlfabric-compat
 * Map a CC_MODE of the HPCC simulator to a scheme.
 *
 * 1 (DCQCN) gives dcqcn-hpccns3 in peer fidelity (the simulator's DCQCN: the signal is
 * an ACK flag, cuts are checked on a clock) and dcqcn in faithful fidelity (CNP packets);
 * 3 gives hpcc, 7 timely, 8 dctcp, 10 hpcc-pint. Every other value matches no branch of
 * the simulator, which then
 * runs without congestion control and says nothing; here it runs "none" too, with a
 * warning.
 * \param ccMode the value
 * \param fidelity the fidelity
 * \return the choice
 */
HpccCcChoice MapHpccCcMode(uint32_t ccMode, HpccFidelity fidelity);

/**
 * \ingroup mlfabric-compat
 * \param config the configuration
 * \param scheme the scheme that runs
 * \return true if queue pairs get the simulator's window from CcPeerWindow: HAS_WIN 1
 *         with a scheme that has no window of its own (DCQCN, TIMELY, none); HPCC and
 *         DCTCP keep theirs
 */
bool HpccUsesPeerWindow(const HpccConfig& config, const std::string& scheme);

/**
 * \ingroup mlfabric-compat
 * Make the configuration's parameters the defaults of the chosen scheme (and of the
 * NIC's CNP interval for dcqcn), and the scheme the NICs' congestion control (inside a
 * CcPeerWindow with VAR_WIN when HpccUsesPeerWindow), so that queue pairs opened
 * afterwards use them.
 *
 * dcqcn-hpccns3: EWMA_GAIN, ALPHA_RESUME_INTERVAL, RATE_DECREASE_INTERVAL, RP_TIMER,
 * FAST_RECOVERY_TIMES, RATE_AI, RATE_HAI, MIN_RATE, CLAMP_TARGET_RATE. dcqcn: the same
 * but the decrease interval, which becomes the receiver's CNP interval (at most one cut
 * per interval). hpcc: U_TARGET, MI_THRESH, RATE_AI, FAST_REACT, MIN_RATE. hpcc-pint:
 * the same but FAST_REACT (always on), and PINT_LOG_BASE, PINT_PROB. timely:
 * RATE_AI, RATE_HAI, MIN_RATE and the simulator's fixed constants. dctcp: EWMA_GAIN,
 * DCTCP_RATE_AI, MIN_RATE, and HAS_WIN as its rate window. A key the scheme needs but the file does
 * not give (its built-in value cannot run: RP_TIMER 0, EWMA_GAIN 0, no RATE_AI) and a value outside
 * the scheme's range throw InputError naming the file, line and key.
 * \param config the configuration
 * \param choice the scheme
 */
void ApplyHpccCcParameters(const HpccConfig& config, const HpccCcChoice& choice);

} // namespace ns3

#endif /* MLFABRIC_HPCC_CC_MODE_H */
