// SPDX-License-Identifier: MIT
// The primitives of Rankstep's binary trace (docs/trace-format.md, "Rankstep binary trace"):
// LEB128 varints, zig-zag for signed values, index sets as runs, strings through a table, and
// sections that carry their size. Internal to rankstep_io.
#pragma once

#include "core/indexset.h"
#include "core/simtime.h"
#include "core/trace.h"
#include "tracejson.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rankstep::io::binary {

inline constexpr std::string_view kMagic = "RSTB";
// In the order they are written, as in the JSON.
enum class Section : unsigned {
    Config = 1,
    Result,
    Events,
    Changes,
    Slices,
    Warnings,
    Marks,
    Finals,     // final weights
    Cost,       // a real-scale cost model's name, sizes and links (docs/cost-models.md); optional
    Overlapped, // the non-blocking collectives' communication (Trace::overlapped); optional
    Halves,     // the backward halves' costs when they are not half each; optional
    Layout,     // the tensor, context, pipeline and expert degrees when one is not 1; optional
    TensorActivations, // the activation bytes tensor parallelism divides, when not 0; optional
    Router,            // the router's skew when it is not 0 (docs/cost-models.md); optional
    Device,            // the device's memory when the cost model gives it; optional
    HeldOutside,       // what a rank held outside its storage (core::HeldOutside); optional
};
// A tag byte: an enum value in the low four bits, flags in the high four.
inline constexpr unsigned kEnumBits = 0x0f;
inline constexpr unsigned kEventPeer = 0x10, kEventLink = 0x20;
inline constexpr unsigned kEventGradient = 0x40; // core::Event::gradient
inline constexpr unsigned kChangeTuple = 0x10, kChangeSet = 0x20;
inline constexpr unsigned kObjectShape = 0x10; // layers and totalBatches follow
// A byte of tensor-parallel fields follows: bit 0 slice, bit 1 partial, bits 2-3 block, bit 4
// context (a context chunk, its keys and values, or a weight gradient to sum over the group).
inline constexpr unsigned kObjectTensor = 0x20;
inline constexpr unsigned kObjectExpert = 0x40; // an expert's object: its number follows

inline std::uint64_t zigzag(std::int64_t value)
{
    return (std::uint64_t(value) << 1) ^ std::uint64_t(value >> 63);
}
inline std::int64_t unzigzag(std::uint64_t value)
{
    return std::int64_t(value >> 1) ^ -std::int64_t(value & 1);
}
// Object::layers and Object::totalBatches as the engine sets them; written only when different.
inline bool hasEngineShape(const core::Object &object, const core::RunConfig &config)
{
    return object.layers == config.layers &&
           object.totalBatches == (core::hasBatches(object.kind) ? config.batches : 1);
}
inline void setEngineShape(core::Object &object, const core::RunConfig &config)
{
    object.layers = config.layers;
    object.totalBatches = core::hasBatches(object.kind) ? config.batches : 1;
}

// value - base and base + delta with two's-complement wrap-around: exact both ways, never UB.
inline std::int64_t wrapMinus(std::int64_t value, std::int64_t base)
{
    return std::int64_t(std::uint64_t(value) - std::uint64_t(base));
}
inline std::int64_t wrapPlus(std::int64_t base, std::int64_t delta)
{
    return std::int64_t(std::uint64_t(base) + std::uint64_t(delta));
}

// Appends to the current section; endSection moves it, with its id and size, to the file.
inline void appendNatural(std::string &out, std::uint64_t value)
{
    while (value >= 0x80) {
        out.push_back(char((value & 0x7fU) | 0x80U));
        value >>= 7;
    }
    out.push_back(char(value));
}

