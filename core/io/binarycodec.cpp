// SPDX-License-Identifier: MIT
#include "binarycodec.h"

#include "jsonfields.h"

#include <algorithm>
#include <cstring>

namespace rankstep::io::binary {

ByteWriter::ByteWriter(std::uint32_t version, std::size_t expectedBytes, bool pieces)
{
    if (pieces) {
        m_pieces = std::make_unique<std::vector<std::string>>();
        expectedBytes = std::min(expectedBytes, kPieceBytes + kPieceSlack);
    }
    m_file.reserve(expectedBytes);
    m_file.append(kMagic);
    for (int shift = 0; shift < 32; shift += 8)
        m_file.push_back(char((version >> shift) & 0xffU));
    beginSection();
}

void ByteWriter::beginSection()
{
    m_sectionAt = m_file.size();
    m_file.append(kHeaderRoom, '\0');
}

// Runs of consecutive members: (gap from the previous run's end, or from 0; length - 1).
void ByteWriter::indices(const core::IndexSet &set)
{
    m_runs.clear(); // a set of every shard of 1024 ranks is one run, not 1024 members to visit
    set.forEachRun([&](int begin, int end) { m_runs.emplace_back(begin, end); });
    natural(m_runs.size());
    int previous = 0;
    for (const auto &[begin, end] : m_runs) {
        natural(std::uint64_t(begin - previous));
        natural(std::uint64_t(end - begin - 1));
        previous = end;
    }
}

// 0 and the bytes for a string not written before; else its number in order of first writing.
void ByteWriter::string(std::string_view text)
{
    const auto [entry, added] = m_strings.try_emplace(text, m_strings.size() + 1);
    if (!added) {
        natural(entry->second);
        return;
    }
    natural(0);
    natural(text.size());
    m_file.append(text);
}

void ByteWriter::endSection(Section id)
{
    if (m_sectionPiece == kNoPiece) {
        closeSectionInPiece(m_file, m_file.size() - m_sectionAt - kHeaderRoom, id);
    } else {
        // The header's room is in an earlier piece: only that piece's part of the body moves.
        std::size_t size = m_file.size();
        for (std::size_t p = m_sectionPiece; p < m_pieces->size(); ++p)
            size += (*m_pieces)[p].size();
        closeSectionInPiece((*m_pieces)[m_sectionPiece], size - m_sectionAt - kHeaderRoom, id);
        m_sectionPiece = kNoPiece;
    }
    beginSection();
}

// Fills the header room at m_sectionAt of `piece` for a body of `bodyBytes` and closes up the
// rest of the room.
void ByteWriter::closeSectionInPiece(std::string &piece, std::size_t bodyBytes, Section id)
{
    std::string header;
    appendNatural(header, unsigned(id));
    appendNatural(header, bodyBytes);
    const std::size_t after = piece.size() - m_sectionAt - kHeaderRoom; // the body's part here
    char *at = piece.data() + m_sectionAt;
    std::memmove(at + header.size(), at + kHeaderRoom, after);
    std::memcpy(at, header.data(), header.size());
    piece.resize(m_sectionAt + header.size() + after);
}

void ByteWriter::endPiece()
{
    if (m_sectionPiece == kNoPiece)
        m_sectionPiece = m_pieces->size();
    m_pieces->push_back(std::move(m_file));
    m_file = std::string();
    m_file.reserve(kPieceBytes + kPieceSlack);
}

std::vector<std::string> ByteWriter::takePieces()
{
    // What was written after the last endSection is dropped with its header's room.
    if (m_sectionPiece != kNoPiece) {
        (*m_pieces)[m_sectionPiece].resize(m_sectionAt);
        m_pieces->resize(m_sectionPiece + 1);
    } else {
        m_file.resize(m_sectionAt);
        m_pieces->push_back(std::move(m_file));
    }
    std::vector<std::string> pieces = std::move(*m_pieces);
    std::erase_if(pieces, [](const std::string &piece) { return piece.empty(); });
    return pieces;
}

ByteReader::ByteReader(std::string_view data)
    : m_begin(reinterpret_cast<const unsigned char *>(data.data()))
    , m_pos(m_begin)
    , m_limit(m_begin + data.size())
    , m_loaded(m_limit)
    , m_size(data.size())
    , m_sectionEnd(m_size)
{}

ByteReader::ByteReader(std::uint64_t size, ByteSource source, std::size_t window)
    : m_size(size), m_sectionEnd(size), m_source(std::move(source))
{
    m_window.resize(std::size_t(std::min<std::uint64_t>(size, std::max<std::size_t>(window, 1))));
    m_begin = m_window.data();
    m_pos = m_limit = m_loaded = m_begin;
}

void ByteReader::startAt(std::uint64_t at, const ByteReader &before)
{
    m_context = before.m_context;
    m_index = kNoIndex;
    m_strings = before.m_strings;
    m_sectionEnd = m_size;
    if (m_source) { // nothing is loaded yet: the window begins at `at`
        m_base = at;
        m_pos = m_limit = m_loaded = m_begin;
        return;
    }
    m_pos = m_begin + std::min(at, m_size);
    setLimit();
}

void ByteReader::setLimit()
{
    m_limit = m_begin + std::min(m_sectionEnd - m_base, std::uint64_t(m_loaded - m_begin));
}

bool ByteReader::load(std::size_t bytes)
{
    if (std::size_t(m_limit - m_pos) >= bytes)
        return true;
    if (bytes > m_sectionEnd - offset(m_pos) || !m_source)
        return false; // more than the section holds (in memory: whatever is not there)
    // A source's window (the whole file is loaded when there is none): what is left of it
    // moves to its start, and the next piece of the file fills the rest.
    const auto kept = std::size_t(m_loaded - m_pos);
    const std::uint64_t at = offset(m_pos);
    if (bytes > m_window.size()) { // a string longer than the window
        std::vector<unsigned char> wider(bytes);
        std::copy(m_pos, m_loaded, wider.data());
        m_window.swap(wider);
    } else {
        std::copy(m_pos, m_loaded, m_window.data()); // backwards: never onto what it reads
    }
    m_base = at;
    m_begin = m_pos = m_window.data();
    m_loaded = m_begin + kept;
    const auto room =
        std::size_t(std::min<std::uint64_t>(m_window.size(), m_size - m_base)); // bytes to hold
    auto *window = m_window.data();
    while (std::size_t(m_loaded - m_begin) < room) {
        const std::size_t got =
            m_source(window + (m_loaded - m_begin), room - std::size_t(m_loaded - m_begin));
        if (got == 0)
            fail("", "the file ends after " + std::to_string(offset(m_loaded)) + " of its " +
                         std::to_string(m_size) + " bytes (it changed while it was read)");
        m_loaded += got;
    }
    setLimit();
    return std::size_t(m_limit - m_pos) >= bytes;
}

void ByteReader::fail(const char *field, const std::string &what) const
{
    std::string where = m_context;
    if (m_index != kNoIndex)
        where += "[" + std::to_string(m_index) + "]";
    if (*field != '\0')
        where += std::string(".") + field;
    throw BinaryError{where + " (byte " + std::to_string(offset(m_pos)) + "): " + what};
}

void ByteReader::truncated(const char *field) const
{
    fail(field, "the data ends early (truncated)");
}

void ByteReader::outOfRange(const char *field, std::int64_t value, std::int64_t min,
                            std::int64_t max) const
{
    fail(field, "expected a value from " + std::to_string(min) + " to " + std::to_string(max) +
                    ", got " + std::to_string(value));
}

void ByteReader::header(std::uint32_t version)
{
    const auto size = std::size_t(std::min<std::uint64_t>(m_size, 8));
    load(size);
    const std::string_view start(reinterpret_cast<const char *>(m_pos),
                                 std::min(size, kMagic.size()));
    if (start != kMagic.substr(0, start.size()))
        fail("", "this is not a Rankstep binary trace (it does not start with \"RSTB\")");
    if (size < 8)
        truncated(start.size() < 4 ? "magic" : "version");
    std::uint32_t read = 0;
    for (int i = 0; i < 4; ++i)
        read |= std::uint32_t(m_pos[4 + i]) << (8 * i);
    if (read != version)
        fail("version", "binary trace format version " + std::to_string(read) +
                            " is not supported (this Rankstep reads version " +
                            std::to_string(version) + ")");
    m_pos += 8;
}

void ByteReader::beginSection(Section id, const char *name)
{
    at(name);
    const std::uint64_t found = natural("");
    if (found != unsigned(id))
        fail("", "expected section " + std::to_string(unsigned(id)) + " (" + name + "), found " +
                     std::to_string(found));
    const std::uint64_t size = natural("");
    const std::uint64_t left = m_size - offset(m_pos);
    if (size > left)
        fail("", "the section is " + std::to_string(size) + " bytes but only " +
                     std::to_string(left) + " are left (truncated)");
    m_sectionEnd = offset(m_pos) + size;
    setLimit();
}

void ByteReader::endSection()
{
    at(m_context);
    if (offset(m_pos) != m_sectionEnd)
        fail("", std::to_string(m_sectionEnd - offset(m_pos)) +
                     " bytes left over at the end of the section");
    m_sectionEnd = m_size;
    setLimit();
}

void ByteReader::endFile()
{
    at("end");
    if (offset(m_pos) != m_size)
        fail("", std::to_string(m_size - offset(m_pos)) + " bytes after the last section");
}

std::uint64_t ByteReader::longNatural(const char *field)
{
    if (m_limit - m_pos >= 10) [[likely]] { // the longest number is here: no check per byte
        const unsigned char *at = m_pos;
        std::uint64_t value = 0;
        for (unsigned shift = 0; shift < 63; shift += 7) {
            const unsigned part = *at++;
            value |= std::uint64_t(part & 0x7fU) << shift;
            if (part < 0x80) {
                m_pos = at;
                return value;
            }
        }
        m_pos = at + 1; // the tenth byte holds the 64th bit
        if (*at > 1)
            fail(field, "a number longer than 64 bits");
        return value | std::uint64_t(*at) << 63;
    }
    std::uint64_t value = 0;
    for (unsigned shift = 0;; shift += 7) {
        if (m_pos == m_limit && !load(1))
            truncated(field);
        const unsigned part = *m_pos++;
        if (shift == 63 && part > 1)
            fail(field, "a number longer than 64 bits");
        value |= std::uint64_t(part & 0x7fU) << shift;
        if (part < 0x80)
            return value;
    }
}

void ByteReader::notWhole(const char *field, std::uint64_t value, std::int64_t max) const
{
    fail(field,
         "expected a value from 0 to " + std::to_string(max) + ", got " + std::to_string(value));
}

std::size_t ByteReader::count(const char *field, std::size_t bytesEach)
{
    const std::uint64_t value = natural(field);
    const auto left = std::size_t(m_sectionEnd - offset(m_pos));
    // value > left / bytesEach without a division (value * bytesEach cannot overflow then)
    if (value > left || value * bytesEach > left)
        fail(field, "a count of " + std::to_string(value) + " cannot fit in the " +
                        std::to_string(left) + " bytes left");
    return std::size_t(value);
}

bool ByteReader::boolean(const char *field)
{
    const unsigned value = byte(field);
    if (value > 1)
        fail(field, "expected 0 or 1, got " + std::to_string(value));
    return value == 1;
}

unsigned ByteReader::tag(const char *field, unsigned count, unsigned flags)
{
    const unsigned value = byte(field);
    if ((value & kEnumBits) >= count || (value & ~(kEnumBits | flags)) != 0)
        fail(field, "unknown value " + std::to_string(value));
    return value;
}

core::IndexSet ByteReader::someIndices(const char *field)
{
    const std::size_t runs = count(field, 2);
    core::IndexSet set;
    std::uint64_t next = 0;
    for (std::size_t i = 0; i < runs; ++i) {
        const std::uint64_t begin = next + std::uint64_t(whole(field, kMaxIndex));
        const std::uint64_t end = begin + std::uint64_t(whole(field, kMaxIndex)) + 1;
        if (end > std::uint64_t(kMaxIndex) + 1)
            fail(field, "a batch or shard number above " + std::to_string(kMaxIndex));
        if (runs == 1)
            return core::IndexSet::range(int(begin), int(end));
        if (end - begin >= 64)
            set |= core::IndexSet::range(int(begin), int(end));
        else
            for (std::uint64_t member = begin; member < end; ++member)
                set.insert(int(member));
        next = end;
    }
    return set;
}

std::string ByteReader::string(const char *field)
{
    return m_strings[stringNumber(field)];
}

std::size_t ByteReader::stringNumber(const char *field)
{
    const std::uint64_t ref = natural(field);
    if (ref > m_strings.size())
        fail(field, "refers to string " + std::to_string(ref) + " but only " +
                        std::to_string(m_strings.size()) + " came before");
    if (ref > 0)
        return std::size_t(ref - 1);
    const std::size_t size = count(field);
    if (!load(size))
        truncated(field);
    m_strings.emplace_back(reinterpret_cast<const char *>(m_pos), size);
    m_pos += size;
    return m_strings.size() - 1;
}

} // namespace rankstep::io::binary
