/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The switch's reduction engine on a star of members, each joined to it by one link up
// and one down of a fixed rate and delay: closed-form completion times with a buffer
// that holds every chunk and with one that holds a few (the window's throughput limit,
// outstanding chunks x chunk / round trip), the reduction rate and latency, the buffer's
// bound, conservation of bytes, buffer sharing between reductions, and the refusals; and
// the layout of a reduce-scatter's and an all-gather's shards over their chunks.
#include "ns3/input-error.h"
#include "ns3/reduction-engine.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t kRateBps = 100000000000ULL; // 100 Gb/s links
constexpr int64_t kDelayPs = 500000;           // 500 ns one way
constexpr uint32_t kChunk = 4096;

/** Serialization of \p bytes at the links' rate, whole ps (exact for these figures). */
int64_t
TxPs(uint64_t bytes)
{
    return static_cast<int64_t>(bytes * 8 * 1000000000000ULL / kRateBps);
}

/**
 * Members joined to one engine, each by a link up and a link down that serialize one
 * chunk at a time in order. Grants travel down in the link's delay (credit tokens that
 * take no serialization); the last copy of a result to leave frees its chunk.
 */
class Star
{
  public:
    Star(Ptr<ReductionEngine> engine, uint32_t members)
        : m_engine(engine)
        , m_members(members)
    {
        engine->SetCallbacks(
            [this](uint64_t id, uint32_t m, uint64_t limit)
            {
                Simulator::Schedule(PicoSeconds(kDelayPs),
                                    [this, id, m, limit]()
                                    {
                                        auto& s = m_senders[{id, m}];
                                        s.limit = std::max(s.limit, limit);
                                        TrySend(id, m);
                                    });
            },
            [this](uint64_t id, uint64_t chunk, uint32_t bytes) { Multicast(id, chunk, bytes); });
    }

    /** Open reduction \p id of \p bytes; member m starts sending at starts[m]. */
    void
    Start(uint64_t id, uint64_t bytes, const std::vector<int64_t>& startsPs)
    {
        for (uint32_t m = 0; m < m_members; ++m)
        {
            auto& s = m_senders[{id, m}];
            s.bytes = bytes;
            s.readyPs = startsPs.empty() ? 0 : startsPs[m];
            Simulator::Schedule(PicoSeconds(s.readyPs), [this, id, m]() { TrySend(id, m); });
        }
        m_engine->Open({id, m_members, bytes, kChunk});
    }

    /** Per reduction and member: result bytes received, chunks received twice. */
    struct Received
    {
        uint64_t bytes{0};
        uint64_t chunks{0};
        uint64_t duplicates{0};
        int64_t lastPs{0};
        std::vector<bool> seen;
    };

    std::map<std::pair<uint64_t, uint32_t>, Received> received;

  private:
    struct Sender
    {
        uint64_t bytes{0};
        uint64_t next{0};
        uint64_t limit{0};
        int64_t readyPs{0};
        int64_t upFreePs{0};
        bool busy{false};
    };

    void
    TrySend(uint64_t id, uint32_t m)
    {
        auto& s = m_senders[{id, m}];
        const uint64_t chunks = (s.bytes + kChunk - 1) / kChunk;
        const int64_t now = Simulator::Now().GetPicoSeconds();
        if (s.busy || s.next >= std::min(s.limit, chunks) || now < s.readyPs)
        {
            return;
        }
        const uint64_t chunk = s.next++;
        const uint64_t size = std::min<uint64_t>(kChunk, s.bytes - chunk * kChunk);
        s.busy = true;
        Simulator::Schedule(PicoSeconds(TxPs(size)),
                            [this, id, m]()
                            {
                                m_senders[{id, m}].busy = false;
                                TrySend(id, m);
                            });
        Simulator::Schedule(PicoSeconds(TxPs(size) + kDelayPs),
                            [this, id, m, chunk]() { m_engine->Contribute(id, m, chunk); });
    }

    void
    Multicast(uint64_t id, uint64_t chunk, uint32_t bytes)
    {
        const int64_t now = Simulator::Now().GetPicoSeconds();
        int64_t lastLeft = 0;
        for (uint32_t m = 0; m < m_members; ++m)
        {
            int64_t& free = m_downFreePs[m];
            const int64_t left = std::max(free, now) + TxPs(bytes);
            free = left;
            lastLeft = std::max(lastLeft, left);
            Simulator::Schedule(PicoSeconds(left + kDelayPs - now),
                                [this, id, m, chunk, bytes]()
                                {
                                    auto& r = received[{id, m}];
                                    if (r.seen.size() <= chunk)
                                    {
                                        r.seen.resize(chunk + 1, false);
                                    }
                                    r.duplicates += r.seen[chunk] ? 1 : 0;
                                    r.seen[chunk] = true;
                                    r.bytes += bytes;
                                    ++r.chunks;
                                    r.lastPs = Simulator::Now().GetPicoSeconds();
                                });
        }
        Simulator::Schedule(PicoSeconds(lastLeft - now),
                            [this, id, chunk]() { m_engine->Delivered(id, chunk); });
    }