class ByteWriter
{
public:
    // `pieces`: the file is kept in pieces of about kPieceBytes (takePieces()) instead of one
    // string of expectedBytes (take()).
    ByteWriter(std::uint32_t version, std::size_t expectedBytes, bool pieces = false);
    void byte(unsigned value) { m_file.push_back(char(value & 0xffU)); }
    void natural(std::uint64_t value) { appendNatural(m_file, value); }
    void integer(std::int64_t value) { natural(zigzag(value)); }
    void time(core::SimTime value) { integer(value.ticks()); }
    void indices(const core::IndexSet &set);
    // The text must outlive the writer (the table keeps a view of it).
    void string(std::string_view text);
    void endSection(Section id);
    // The file: every section ended before (what was written after the last endSection is
    // dropped with the room for its header).
    std::string take()
    {
        m_file.resize(m_sectionAt);
        return std::move(m_file);
    }
    // With pieces: begins a new piece once the current one holds kPieceBytes. The encoder calls
    // it between items, so that a piece seldom grows past the room it was made with.
    void endPieceIfFull()
    {
        if (m_pieces && m_file.size() >= kPieceBytes) [[unlikely]]
            endPiece();
    }
    // With pieces: the file in order, every section ended before (as take()).
    std::vector<std::string> takePieces();
    static constexpr std::size_t kPieceBytes = std::size_t(4) << 20;

private:
    // A section's body is written in place, after room for its header (its id and length, at
    // most 10 bytes each), which endSection fills and closes up: no second buffer to copy, and
    // no pages touched twice (a 590,848-event run's sections are 15 and 20 MB).
    static constexpr std::size_t kHeaderRoom = 20;
    void beginSection();
    void endPiece();
    void closeSectionInPiece(std::string &piece, std::size_t bodyBytes, Section id);
    std::string m_file;          // with pieces: the last one
    std::size_t m_sectionAt = 0; // where the current section's header room begins
    // With pieces: the pieces before m_file, and which holds the current section's header room
    // (kNoPiece: m_file).
    std::unique_ptr<std::vector<std::string>> m_pieces;
    static constexpr std::size_t kPieceSlack = std::size_t(64) << 10; // past kPieceBytes
    static constexpr std::size_t kNoPiece = std::numeric_limits<std::size_t>::max();
    std::size_t m_sectionPiece = kNoPiece;
    std::unordered_map<std::string_view, std::uint64_t> m_strings;
    std::vector<std::pair<int, int>> m_runs;
};

struct BinaryError {
    std::string message; // "events[123].batches (byte 4567): the data ends early"
};

// Where a ByteReader's bytes come from when they are read in pieces: fills `to` with up to
// `size` of the bytes that follow and returns how many (0: there are no more). May throw
// BinaryError.
using ByteSource = std::function<std::size_t(unsigned char *to, std::size_t size)>;

// Reads the current section, bounds-checked: every failure throws BinaryError naming the item
// (set with at()), the field and the byte offset.
class ByteReader
{
public:
    explicit ByteReader(std::string_view data);
    // The `size` bytes `source` gives, read as decoding goes in a window of kWindowBytes (more
    // for a longer string): a large file is never held whole beside what is decoded from it
    // (16,384 ranks: 0.8 GB). The same checks and messages as reading them from memory; a
    // source that ends before `size` bytes is a truncated file. (`window`: tests read in pieces
    // of a few bytes.)
    ByteReader(std::uint64_t size, ByteSource source, std::size_t window = kWindowBytes);
    static constexpr std::size_t kWindowBytes = std::size_t(4) << 20;
    // For a reader just made over the same bytes: reads on from byte `at` of them (where its
    // source, if it has one, gives its first bytes), with the strings `before` has read, as
    // `before` would after skipping to there. Parts of a file decode so on several threads.
    void startAt(std::uint64_t at, const ByteReader &before);
    // Where the current section ends, in bytes from the start (between sections: the size).
    std::uint64_t sectionEnd() const { return m_sectionEnd; }

    void at(const char *section, std::size_t index = kNoIndex)
    {
        m_context = section;
        m_index = index;
    }
    [[noreturn]] void fail(const char *field, const std::string &what) const;

    void header(std::uint32_t version);
    void beginSection(Section id, const char *name);
    void endSection();
    void endFile();
    // Whether the next section is `id` (ids are below 128: one byte); false at the end.
    bool nextSectionIs(Section id)
    {
        return offset(m_pos) != m_size && (m_pos != m_limit || load(1)) && *m_pos == unsigned(id);
    }

