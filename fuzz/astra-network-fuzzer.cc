/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
/**
 * \file
 * \ingroup mlfabric-fuzz
 * Fuzzes the ASTRA-sim network reader: the input is an analytical network .yml file.
 */
#include "fabric-expect.h"
#include "fuzz-input.h"

#include "ns3/astra-network-reader.h"

extern "C" int
LLVMFuzzerInitialize(int*, char***)
{
    ns3::InitializeFuzzer();
    return 0;
}

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string path = ns3::WriteFuzzInput(data, size, "network.yml");
    ns3::RunReader([&]() { ns3::ExpectValidFabric(ns3::ReadAstraNetwork(path)); });
    return 0;
}
