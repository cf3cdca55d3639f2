/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "hpcc-unmodelled.h"

namespace ns3
{

std::vector<std::string>
HpccUnmodelledSettings(const HpccConfig& c, const std::string& scheme)
{
    std::vector<std::string> w;
    auto note = [&c, &w](const std::string& key, const std::string& text)
    {
        w.push_back(c.Where(key) + ": " + key + " " + text);
    };
    if (c.l2BackToZero)
    {
        note("L2_BACK_TO_ZERO",
             "1: going back to the chunk start is not modelled; a NACK "
             "resends from the receiver's expected byte (go-back-N)");
    }
    if (c.l2ChunkSize > 0 && c.l2AckInterval > c.packetPayloadSize)
    {
        note("L2_CHUNK_SIZE",
             std::to_string(c.l2ChunkSize) +
                 ": ACKs at chunk boundaries are not modelled; ACKs follow "
                 "L2_ACK_INTERVAL only");
    }
    if (!c.rateBound)
    {
        note("RATE_BOUND",
             "0: sending by window alone is not modelled; queue pairs are paced "
             "at their rate");
    }
    if (c.linkDownTimeUs > 0)
    {
        note("LINK_DOWN",
             std::to_string(c.linkDownTimeUs) + " " + std::to_string(c.linkDownA) + " " +
                 std::to_string(c.linkDownB) + ": link failure is not modelled; the link stays up");
    }
    if (c.enableTrace && c.Has("ENABLE_TRACE"))
    {
        note("ENABLE_TRACE", "1: the binary packet trace (TRACE_OUTPUT_FILE) is not written");
    }
    if (scheme == "hpcc")
    {
        if (c.multiRate)
        {
            note("MULTI_RATE",
                 "1: a rate per hop is not modelled; HPCC reacts to the most "
                 "utilised hop (MULTI_RATE 0)");
        }
        if (c.sampleFeedback)
        {
            note("SAMPLE_FEEDBACK", "1: not modelled; every ACK's INT is used");
        }
        if (!c.hasWin)
        {
            note("HAS_WIN", "0: HPCC here always keeps its window (HAS_WIN 1, VAR_WIN 1)");
        }
        else if (!c.varWin)
        {
            note("VAR_WIN", "0: HPCC here scales its window with its rate (VAR_WIN 1)");
        }
    }
    if (scheme == "dctcp" && c.hasWin && !c.varWin)
    {
        note("VAR_WIN", "0: DCTCP's window follows its rate here (VAR_WIN 1)");
    }
    return w;
}

} // namespace ns3