    unsigned byte(const char *field)
    {
        if (m_pos == m_limit && !load(1))
            truncated(field);
        return *m_pos++;
    }
    std::uint64_t natural(const char *field)
    {
        if (m_pos != m_limit && *m_pos < 0x80)
            return *m_pos++;
        return longNatural(field);
    }
    std::int64_t integer(const char *field, std::int64_t min, std::int64_t max)
    {
        return checked(field, unzigzag(natural(field)), min, max);
    }
    int integer32(const char *field, int min = kIntMin, int max = kIntMax)
    {
        return int(integer(field, min, max));
    }
    // base + a zig-zag delta, in [min, max].
    std::int64_t relative(const char *field, std::int64_t base, std::int64_t min, std::int64_t max)
    {
        return checked(field, wrapPlus(base, unzigzag(natural(field))), min, max);
    }
    core::SimTime time(const char *field)
    {
        return core::SimTime::fromTicks(unzigzag(natural(field)));
    }
    // An unsigned value from 0 to max (nothing fits when max < 0).
    std::int64_t whole(const char *field, std::int64_t max)
    {
        const std::uint64_t value = natural(field);
        if (max < 0 || value > std::uint64_t(max))
            notWhole(field, value, max);
        return std::int64_t(value);
    }
    // A count of items that take at least bytesEach bytes each, so it fits in what is left.
    std::size_t count(const char *field, std::size_t bytesEach = 1);
    bool boolean(const char *field);
    // A tag byte whose enum value is below count and whose flags are among `flags`.
    unsigned tag(const char *field, unsigned count, unsigned flags = 0);
    core::IndexSet indices(const char *field)
    {
        if (m_pos != m_limit && *m_pos == 0) { // most sets of a trace are empty
            ++m_pos;
            return {};
        }
        return someIndices(field);
    }
    std::string string(const char *field);
    // The same string as its number among those read (from 0), without a copy; stringAt() its
    // text, valid until the next string is read.
    std::size_t stringNumber(const char *field);
    const std::string &stringAt(std::size_t number) const { return m_strings[number]; }

    static constexpr std::size_t kNoIndex = std::numeric_limits<std::size_t>::max();
    static constexpr int kIntMin = std::numeric_limits<int>::min();
    static constexpr int kIntMax = std::numeric_limits<int>::max();
    static constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();

private:
    [[noreturn]] void truncated(const char *field) const;
    core::IndexSet someIndices(const char *field);
    [[noreturn]] void notWhole(const char *field, std::uint64_t value, std::int64_t max) const;
    std::uint64_t longNatural(const char *field);
    std::int64_t checked(const char *field, std::int64_t value, std::int64_t min,
                         std::int64_t max) const
    {
        if (value < min || value > max)
            outOfRange(field, value, min, max);
        return value;
    }
    [[noreturn]] void outOfRange(const char *field, std::int64_t value, std::int64_t min,
                                 std::int64_t max) const;
    // The place in the file of a byte of the window.
    std::uint64_t offset(const unsigned char *at) const
    {
        return m_base + std::uint64_t(at - m_begin);
    }
    // Makes `bytes` bytes from m_pos readable (reading the next piece of a source); false when
    // the current section holds fewer.
    bool load(std::size_t bytes);
    void setLimit(); // m_limit from the section's end and what is read

    const unsigned char *m_begin;  // the window's first byte, at offset m_base of the file
    const unsigned char *m_pos;    // the next byte to read
    const unsigned char *m_limit;  // the end of what may be read now: the section's or the window's
    const unsigned char *m_loaded; // the end of what the window holds
    std::uint64_t m_base = 0;
    std::uint64_t m_size = 0;       // the whole file's
    std::uint64_t m_sectionEnd = 0; // the current section's end (between sections: the file's)
    ByteSource m_source;            // none: the whole file is in memory
    std::vector<unsigned char> m_window;
    const char *m_context = "header";
    std::size_t m_index = kNoIndex;
    std::vector<std::string> m_strings;
};

// What traceFromBinary and traceFromBinaryFile do with their bytes (tracebinaryreader.cpp), in
// order on this thread.
core::Result<core::Trace> decodeTrace(ByteReader in, TraceJsonOptions *options);

// How to read parts of the same bytes at once: `at` makes a reader whose source gives them from
// byte `at` on (ByteReader::startAt); `abandon`, when set, lets their reads stop early once an
// earlier part failed (its message is the one given).
struct PartReaders {
    std::function<ByteReader(std::uint64_t at)> at;
    std::function<void()> abandon;
};
// The same decode with the events and the changes on two threads, the slices and what follows on
// whichever ends first: the same trace, or the same message as the read in order (the part
// earliest in the file that fails gives it). Without `parts.at`: in order.
core::Result<core::Trace> decodeTrace(ByteReader in, TraceJsonOptions *options,
                                      const PartReaders &parts);
// From this size on traceFromBinary and traceFromBinaryFile decode in parts: a smaller file
// decodes in a few milliseconds, less than a thread takes to start.
inline constexpr std::uint64_t kPartsFromBytes = std::uint64_t(4) << 20;

} // namespace rankstep::io::binary