    Ptr<ReductionEngine> m_engine;
    uint32_t m_members;
    std::map<std::pair<uint64_t, uint32_t>, Sender> m_senders;
    std::map<uint32_t, int64_t> m_downFreePs;
};

Ptr<ReductionEngine>
MakeEngine(uint64_t bufferBytes, DataRate rate = DataRate(0), Time latency = Time(0))
{
    Ptr<ReductionEngine> e = CreateObject<ReductionEngine>();
    e->SetAttribute("BufferBytes", UintegerValue(bufferBytes));
    e->SetAttribute("ReductionRate", DataRateValue(rate));
    e->SetAttribute("Latency", TimeValue(latency));
    return e;
}

/** Every member got every chunk once and the whole result. */
void
ExpectConserved(const Star& star, uint64_t id, uint32_t members, uint64_t bytes)
{
    const uint64_t chunks = (bytes + kChunk - 1) / kChunk;
    for (uint32_t m = 0; m < members; ++m)
    {
        const auto& r = star.received.at({id, m});
        EXPECT_EQ(r.bytes, bytes) << "member " << m;
        EXPECT_EQ(r.chunks, chunks) << "member " << m;
        EXPECT_EQ(r.duplicates, 0u) << "member " << m;
        EXPECT_EQ(std::count(r.seen.begin(), r.seen.end(), true), static_cast<long>(chunks));
    }
}

/** Every value of the HeldBytes trace. */
struct HeldLog
{
    std::vector<uint64_t> bytes;

    void
    Add(uint64_t b)
    {
        bytes.push_back(b);
    }
};

class ReductionEngineTest : public ::testing::Test
{
  protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
    }
};

// A buffer that holds every chunk: the members' links stream, the result follows one
// chunk behind, (C + 1) chunk times + 2 delays + the engine's latency.
TEST_F(ReductionEngineTest, UnboundedWindowStreamsAtLineRate)
{
    const uint32_t n = 8;
    const uint64_t chunks = 256;
    const Time latency = NanoSeconds(200);
    Ptr<ReductionEngine> engine = MakeEngine(chunks * kChunk, DataRate(0), latency);
    Star star(engine, n);
    star.Start(1, chunks * kChunk, {});
    Simulator::Run();
    const int64_t expected = (chunks + 1) * TxPs(kChunk) + 2 * kDelayPs + latency.GetPicoSeconds();
    // The first grant reaches the members one delay after the opening.
    for (uint32_t m = 0; m < n; ++m)
    {
        EXPECT_EQ(star.received.at({1, m}).lastPs, expected + kDelayPs) << "member " << m;
    }
    ExpectConserved(star, 1, n, chunks * kChunk);
    // A chunk is held from its arrival to its result's leaving, latency + one chunk time:
    // two chunks at once.
    EXPECT_EQ(engine->GetPeakHeldBytes(), 2 * kChunk);
    EXPECT_EQ(engine->GetHeldBytes(), 0u);
    EXPECT_EQ(engine->GetReducedChunks(), chunks);
    EXPECT_EQ(engine->GetOpenCount(), 0u);
}

// A buffer of W chunks: each slot turns over once per round trip (chunk up, latency,
// result down, grant back), so chunk j starts at floor(j / W) x RTT + (j mod W) x chunk
// time and the throughput is W x chunk / RTT.
TEST_F(ReductionEngineTest, SmallBufferLimitsThroughputToWindowOverRoundTrip)
{
    const uint32_t n = 4;
    const uint64_t window = 3;
    const uint64_t chunks = 300;
    const Time latency = NanoSeconds(100);
    Ptr<ReductionEngine> engine = MakeEngine(window * kChunk, DataRate(0), latency);
    Star star(engine, n);
    star.Start(7, chunks * kChunk, {});
    EXPECT_EQ(engine->GetWindow(7), window);
    Simulator::Run();
    const int64_t rtt = 2 * TxPs(kChunk) + 2 * kDelayPs + latency.GetPicoSeconds();
    ASSERT_LE(static_cast<int64_t>(window) * TxPs(kChunk), rtt); // window-limited regime
    const uint64_t last = chunks - 1;
    const int64_t lastStart = kDelayPs + static_cast<int64_t>(last / window) * rtt +
                              static_cast<int64_t>(last % window) * TxPs(kChunk);
    const int64_t expected = lastStart + rtt;
    for (uint32_t m = 0; m < n; ++m)
    {
        EXPECT_EQ(star.received.at({7, m}).lastPs, expected) << "member " << m;
    }
    ExpectConserved(star, 7, n, chunks * kChunk);
    // Credits cover chunks on the wire too: the switch holds only those that have arrived.
    EXPECT_EQ(engine->GetPeakHeldBytes(), 2 * kChunk);
    // Throughput over the run, against the closed form W x chunk / RTT.
    const double goodput = static_cast<double>(chunks * kChunk) / (expected - kDelayPs);
    const double limit = static_cast<double>(window * kChunk) / rtt;
    EXPECT_NEAR(goodput / limit, 1.0, 0.01);
    EXPECT_LT(limit, static_cast<double>(kChunk) / TxPs(kChunk)); // below line rate
}

