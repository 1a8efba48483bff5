// SPDX-License-Identifier: MIT
#include "runchannel.h"

#include "core/io/tracebinary.h"

#include <sys/random.h>

#include <algorithm>
#include <bit>
#include <cstring>

namespace rankstep::cli {
namespace {

void putNumber(std::string &out, std::uint64_t value)
{
    for (int i = 0; i < 8; ++i)
        out.push_back(char((value >> (8 * i)) & 0xff));
}

void putText(std::string &out, const std::string &text)
{
    putNumber(out, text.size());
    out += text;
}

// Reads numbers and texts from `bytes` in turn; false when one runs past the end.
class Reader
{
public:
    explicit Reader(const std::string &bytes) : m_bytes(bytes) {}
    bool number(std::uint64_t &value)
    {
        if (m_bytes.size() - m_at < 8)
            return false;
        value = 0;
        for (int i = 0; i < 8; ++i)
            value |= std::uint64_t(static_cast<unsigned char>(m_bytes[m_at + i])) << (8 * i);
        m_at += 8;
        return true;
    }
    bool text(std::string &value)
    {
        std::uint64_t size = 0;
        if (!number(size) || m_bytes.size() - m_at < size)
            return false;
        value = m_bytes.substr(m_at, size);
        m_at += size;
        return true;
    }
    // Where a text of `size` bytes starts, skipped; false when it runs past the end.
    bool skipText(std::size_t &start, std::uint64_t &size)
    {
        if (!number(size) || m_bytes.size() - m_at < size)
            return false;
        start = m_at;
        m_at += size;
        return true;
    }
    bool bytes(unsigned char *into, std::size_t count)
    {
        if (m_bytes.size() - m_at < count)
            return false;
        std::memcpy(into, m_bytes.data() + m_at, count);
        m_at += count;
        return true;
    }
    bool atEnd() const { return m_at == m_bytes.size(); }

private:
    const std::string &m_bytes;
    std::size_t m_at = 0;
};

// The run's configuration travels as the binary trace format's own (a trace of no events): one
// codec for it, whose reader checks every field.
std::string encodeConfig(const core::RunConfig &config)
{
    core::Trace empty;
    empty.config = config;
    return io::traceToBinary(empty);
}

std::optional<core::RunConfig> decodeConfig(const std::string &bytes)
{
    auto trace = io::traceFromBinary(bytes);
    if (!trace)
        return std::nullopt;
    return trace->config;
}

void putJob(std::string &out, const RunnerJob &job)
{
    const python::RunRequest &r = job.request;
    putText(out, r.source);
    putText(out, r.fileName);
    putText(out, r.function);
    putText(out, encodeConfig(r.config));
    putNumber(out, std::uint64_t(r.maxOperations));
    putNumber(out, std::bit_cast<std::uint64_t>(r.timeLimitSeconds));
    putNumber(out, (r.echoOutput ? 1U : 0U) | (job.chooseFunction ? 2U : 0U));
}

bool readJob(Reader &in, RunnerJob &job)
{
    python::RunRequest &r = job.request;
    std::string config;
    std::uint64_t maxOperations = 0, seconds = 0, flags = 0;
    if (!in.text(r.source) || !in.text(r.fileName) || !in.text(r.function) || !in.text(config) ||
        !in.number(maxOperations) || !in.number(seconds) || !in.number(flags) || flags > 3 ||
        maxOperations > (std::uint64_t(1) << 40))
        return false;
    const auto decoded = decodeConfig(config);
    if (!decoded)
        return false;
    r.config = *decoded;
    r.maxOperations = std::int64_t(maxOperations);
    r.timeLimitSeconds = std::bit_cast<double>(seconds);
    r.echoOutput = (flags & 1U) != 0;
    job.chooseFunction = (flags & 2U) != 0;
    return r.timeLimitSeconds >= 0 && r.timeLimitSeconds <= 1e9;
}

} // namespace

ChannelToken newChannelToken()
{
    ChannelToken token{};
    std::size_t got = 0;
    while (got < token.size()) {
        const ssize_t n = getrandom(token.data() + got, token.size() - got, 0);
        if (n > 0)
            got += std::size_t(n);
    }
    return token;
}

std::string encodeRequest(const RunnerRequest &request)
{
    std::string out(reinterpret_cast<const char *>(request.token.data()), request.token.size());
    putText(out, request.runFolder);
    putNumber(out, std::uint64_t(std::max(request.memoryLimitMiB, 0LL)));
    putNumber(out, request.jobs.size());
    for (const RunnerJob &job : request.jobs)
        putJob(out, job);
    return out;
}

std::optional<RunnerRequest> decodeRequest(const std::string &bytes)
{
    RunnerRequest request;
    Reader in(bytes);
    std::uint64_t memory = 0, count = 0;
    if (!in.bytes(request.token.data(), request.token.size()) || !in.text(request.runFolder) ||
        !in.number(memory) || memory > (std::uint64_t(1) << 30) || !in.number(count) ||
        count > 1024)
        return std::nullopt;
    request.memoryLimitMiB = (long long)memory;
    request.jobs.resize(count);
    for (RunnerJob &job : request.jobs)
        if (!readJob(in, job))
            return std::nullopt;
    if (!in.atEnd())
        return std::nullopt;
    return request;
}

void writeReportPieces(const ChannelToken &token, const RunnerReport &report,
                       const std::function<void(std::string_view)> &write)
{
    std::string head(reinterpret_cast<const char *>(token.data()), token.size());
    putNumber(head, std::uint64_t(report.exitCode));
    putText(head, report.message);
    putNumber(head, report.traces.size() + report.tracePieces.size());
    for (const std::string &trace : report.traces) {
        putNumber(head, trace.size());
        write(head);
        head.clear();
        write(trace);
    }
    for (const std::vector<std::string> &pieces : report.tracePieces) {
        std::size_t size = 0;
        for (const std::string &piece : pieces)
            size += piece.size();
        putNumber(head, size);
        write(head);
        head.clear();
        for (const std::string &piece : pieces)
            write(piece);
    }
    if (!head.empty())
        write(head);
}

std::string encodeReport(const ChannelToken &token, const RunnerReport &report)
{
    std::size_t bytes = token.size() + 64 + report.message.size();
    for (const std::string &trace : report.traces)
        bytes += trace.size() + 8; // one buffer of the whole size: a trace is 40 MB
    for (const std::vector<std::string> &pieces : report.tracePieces)
        for (const std::string &piece : pieces)
            bytes += piece.size() + 8;
    std::string out;
    out.reserve(bytes);
    writeReportPieces(token, report, [&out](std::string_view piece) { out.append(piece); });
    return out;
}

std::size_t reportSizeHint(const std::string &head)
{
    Reader in(head);
    ChannelToken skipped{};
    std::uint64_t code = 0, messageSize = 0, count = 0, traceSize = 0;
    std::size_t messageStart = 0;
    if (!in.bytes(skipped.data(), skipped.size()) || !in.number(code) ||
        !in.skipText(messageStart, messageSize) || !in.number(count) || count == 0 ||
        !in.number(traceSize))
        return 0;
    // token, code, message; count, the trace's size, the trace
    const std::uint64_t whole = messageStart + messageSize + 16 + traceSize;
    return std::size_t(std::min<std::uint64_t>(whole, head.max_size() / 2));
}

ChannelReading decodeReport(const ChannelToken &token, std::string bytes)
{
    ChannelReading reading;
    if (bytes.empty())
        return reading;
    reading.tampered = true;
    if (bytes.size() < token.size() || std::memcmp(bytes.data(), token.data(), token.size()) != 0)
        return reading;
    Reader in(bytes);
    ChannelToken skipped{};
    in.bytes(skipped.data(), skipped.size());
    RunnerReport report;
    std::uint64_t code = 0, count = 0;
    if (!in.number(code) || code > 255 || !in.text(report.message) || !in.number(count) ||
        count > 1024)
        return reading;
    report.traces.resize(count);
    for (std::size_t i = 0; i + 1 < report.traces.size(); ++i)
        if (!in.text(report.traces[i]))
            return reading;
    // The last trace (a run's only one) keeps the buffer: moved to its front, not copied.
    std::size_t start = 0;
    std::uint64_t size = 0;
    if (count > 0 && !in.skipText(start, size))
        return reading;
    if (!in.atEnd())
        return reading;
    if (count > 0) {
        bytes.erase(0, start);
        bytes.resize(std::size_t(size));
        report.traces.back() = std::move(bytes);
    }
    report.exitCode = int(code);
    reading.report = std::move(report);
    reading.tampered = false;
    return reading;
}

} // namespace rankstep::cli
