/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_HPCC_CONFIG_H
#define MLFABRIC_HPCC_CONFIG_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-compat
 * ECN marking parameters of one link rate, as the KMIN_MAP, KMAX_MAP and PMAX_MAP keys
 * give them.
 */
struct HpccEcnEntry
{
    uint64_t kminKb{0};  //!< KMIN_MAP value, KB of 1000 bytes
    uint64_t kmaxKb{0};  //!< KMAX_MAP value, KB of 1000 bytes
    double pmax{0};      //!< PMAX_MAP value
    bool hasKmin{false}; //!< KMIN_MAP names this rate
    bool hasKmax{false}; //!< KMAX_MAP names this rate
    bool hasPmax{false}; //!< PMAX_MAP names this rate
};

/**
 * \ingroup mlfabric-compat
 * The configuration file of the HPCC ns-3 simulator (its mix/config.txt), every key it
 * reads.
 *
 * The file is one "KEY value..." per line. Members default to the simulator's built-in
 * values for absent keys, in its units: times in microseconds unless named otherwise,
 * rates in bit/s, sizes in bytes, booleans as 0/1. A few built-in values cannot run
 * (RP_TIMER 0, EWMA_GAIN 0, no RATE_AI); Has() tells whether the file gave a key, so
 * that a scheme needing it can refuse its absence.
 */
struct HpccConfig
{
    std::string path; //!< the file it was read from

    // Inputs and outputs, as written in the file
    std::string topologyFile;             //!< TOPOLOGY_FILE
    std::string flowFile;                 //!< FLOW_FILE
    std::string traceFile;                //!< TRACE_FILE (nodes to trace)
    std::string traceOutputFile;          //!< TRACE_OUTPUT_FILE (binary trace)
    std::string fctOutputFile{"fct.txt"}; //!< FCT_OUTPUT_FILE
    std::string pfcOutputFile{"pfc.txt"}; //!< PFC_OUTPUT_FILE
    std::string qlenMonFile{"qlen.txt"};  //!< QLEN_MON_FILE
    uint64_t qlenMonStartNs{2000000000};  //!< QLEN_MON_START, ns
    uint64_t qlenMonEndNs{2100000000};    //!< QLEN_MON_END, ns
    bool enableTrace{true};               //!< ENABLE_TRACE

    // Network
    uint32_t packetPayloadSize{1000};     //!< PACKET_PAYLOAD_SIZE: data payload per packet
    double simulatorStopTime{3.01};       //!< SIMULATOR_STOP_TIME, seconds
    bool enableQcn{true};                 //!< ENABLE_QCN: ECN marking at switches
    bool useDynamicPfcThreshold{true};    //!< USE_DYNAMIC_PFC_THRESHOLD (no effect in the peer)
    uint32_t bufferSizeMiB{16};           //!< BUFFER_SIZE: switch buffer, MiB
    double errorRatePerLink{0};           //!< ERROR_RATE_PER_LINK: loss where the topology has 0
    std::map<uint64_t, HpccEcnEntry> ecn; //!< KMIN_MAP, KMAX_MAP, PMAX_MAP by link rate
    double pauseTime{5};                  //!< PAUSE_TIME, us (fills the PFC header only)
    std::string dataRate;                 //!< DATA_RATE (legacy, unused)
    std::string linkDelay;                //!< LINK_DELAY (legacy, unused)
    uint64_t linkDownTimeUs{0};           //!< LINK_DOWN time after 2 s, us; 0 = none
    uint32_t linkDownA{0};                //!< LINK_DOWN first node
    uint32_t linkDownB{0};                //!< LINK_DOWN second node

    // Transport
    uint32_t l2ChunkSize{0};   //!< L2_CHUNK_SIZE, bytes
    uint32_t l2AckInterval{0}; //!< L2_ACK_INTERVAL, bytes (1: every packet)
    bool l2BackToZero{false};  //!< L2_BACK_TO_ZERO: go back to the chunk start on NACK
    uint32_t ackHighPrio{0};   //!< ACK_HIGH_PRIO
    bool hasWin{true};         //!< HAS_WIN: window on
    bool globalT{true};        //!< GLOBAL_T: every pair uses the largest base RTT and BDP
    bool varWin{false};        //!< VAR_WIN: window scales with the rate
    bool rateBound{true};      //!< RATE_BOUND: pace by the rate

    // Congestion control
    uint32_t ccMode{1};                  //!< CC_MODE
    double alphaResumeInterval{55};      //!< ALPHA_RESUME_INTERVAL, us
    double rateDecreaseInterval{4};      //!< RATE_DECREASE_INTERVAL, us
    bool clampTargetRate{false};         //!< CLAMP_TARGET_RATE
    double rpTimer{0};                   //!< RP_TIMER, us
    double ewmaGain{0};                  //!< EWMA_GAIN
    uint32_t fastRecoveryTimes{5};       //!< FAST_RECOVERY_TIMES
    uint64_t rateAiBps{0};               //!< RATE_AI
    uint64_t rateHaiBps{0};              //!< RATE_HAI
    uint64_t minRateBps{100000000};      //!< MIN_RATE
    uint64_t dctcpRateAiBps{1000000000}; //!< DCTCP_RATE_AI
    bool fastReact{true};                //!< FAST_REACT
    double uTarget{0.95};                //!< U_TARGET
    uint32_t miThresh{5};                //!< MI_THRESH
    uint32_t intMulti{1};                //!< INT_MULTI
    bool multiRate{true};                //!< MULTI_RATE
    bool sampleFeedback{false};          //!< SAMPLE_FEEDBACK
    double pintLogBase{1.05};            //!< PINT_LOG_BASE
    double pintProb{1.0};                //!< PINT_PROB

    std::map<std::string, uint32_t> lines; //!< key -> line it was read from
    std::vector<std::string> warnings;     //!< unknown or repeated keys, "file:line: ..."

    /** \param key a key \return true if the file gave it */
    bool Has(const std::string& key) const;
    /**
     * \param key a key
     * \return "file:line" of the key, or "file" when the file did not give it
     */
    std::string Where(const std::string& key) const;
};

/**
 * \ingroup mlfabric-compat
 * \return the keys the HPCC ns-3 simulator reads, in the order of its documentation
 */
const std::vector<std::string>& HpccConfigKeys();

/**
 * \ingroup mlfabric-compat
 * Read a configuration file of the HPCC ns-3 simulator.
 *
 * Every value is checked: a malformed value, a value out of range or a wrong number of
 * values throws InputError naming the file, the line and the key. Unknown keys and
 * keys given twice (the later wins) are warnings, kept in HpccConfig::warnings and not
 * printed. Blank lines and lines starting with '#' are skipped.
 * \param path the file
 * \return the configuration
 */
HpccConfig ReadHpccConfig(const std::string& path);

} // namespace ns3

#endif /* MLFABRIC_HPCC_CONFIG_H */
