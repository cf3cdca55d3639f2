/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "transformer-config.h"

#include "ns3/input-error.h"
#include "ns3/log.h"

#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TransformerConfig");

namespace
{

/** \throws InputError "--name: must be at least 1 (got 0)" when value is 0 */
void
RequirePositive(const std::string& name, uint64_t value)
{
    if (value == 0)
    {
        throw InputError("--" + name + ": must be at least 1 (got 0)");
    }
}

/** \throws InputError "--divisor (d) must divide --dividend (n)" unless it does */
void
RequireDivides(const std::string& divisor, uint64_t d, const std::string& dividend, uint64_t n)
{
    if (n % d != 0)
    {
        throw InputError("--" + divisor + " (" + std::to_string(d) + ") must divide --" + dividend +
                         " (" + std::to_string(n) + ")");
    }
}

/** \throws InputError "--name: must be at most max (got value)" when value > max */
void
RequireAtMost(const std::string& name, uint64_t value, uint64_t max)
{
    if (value > max)
    {
        throw InputError("--" + name + ": must be at most " + std::to_string(max) + " (got " +
                         std::to_string(value) + ")");
    }
}

} // namespace

DpSharding
ParseDpSharding(const std::string& text)
{
    if (text == "none")
    {
        return DpSharding::NONE;
    }
    if (text == "zero")
    {
        return DpSharding::ZERO;
    }
    if (text == "fsdp")
    {
        return DpSharding::FSDP;
    }
    throw InputError("--sharding: unknown scheme '" + text + "' (use none, zero or fsdp)");
}

std::string
ToString(DpSharding sharding)
{
    switch (sharding)
    {
    case DpSharding::ZERO:
        return "zero";
    case DpSharding::FSDP:
        return "fsdp";
    default:
        return "none";
    }
}

Recompute
ParseRecompute(const std::string& text)
{
    if (text == "none")
    {
        return Recompute::NONE;
    }
    if (text == "selective")
    {
        return Recompute::SELECTIVE;
    }
    if (text == "full")
    {
        return Recompute::FULL;
    }
    throw InputError("--recompute: unknown recomputation '" + text +
                     "' (use none, selective or full)");
}

std::string
ToString(Recompute recompute)
{
    switch (recompute)
    {
    case Recompute::SELECTIVE:
        return "selective";
    case Recompute::FULL:
        return "full";
    default:
        return "none";
    }
}

OffloadOverlap
ParseOffloadOverlap(const std::string& text)
{
    if (text == "serial")
    {
        return OffloadOverlap::SERIAL;
    }
    if (text == "prefetch")
    {
        return OffloadOverlap::PREFETCH;
    }
    throw InputError("--offload-overlap: unknown overlap '" + text + "' (use serial or prefetch)");
}

std::string
ToString(OffloadOverlap overlap)
{
    return overlap == OffloadOverlap::PREFETCH ? "prefetch" : "serial";
}

void
TransformerConfig::Validate() const
{
    for (const auto& [name, value] :
         std::initializer_list<std::pair<const char*, uint64_t>>{{"npus", npus},
                                                                 {"tp", tp},
                                                                 {"pp", pp},
                                                                 {"dp", dp},
                                                                 {"ep", ep},
                                                                 {"layers", layers},
                                                                 {"hidden", hidden},
                                                                 {"heads", heads},
                                                                 {"seq", seq},
                                                                 {"micro-batch", microBatch},
                                                                 {"global-batch", globalBatch},
                                                                 {"vocab", vocab},
                                                                 {"precision", precision},
                                                                 {"bucket-size", bucketBytes},
                                                                 {"iterations", iterations}})
    {
        RequirePositive(name, value);
    }
    // Bounds that keep every FLOP and byte count of a node well inside 64 bits.
    RequireAtMost("hidden", hidden, 1 << 16);
    RequireAtMost("ffn", FfnSize(), 1 << 18);
    RequireAtMost("seq", seq, 1 << 20);
    RequireAtMost("micro-batch", microBatch, (1 << 20) / seq);
    RequireAtMost("vocab", vocab, 1 << 21);
    RequireAtMost("experts", experts, 1 << 12);
    RequireAtMost("top-k", topK, 16);
    RequireAtMost("layers", layers, 1 << 16);
    if (uint64_t{tp} * pp * dp != npus)
    {
        throw InputError("--tp × --pp × --dp (" + std::to_string(tp) + " × " + std::to_string(pp) +
                         " × " + std::to_string(dp) + " = " +
                         std::to_string(uint64_t{tp} * pp * dp) + ") must equal --npus (" +
                         std::to_string(npus) + ")");
    }
    RequireDivides("pp", pp, "layers", layers);
    RequireDivides("heads", heads, "hidden", hidden);
    RequireDivides("tp", tp, "heads", heads);
    RequireDivides("tp", tp, "ffn", FfnSize());
    RequireDivides("tp", tp, "vocab", vocab);
    if (sequenceParallel)
    {
        RequireDivides("tp", tp, "seq", seq);
    }
    if (globalBatch % (microBatch * dp) != 0)
    {
        throw InputError("--global-batch (" + std::to_string(globalBatch) +
                         ") must be a multiple of --micro-batch × --dp (" +
                         std::to_string(microBatch * dp) + ")");
    }
    if (globalBatch / (microBatch * dp) > std::numeric_limits<uint32_t>::max() / 2)
    {
        throw InputError("--global-batch: too many micro-batches");
    }
    if (experts == 0 && ep > 1)
    {
        throw InputError(
            "--ep: expert parallelism needs --experts > 0 (got ep=" + std::to_string(ep) + ")");
    }
    RequireDivides("ep", ep, "dp", dp);
    if (experts > 0)
    {
        RequireDivides("ep", ep, "experts", experts);
        if (topK == 0 || topK > experts)
        {
            throw InputError("--top-k: must be in [1, --experts = " + std::to_string(experts) +
                             "] (got " + std::to_string(topK) + ")");
        }
        if (sharding == DpSharding::FSDP)
        {
            throw InputError("--sharding: fsdp is not supported with --experts");
        }
    }
    if (memoryExpansion && hbmBytes == 0)
    {
        throw InputError("--memory-expansion: needs --hbm, the capacity that decides what is "
                         "offloaded");
    }
    if (offloadOverlap == OffloadOverlap::PREFETCH && !memoryExpansion)
    {
        throw InputError("--offload-overlap: prefetch needs --memory-expansion (without it "
                         "nothing is offloaded)");
    }
    device.Validate();
}

uint64_t
TransformerConfig::FfnSize() const
{
    return ffn == 0 ? 4 * hidden : ffn;
}

uint32_t
TransformerConfig::MicroBatches() const
{
    return static_cast<uint32_t>(globalBatch / (microBatch * dp));
}

uint32_t
TransformerConfig::LayersPerStage() const
{
    return layers / pp;
}

} // namespace ns3
