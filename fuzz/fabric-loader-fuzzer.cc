/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
/**
 * \file
 * \ingroup mlfabric-fuzz
 * Fuzzes the fabric loader: the input is a fabric file of any format it recognises,
 * mostly mlfabric's YAML.
 */
#include "fabric-expect.h"
#include "fuzz-input.h"

#include "ns3/fabric-loader.h"

extern "C" int
LLVMFuzzerInitialize(int*, char***)
{
    ns3::InitializeFuzzer();
    return 0;
}

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string path = ns3::WriteFuzzInput(data, size, "fabric.yaml");
    ns3::RunReader([&]() { ns3::ExpectValidFabric(ns3::LoadFabric(path).fabric); });
    return 0;
}