// A reduction rate below the links': chunks complete one chunk time apart but the adder
// takes longer, so the last result is ready C reductions after the first chunk is in.
TEST_F(ReductionEngineTest, ReductionRateBelowLinkRateBoundsTheResult)
{
    const uint32_t n = 4;
    const uint64_t chunks = 64;
    const DataRate rate("50Gbps");
    Ptr<ReductionEngine> engine = MakeEngine(chunks * kChunk, rate);
    Star star(engine, n);
    star.Start(3, chunks * kChunk, {});
    Simulator::Run();
    const int64_t reducePs = rate.CalculateBytesTxTime(kChunk).GetPicoSeconds();
    const int64_t expected =
        kDelayPs + TxPs(kChunk) + kDelayPs + chunks * reducePs + TxPs(kChunk) + kDelayPs;
    for (uint32_t m = 0; m < n; ++m)
    {
        EXPECT_NEAR(star.received.at({3, m}).lastPs, expected, chunks) << "member " << m;
    }
    ExpectConserved(star, 3, n, chunks * kChunk);
}

// Members that start apart: the slowest member paces the reduction, nobody's chunks
// overrun the buffer, and a last short chunk carries the remainder exactly.
TEST_F(ReductionEngineTest, SkewedMembersStayWithinTheBuffer)
{
    const uint32_t n = 5;
    const uint64_t bytes = 100 * kChunk + 123;
    Ptr<ReductionEngine> engine = MakeEngine(4 * kChunk + 100);
    HeldLog log;
    engine->TraceConnectWithoutContext("HeldBytes", MakeCallback(&HeldLog::Add, &log));
    const std::vector<uint64_t>& held = log.bytes;
    Star star(engine, n);
    star.Start(9, bytes, {0, 3000000, 700000, 12000000, 50000});
    Simulator::Run();
    ExpectConserved(star, 9, n, bytes);
    EXPECT_EQ(engine->GetWindow(9), 0u); // closed
    ASSERT_FALSE(held.empty());
    EXPECT_LE(*std::max_element(held.begin(), held.end()), 4 * kChunk);
    EXPECT_EQ(engine->GetPeakHeldBytes(), 4 * kChunk);
    EXPECT_EQ(held.back(), 0u);
    // The latest starter sends its last chunk no sooner than its own stream allows.
    const int64_t slowest = 12000000 + 101 * TxPs(kChunk);
    for (uint32_t m = 0; m < n; ++m)
    {
        EXPECT_GT(star.received.at({9, m}).lastPs, slowest);
    }
}

// Two reductions share the buffer: the first takes it all, the second waits for it to
// close and then runs with a window of its own.
TEST_F(ReductionEngineTest, ReductionsWaitForBufferInOrder)
{
    const uint32_t n = 3;
    Ptr<ReductionEngine> engine = MakeEngine(8 * kChunk);
    Star star(engine, n);
    star.Start(1, 40 * kChunk, {});
    star.Start(2, 10 * kChunk, {});
    EXPECT_EQ(engine->GetWindow(1), 8u);
    EXPECT_EQ(engine->GetWindow(2), 0u);
    EXPECT_EQ(engine->GetOpenCount(), 2u);
    Simulator::Run();
    ExpectConserved(star, 1, n, 40 * kChunk);
    ExpectConserved(star, 2, n, 10 * kChunk);
    EXPECT_LE(engine->GetPeakHeldBytes(), 8 * kChunk);
    EXPECT_GT(star.received.at({2, 0}).lastPs, star.received.at({1, 0}).lastPs);
    EXPECT_EQ(engine->GetOpenCount(), 0u);
}

