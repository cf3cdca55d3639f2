/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
/**
 * \file
 * \ingroup mlfabric-fuzz
 * Fuzzes the HPCC topology reader: the input is a topology file of the HPCC simulator.
 */
#include "fabric-expect.h"
#include "fuzz-input.h"

#include "ns3/hpcc-topology-reader.h"

extern "C" int
LLVMFuzzerInitialize(int*, char***)
{
    ns3::InitializeFuzzer();
    return 0;
}

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string path = ns3::WriteFuzzInput(data, size, "topology.txt");
    ns3::RunReader([&]() { ns3::ExpectValidFabric(ns3::ReadHpccTopology(path)); });
    return 0;
}
