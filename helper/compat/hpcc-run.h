/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_HPCC_RUN_H
#define MLFABRIC_HPCC_RUN_H

#include "ns3/failure-schedule.h"
#include "ns3/hpcc-cc-mode.h"
#include "ns3/hpcc-fidelity.h"
#include "ns3/hpcc-flow-driver.h"
#include "ns3/hpcc-slowdown.h"
#include "ns3/invariant-options.h"
#include "ns3/nstime.h"
#include "ns3/path-settings.h"
#include "ns3/process-group.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup mlfabric-helper
 * How to run a configuration of the HPCC ns-3 simulator.
 */
struct HpccRunOptions
{
    std::string configPath;   //!< the simulator's config.txt
    std::string topologyPath; //!< replaces TOPOLOGY_FILE when not empty
    std::string flowPath;     //!< replaces FLOW_FILE when not empty
    std::string outDir;       //!< fct, pfc and qlen files by file name here; empty: config paths
    HpccFidelity fidelity{HpccFidelity::Faithful}; //!< model or peer simplifications
    uint32_t bucketPercent{5};  //!< width of the slowdown size buckets, % of the flows
    double progressSeconds{2};  //!< wall seconds between progress lines; 0: none
    std::ostream* log{nullptr}; //!< warnings and progress lines; nullptr: none
    const std::atomic<bool>* stopFlag{nullptr}; //!< stop the run cleanly when it turns true
    Time invariantPeriod{0}; //!< check the InvariantChecker rules this often; 0 = off
    /** ns-3 attribute defaults ("ns3::Type::Attribute", value) set after the
     *  configuration's, so that they win */
    std::vector<std::pair<std::string, std::string>> attributes;
    std::vector<std::string> failures; //!< --fail values (ParseFailureOptions)
    /** a distributed run's processes; null: one */
    std::shared_ptr<ProcessGroup> processes;
    std::string partitionPath; //!< distributed: the partition file; empty: automatic
};

/**
 * \ingroup mlfabric-helper
 * What a run of an HPCC configuration did.
 */
struct HpccRunResult
{
    std::string topologyPath;                      //!< the topology read
    std::string flowPath;                          //!< the flows read
    std::string fctPath;                           //!< fct.txt written
    std::string pfcPath;                           //!< pfc.txt written
    std::string qlenPath;                          //!< qlen.txt written
    HpccFidelity fidelity{HpccFidelity::Faithful}; //!< the fidelity
    HpccCcChoice cc;                               //!< the congestion control that ran
    std::vector<std::string> warnings;             //!< every warning, as printed
    uint32_t hosts{0};                             //!< hosts of the topology
    uint32_t switches{0};                          //!< switches of the topology
    uint32_t links{0};                             //!< links of the topology
    Time maxRtt;                                   //!< largest base RTT between hosts
    uint64_t maxBdp{0};                            //!< largest BDP between hosts, bytes
    std::vector<HpccFlow> flows;                   //!< the flows
    std::vector<HpccFlowDriver::Setup> setups;     //!< per flow
    std::vector<HpccFlowDriver::Outcome> outcomes; //!< per flow
    uint32_t completed{0};                         //!< flows whose last byte was acknowledged
    uint64_t bytes{0};                             //!< bytes of all flows
    Time lastCompletion;                           //!< when the last flow completed
    HpccSlowdownStats slowdown;                    //!< FCT slowdown of the completed flows
    std::vector<HpccSlowdownBucket> buckets;       //!< FCT slowdown by flow size
    uint64_t pfcPauses{0};                         //!< pauses obeyed by any port
    uint64_t drops{0};                             //!< packets dropped by switch buffers
    uint64_t ecnMarks{0};                          //!< packets marked CE
    uint64_t timeouts{0};                          //!< retransmission timeouts
    uint64_t retransmittedBytes{0};                //!< payload sent more than once
    uint64_t qlenSamples{0};                       //!< queue-length samples taken
    Time simulatedTime;                            //!< when the run ended
    bool interrupted{false};                       //!< stopped by the stop flag
    uint64_t events{0};                            //!< simulator events executed
    double setupSeconds{0};                        //!< wall time to read inputs and build
    double wallSeconds{0};                         //!< wall time of the simulation
    InvariantReport invariants; //!< with an invariant period: what the checks found
    PathSettings paths;         //!< load balancing and transport as installed
    std::string failureHeader;  //!< DescribeFailures; empty without failures
    std::vector<FailureSchedule::Outcome> failures; //!< one per --fail value
    std::string partition;                          //!< distributed: the split, for the header
    std::vector<uint64_t> processEvents;            //!< distributed: events of each process
    std::vector<double> processSeconds;             //!< distributed: run wall time of each process
};

/**
 * \ingroup mlfabric-helper
 * Run a configuration of the HPCC ns-3 simulator with its topology and flow files, and
 * write its fct.txt, pfc.txt and qlen.txt.
 *
 * Reads and checks the inputs (model/compat), maps CC_MODE to a scheme and applies the
 * configuration's parameters (then the options' attributes), builds the network
 * (BuildHpccNetwork), schedules the options' failures (InstallFailures), starts every flow
 * at its time (HpccFlowDriver) and runs until every flow has completed and the
 * queue-length window has closed, or SIMULATOR_STOP_TIME. Warnings (unknown keys,
 * settings not modelled, a CC_MODE that names no scheme) go to the log as
 * "warning: ..." lines before the run. Base RTT, window and standalone FCT follow the
 * simulator: per pair, or the largest of all host pairs with GLOBAL_T 1; in peer
 * fidelity its own formulas (payload serialization only, 48-byte headers), in faithful
 * fidelity the model's (a full packet and its ACK per link, the wire format's
 * per-packet overhead). Leaves the simulator destroyed.
 *
 * With several processes (ns-3's distributed simulator) each builds the whole network,
 * simulates its part of the partition and starts the flows whose source is in it; the
 * run ends when every process has run out of events, and is reported as ending when
 * the last process had its flows done and its queue-length window closed, as one
 * process would stop. Afterwards every process holds the whole run's figures, and the
 * first alone writes the output files. Failures, invariant checks and the progress
 * lines are refused or left out there (they read the whole network at once).
 * \param options the run
 * \return what happened
 * \throws InputError for any bad input, naming the file and line or key
 */
HpccRunResult RunHpcc(const HpccRunOptions& options);

} // namespace ns3

#endif /* MLFABRIC_HPCC_RUN_H */
