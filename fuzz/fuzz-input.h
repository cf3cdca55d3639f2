/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MLFABRIC_FUZZ_INPUT_H
#define MLFABRIC_FUZZ_INPUT_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace ns3
{

/**
 * \ingroup mlfabric-fuzz
 * Prepare the process for a fuzzer: picosecond time resolution, as the programs use,
 * and a private folder for the input files. Call once, from LLVMFuzzerInitialize.
 */
void InitializeFuzzer();

/**
 * \ingroup mlfabric-fuzz
 * Write a fuzzer input to a file of the private folder, for readers that take a path.
 * \param data the bytes
 * \param size their number
 * \param name the file name, which error messages will show
 * \return the file's path
 */
std::string WriteFuzzInput(const uint8_t* data, size_t size, const std::string& name);

/**
 * \ingroup mlfabric-fuzz
 * Run a reader on one input. InputError is the expected outcome of bad input and is
 * swallowed; its message must be one non-empty line. Any other exception is a defect:
 * it is printed with its type and the process aborts, so that libFuzzer keeps the input.
 * With MLFABRIC_FUZZ_SHOW_ERRORS=1 in the environment, every InputError is printed.
 * \param read the reader call
 */
void RunReader(const std::function<void()>& read);

/**
 * \ingroup mlfabric-fuzz
 * Abort with a message when a reader returned a result that breaks its contract.
 * \param holds the condition the result must meet
 * \param what the condition, for the report
 */
void Expect(bool holds, const char* what);

} // namespace ns3

#endif /* MLFABRIC_FUZZ_INPUT_H */