TEST_F(ReductionEngineTest, RefusesBuffersThatHoldNoChunk)
{
    Ptr<ReductionEngine> zero = MakeEngine(0);
    zero->SetNodeId(12);
    try
    {
        zero->Open({1, 4, 1000, kChunk});
        FAIL() << "a zero buffer was accepted";
    }
    catch (const InputError& e)
    {
        EXPECT_NE(std::string(e.what()).find("switch 12"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("BufferBytes"), std::string::npos) << e.what();
    }
    Ptr<ReductionEngine> small = MakeEngine(kChunk - 1);
    EXPECT_THROW(small->Open({1, 4, 1000, kChunk}), InputError);
    Ptr<ReductionEngine> ok = MakeEngine(kChunk);
    EXPECT_THROW(ok->Open({1, 0, 1000, kChunk}), InputError);
    EXPECT_THROW(ok->Open({1, 4, 0, kChunk}), InputError);
    ok->Open({1, 4, 1000, kChunk});
    EXPECT_THROW(ok->Open({1, 4, 1000, kChunk}), InputError);
    // A reduce-scatter or an all-gather of one member has nobody to share with.
    EXPECT_THROW(ok->Open({2, 1, 1000, kChunk, ReductionOp::ReduceScatter}), InputError);
    EXPECT_THROW(ok->Open({3, 1, 1000, kChunk, ReductionOp::AllGather}), InputError);
}

// The layout of a reduce-scatter and an all-gather, summed over its chunks: every byte of
// every shard once, owned by its member, no empty chunk, each member's own chunks in
// increasing order; the all-reduce's is its data in order.
TEST(ReductionLayoutTest, ShardsCoverTheDataOnceWithoutEmptyChunks)
{
    for (uint32_t n : {2u, 3u, 4u, 7u, 8u})
    {
        for (uint64_t bytes : {uint64_t{1},
                               uint64_t{5},
                               uint64_t{4096},
                               uint64_t{4097},
                               uint64_t{3} * 4096 * 7 + 1,
                               uint64_t{1} << 20})
        {
            for (ReductionOp op :
                 {ReductionOp::AllReduce, ReductionOp::ReduceScatter, ReductionOp::AllGather})
            {
                const ReductionLayout l{op, n, bytes, kChunk};
                const std::string what = "op " + std::to_string(static_cast<int>(op)) + ", n " +
                                         std::to_string(n) + ", " + std::to_string(bytes) + " B";
                std::vector<uint64_t> perShard(n, 0);
                uint64_t total = 0;
                for (uint64_t k = 0; k < l.GetChunkCount(); ++k)
                {
                    ASSERT_GT(l.GetChunkSize(k), 0u) << what << ", chunk " << k;
                    ASSERT_LE(l.GetChunkSize(k), kChunk) << what;
                    perShard[l.GetOwner(k)] += l.GetChunkSize(k);
                    total += l.GetChunkSize(k);
                    uint32_t recipients = 0;
                    for (uint32_t m = 0; m < n; ++m)
                    {
                        recipients += l.Receives(m, k) ? 1 : 0;
                    }
                    ASSERT_EQ(recipients, l.GetRecipientCount(k)) << what;
                }
                uint64_t results = 0;
                for (uint32_t m = 0; m < n; ++m)
                {
                    results += l.GetResultBytes(m);
                    uint64_t sent = 0;
                    for (uint64_t i = 0; i < l.GetSentChunkCount(m); ++i)
                    {
                        const uint64_t k = l.GetSentChunk(m, i);
                        ASSERT_LT(k, l.GetChunkCount()) << what;
                        if (i > 0)
                        {
                            ASSERT_GT(k, l.GetSentChunk(m, i - 1)) << what;
                        }
                        if (op == ReductionOp::AllGather)
                        {
                            ASSERT_EQ(l.GetOwner(k), m) << what;
                        }
                        sent += l.GetChunkSize(k);
                    }
                    EXPECT_EQ(sent, bytes) << what << ", member " << m;
                }
                switch (op)
                {
                case ReductionOp::AllReduce:
                    EXPECT_EQ(total, bytes) << what;
                    EXPECT_EQ(results, n * bytes) << what;
                    break;
                case ReductionOp::ReduceScatter:
                    EXPECT_EQ(total, bytes) << what;
                    EXPECT_EQ(results, bytes) << what;
                    for (uint32_t m = 0; m < n; ++m)
                    {
                        EXPECT_EQ(perShard[m], bytes / n + (m < bytes % n ? 1 : 0)) << what;
                        EXPECT_EQ(l.GetResultBytes(m), perShard[m]) << what;
                    }
                    break;
                case ReductionOp::AllGather:
                    EXPECT_EQ(total, n * bytes) << what;
                    EXPECT_EQ(results, n * (n - 1) * bytes) << what;
                    break;
                }
            }
        }
    }
}

} // namespace
