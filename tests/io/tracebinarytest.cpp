// SPDX-License-Identifier: MIT
// traceToBinary and traceFromBinary: exact round trips, every field, and a compact million events.
#include "synthetictrace.h"
#include "testtraces.h"

#include "core/io/tracebinary.h"
#include "core/io/tracejson.h"
#include "tests/core/referencepuzzles.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rankstep::io {
namespace {

// The trace read back from its binary form (fails the test when it cannot be read).
core::Trace roundTrip(const core::Trace &trace, const TraceJsonOptions &options = {})
{
    auto read = traceFromBinary(traceToBinary(trace, options));
    EXPECT_TRUE(read.ok()) << read.error().message;
    return read.ok() ? std::move(*read) : core::Trace{};
}

TEST(TraceBinary, StartsWithTheMagicAndTheVersion)
{
    const std::string binary = traceToBinary(testing::referenceTrace("basic"));
    ASSERT_GE(binary.size(), 8u);
    EXPECT_EQ(binary.substr(0, 4), "RSTB");
    EXPECT_EQ(binary.substr(4, 4), std::string("\x01\x00\x00\x00", 4));
}

TEST(TraceBinary, RoundTripsEveryReferencePuzzleExactly)
{
    for (const testing::PuzzleCase &puzzle : testing::referencePuzzles()) {
        core::RunConfig config;
        config.ranks = puzzle.ranks;
        config.layers = puzzle.layers;
        config.batches = puzzle.batches;
        const core::Trace trace = testing::runProgram(config, puzzle.program);
        ASSERT_TRUE(trace.correct()) << puzzle.name;
        const TraceJsonOptions options{puzzle.name + ".py", puzzle.name};

        TraceJsonOptions readOptions;
        auto read = traceFromBinary(traceToBinary(trace, options), &readOptions);

        ASSERT_TRUE(read.ok()) << puzzle.name << ": " << read.error().message;
        EXPECT_EQ(traceToJson(*read, readOptions), traceToJson(trace, options)) << puzzle.name;
        EXPECT_EQ(read->events.size(), trace.events.size()) << puzzle.name;
        EXPECT_EQ(read->finalWeights, trace.finalWeights) << puzzle.name;
    }
}

TEST(TraceBinary, KeepsTheLayoutAndACostFilesOwnBackwardHalvesInBothForms)
{
    core::Trace trace = testing::referenceTrace("basic");
    trace.config.ranks = 8;
    trace.config.layout = core::Layout{2, 1, 2, 2};
    trace.config.cost.backwardInputPerBatch = core::SimTime::steps(3);
    trace.config.cost.backwardWeightPerBatch = core::SimTime::steps(1);
    const core::Trace read = roundTrip(trace);
    EXPECT_EQ(read.config.layout, trace.config.layout);
    EXPECT_EQ(read.config.cost.backwardInputPerBatch, core::SimTime::steps(3));
    EXPECT_EQ(read.config.cost.backwardWeightPerBatch, core::SimTime::steps(1));
    auto json = traceFromJson(traceToJson(trace));
    ASSERT_TRUE(json.ok()) << json.error().message;
    EXPECT_EQ(json->config.layout, trace.config.layout);
    EXPECT_EQ(json->config.cost.backwardInputPerBatch, core::SimTime::steps(3));
    // A plain layout writes nothing: every other trace stays as it was.
    EXPECT_EQ(traceToJson(testing::referenceTrace("basic")).find("\"layout\""), std::string::npos);
}

// A tensor-parallel slice, a partial sum and a block (docs/trace-format.md) survive both forms,
// and a trace without them is written as before.
TEST(TraceBinary, KeepsTheTensorParallelFieldsOfAnObjectInBothForms)
{
    core::Trace trace = testing::referenceTrace("basic");
    const std::string before = traceToJson(trace);
    EXPECT_EQ(before.find("\"slice\""), std::string::npos);
    EXPECT_EQ(before.find("\"partial\""), std::string::npos);
    core::Object &weight = trace.finalWeights[0][0];
    weight.slice = true;
    weight.partial = true;
    weight.block = 2;
    const core::Trace read = roundTrip(trace);
    EXPECT_EQ(read.finalWeights, trace.finalWeights);
    const std::string json = traceToJson(trace);
    auto fromJson = traceFromJson(json);
    ASSERT_TRUE(fromJson.ok()) << fromJson.error().message;
    EXPECT_EQ(fromJson->finalWeights, trace.finalWeights);
    // A block that is no mask of the two blocks is refused, naming the field.
    std::string bad = json;
    bad.replace(bad.find("\"block\": 2"), 10, "\"block\": 9");
    auto refused = traceFromJson(bad);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("block"), std::string::npos) << refused.error().message;
}

// The device's memory a cost model gives goes through both forms, as the last section of the
// binary file and a member of the JSON's cost; a trace without it is written as before, so older
// readers and files are not concerned.
TEST(TraceBinary, KeepsTheDevicesMemoryInBothFormsAndWritesNothingWithoutIt)
{
    core::Trace trace = testing::referenceTrace("basic");
    const std::string binaryBefore = traceToBinary(trace);
    const std::string jsonBefore = traceToJson(trace);
    EXPECT_EQ(jsonBefore.find("device_memory"), std::string::npos);
    EXPECT_EQ(roundTrip(trace).config.cost.deviceMemory, 0);

    trace.config.cost.deviceMemory = 80'000'000'000;
    const std::string binary = traceToBinary(trace);
    // Section 15 of 6 bytes (80e9 as a zig-zag varint) after everything the file held before.
    EXPECT_EQ(binary.substr(0, binaryBefore.size()), binaryBefore);
    EXPECT_EQ(binary.substr(binaryBefore.size(), 2), std::string("\x0f\x06", 2));
    EXPECT_EQ(roundTrip(trace).config.cost.deviceMemory, 80'000'000'000);
    const std::string json = traceToJson(trace);
    EXPECT_NE(json.find("\"device_memory\": 80000000000"), std::string::npos);
    auto read = traceFromJson(json);
    ASSERT_TRUE(read.ok()) << read.error().message;
    EXPECT_EQ(read->config.cost.deviceMemory, 80'000'000'000);
    EXPECT_EQ(traceToJson(*read), json);
}

// A device's memory is a whole number of bytes from 1 to 10^18 in either form: 0, a negative
// number, more than an exabyte or a fraction is refused, naming the field.
TEST(TraceBinary, RefusesADevicesMemoryOutOfItsBounds)
{
    core::Trace trace = testing::referenceTrace("basic");
    trace.config.cost.deviceMemory = 1;
    const std::string binary = traceToBinary(trace);
    ASSERT_EQ(binary.substr(binary.size() - 3), std::string("\x0f\x01\x02", 3));
    std::string zero = binary;
    zero.back() = '\x00';
    auto refused = traceFromBinary(zero);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(
        refused.error().message.find("device.device_memory (byte " + std::to_string(binary.size()) +
                                     "): expected a value from 1 to 1000000000000000000, got 0"),
        std::string::npos)
        << refused.error().message;
    const std::string json = traceToJson(trace);
    const std::size_t at = json.find("\"device_memory\": 1");
    ASSERT_NE(at, std::string::npos);
    for (const char *bad : {"0", "-80000000000", "1000000000000000001", "8e10", "80.5"}) {
        std::string damaged = json;
        damaged.replace(at, std::string("\"device_memory\": 1").size(),
                        std::string("\"device_memory\": ") + bad);
        auto read = traceFromJson(damaged);
        ASSERT_FALSE(read.ok()) << bad;
        EXPECT_NE(read.error().message.find("device_memory"), std::string::npos)
            << read.error().message;
    }
}

TEST(TraceBinary, RefusesALayoutItsRanksCannotFill)
{
    core::Trace trace = testing::referenceTrace("basic");
    trace.config.ranks = 6;
    trace.config.layout = core::Layout{4, 1, 1, 1};
    auto binary = traceFromBinary(traceToBinary(trace));
    ASSERT_FALSE(binary.ok());
    EXPECT_NE(binary.error().message.find("--tensor 4 needs a multiple of 4 ranks"),
              std::string::npos)
        << binary.error().message;
    auto json = traceFromJson(traceToJson(trace));
    ASSERT_FALSE(json.ok());
    EXPECT_NE(json.error().message.find("--tensor 4 needs"), std::string::npos)
        << json.error().message;
}

TEST(TraceBinary, RoundTripsDeadlockMismatchAndErrorTraces)
{
    for (const core::Trace &trace :
         {testing::deadlockTrace(), testing::mismatchTrace(), testing::checkErrorTrace()}) {
        ASSERT_TRUE(trace.error.has_value());
        const core::Trace read = roundTrip(trace);
        EXPECT_EQ(traceToJson(read), traceToJson(trace));
        EXPECT_EQ(read.status, trace.status);
        EXPECT_EQ(read.diagnosis.has_value(), trace.diagnosis.has_value());
        EXPECT_EQ(read.warnings.size(), trace.warnings.size());
    }
    EXPECT_TRUE(roundTrip(testing::deadlockTrace()).diagnosis.has_value());
    EXPECT_EQ(roundTrip(testing::checkErrorTrace()).warnings.size(), 1u);
}

TEST(TraceBinary, KeepsMarksErrorColumnTracebackAndFiguresPerRank)
{
    core::Trace trace = testing::referenceTrace("pipeline");
    trace.marks.push_back({-1, 7, 3, 2, "before the loop"});
    trace.marks.push_back({1, 12, trace.events.size(), trace.changes.size(), "é and \"quotes\""});
    trace.status = core::RunStatus::Error;
    trace.error = core::Error{core::ErrorKind::Syntax, 1, 4, "invalid syntax"};
    trace.error->column = 17;
    trace.error->traceback = "  File \"pipeline.py\", line 4\n";

    const core::Trace read = roundTrip(trace, {"pipeline.py", "pipeline"});

    EXPECT_EQ(traceToJson(read), traceToJson(trace));
    ASSERT_EQ(read.marks.size(), 2u);
    EXPECT_EQ(read.marks[1].label, "é and \"quotes\"");
    EXPECT_EQ(read.marks[1].eventCount, trace.events.size());
    ASSERT_TRUE(read.error.has_value());
    EXPECT_EQ(read.error->column, 17);
    EXPECT_EQ(read.error->traceback, trace.error->traceback);
    ASSERT_EQ(read.figures.ranks.size(), trace.figures.ranks.size());
    EXPECT_EQ(read.figures.ranks.back().idle, trace.figures.ranks.back().idle);
    EXPECT_EQ(read.figures.maxMemoryTime, trace.figures.maxMemoryTime);
}

TEST(TraceBinary, KeepsWhatTheJsonLeavesOut)
{
    core::Trace trace = testing::referenceTrace("ddp");
    trace.figures.hasEvents = false;                  // JSON: derived from the events
    trace.events[0].peer = 3;                         // JSON: only for pass_to and receive
    trace.finalWeights[0].begin()->second.layers = 9; // JSON: taken from the config
    core::ChangeLog changes;                          // JSON: taken from the config
    for (const core::StorageChange &change : trace.changes) {
        std::optional<core::Object> object;
        if (change.isSet())
            object = trace.changes.objectAt(change.objectId);
        if (changes.empty())
            object->totalBatches = 5;
        changes.append(change, std::move(object));
    }
    trace.changes = std::move(changes);
    trace.slices[0].detail =
        trace.details.intern(std::string("a\0b\xff", 4)); // JSON: invalid UTF-8 becomes U+FFFD

    const core::Trace read = roundTrip(trace);

    EXPECT_FALSE(read.figures.hasEvents);
    EXPECT_EQ(read.events[0].peer, 3);
    EXPECT_EQ(read.finalWeights[0].begin()->second.layers, 9);
    EXPECT_EQ(read.changes.object(read.changes[0])->totalBatches, 5);
    EXPECT_EQ(read.detail(read.slices[0]), std::string("a\0b\xff", 4));
    EXPECT_EQ(read.changes.object(read.changes[1])->totalBatches,
              trace.changes.object(trace.changes[1])->totalBatches);
}

// A key of one int, and tuples of two, three (a tensor block's activation, read without a list)
// and four ints (on the heap) come back with their ints in order.
TEST(TraceBinary, KeepsKeysOfOneToFourInts)
{
    core::Trace trace = testing::referenceTrace("basic");
    const std::vector<core::Key> keys = {core::Key(7), core::Key(1, -2),
                                         core::Key(3, 4, 2147483647),
                                         core::Key::ofTuple({6, 7, 8, 9})};
    ASSERT_GE(trace.changes.size(), keys.size());
    core::ChangeLog changes;
    for (const core::StorageChange &change : trace.changes) {
        core::StorageChange keyed = change;
        if (changes.size() < keys.size())
            keyed.key = keys[changes.size()];
        changes.append(keyed, change.isSet() ? std::optional<core::Object>(
                                                   trace.changes.objectAt(change.objectId))
                                             : std::nullopt);
    }
    trace.changes = std::move(changes);

    const core::Trace read = roundTrip(trace);

    ASSERT_EQ(read.changes.size(), trace.changes.size());
    for (std::size_t i = 0; i < keys.size(); ++i) {
        EXPECT_EQ(read.changes[i].key, keys[i]) << core::formatKey(read.changes[i].key);
        EXPECT_EQ(core::formatKey(read.changes[i].key), core::formatKey(keys[i]));
    }
}

// The ranks of a data-parallel group set equal objects thousands of sets apart (a rank's step's
// activations, set again by the next rank of its group after every other rank's turn): each is
// read back as one object kept once, but for a few whose places another object took meanwhile.
TEST(TraceBinary, ReadsEqualObjectsSetFarApartAsOneMostly)
{
    constexpr std::size_t kDistinct = 2048; // 32 layers x 64 micro-batches
    core::Trace trace = testing::syntheticTrace(4096, 16384);
    core::ChangeLog changes;
    std::size_t sets = 0;
    for (const core::StorageChange &change : trace.changes) {
        std::optional<core::Object> object;
        if (change.isSet()) {
            object = trace.changes.objectAt(change.objectId);
            object->layer = 1 + int(sets % kDistinct / 64);
            object->batches = core::IndexSet{int(sets % 64)};
            ++sets;
        }
        changes.append(change, std::move(object));
    }
    ASSERT_GE(sets, 3 * kDistinct);
    trace.changes = std::move(changes);

    const core::Trace read = roundTrip(trace);

    ASSERT_EQ(read.changes.size(), trace.changes.size());
    std::vector<const core::Object *> last(kDistinct, nullptr); // each object's last set
    std::size_t again = 0, shared = 0, k = 0;
    for (std::size_t i = 0; i < read.changes.size(); ++i) {
        const core::Object *object = read.changes.object(read.changes[i]);
        ASSERT_EQ(object == nullptr, !trace.changes[i].isSet()) << i;
        if (!object)
            continue;
        EXPECT_EQ(*object, *trace.changes.object(trace.changes[i])) << i;
        const core::Object *&before = last[k++ % kDistinct];
        if (before) {
            ++again;
            shared += object == before ? 1 : 0;
        }
        before = object;
    }
    EXPECT_GE(shared * 20, again * 19) << shared << " of " << again << " sets share their object";
}

// The reader keeps each change's object a few changes after it read the change (asking ahead
// for what keeping it reads): every change still comes back, in order, with its own object,
// however few there are, the last ones too.
TEST(TraceBinary, ReadsBackEveryChangeInOrderHoweverFew)
{
    for (std::size_t count = 0; count <= 12; ++count) {
        const core::Trace trace = testing::syntheticTrace(64, count);
        ASSERT_EQ(trace.changes.size(), count);
        const core::Trace read = roundTrip(trace);
        ASSERT_EQ(read.changes.size(), count);
        for (std::size_t i = 0; i < count; ++i) {
            const core::StorageChange &a = read.changes[i], &b = trace.changes[i];
            EXPECT_TRUE(a.rank == b.rank && a.map == b.map && a.key == b.key && a.line == b.line &&
                        a.eventCount == b.eventCount && a.memoryAfter == b.memoryAfter)
                << count << " changes, change " << i;
            EXPECT_TRUE(core::sameObject(read.changes.object(a), trace.changes.object(b)))
                << count << " changes, change " << i;
        }
        EXPECT_EQ(traceToBinary(read), traceToBinary(trace)) << count << " changes";
    }
}

TEST(TraceBinary, WritesARepeatedStringOnce)
{
    core::Trace trace = testing::referenceTrace("basic");
    const std::string message(200, 'w');
    trace.warnings.assign(100, core::Warning{0, 3, message});

    const std::string binary = traceToBinary(trace);

    // Once in full, then three bytes (rank, line, the string's number) per warning.
    const std::size_t before = traceToBinary(testing::referenceTrace("basic")).size();
    EXPECT_LT(binary.size(), before + 200 + 4 * 100);
    EXPECT_EQ(roundTrip(trace).warnings.back().message, message);
}

TEST(TraceBinary, EncodesAMillionEventsInFewerBytesThanJsonAndReadsThemBack)
{
    const core::Trace trace = testing::syntheticTrace(1000000, 250000);
    ASSERT_EQ(trace.events.size(), 1000000u);

    const std::string binary = traceToBinary(trace, {"big.py", "fsdp"});
    const std::size_t jsonSize = traceToJson(trace, {"big.py", "fsdp"}).size();
    auto read = traceFromBinary(binary);

    EXPECT_LT(binary.size() * 8, jsonSize) << binary.size() << " bytes against " << jsonSize;
    ASSERT_TRUE(read.ok()) << read.error().message;
    EXPECT_EQ(read->events.size(), 1000000u);
    EXPECT_EQ(read->changes.size(), 250000u);
    // The format is deterministic: writing what was read gives the same bytes.
    EXPECT_EQ(traceToBinary(*read, {"big.py", "fsdp"}), binary);
}

std::string joined(const std::vector<std::string> &pieces)
{
    std::string whole;
    for (const std::string &piece : pieces)
        whole += piece;
    return whole;
}

// The runner sends a large run's trace in pieces, giving back its record as it encodes it.
TEST(TraceBinary, PiecesHoldTheSameBytesAndGiveTheRecordBack)
{
    for (const char *name : {"basic", "fsdp"}) {
        core::Trace trace = testing::referenceTrace(name);
        const std::string whole = traceToBinary(trace, {"a.py", name});
        const std::vector<std::string> pieces = traceToBinaryPieces(trace, {"a.py", name});
        EXPECT_EQ(joined(pieces), whole) << name;
        EXPECT_TRUE(trace.events.empty()) << name;
        EXPECT_TRUE(trace.changes.empty()) << name;
        EXPECT_TRUE(trace.slices.empty()) << name;
    }
}

// Sections longer than a piece: each section's size is written in the piece it begins in.
TEST(TraceBinary, PiecesOfAMillionEventsAreBoundedAndReadBackAsOne)
{
    core::Trace trace = testing::syntheticTrace(1000000, 250000);
    const std::string whole = traceToBinary(trace, {"big.py", "fsdp"});
    const std::vector<std::string> pieces = traceToBinaryPieces(trace, {"big.py", "fsdp"});

    ASSERT_GT(pieces.size(), 3U) << whole.size();
    for (const std::string &piece : pieces)
        EXPECT_LE(piece.size(), std::size_t(4 << 20) + 4096);
    const std::string read = joined(pieces);
    EXPECT_EQ(read.size(), whole.size());
    EXPECT_TRUE(read == whole);
    EXPECT_TRUE(traceFromBinary(read).ok());
}

} // namespace
} // namespace rankstep::io
