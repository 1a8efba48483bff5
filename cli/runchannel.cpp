// SPDX-License-Identifier: MIT
#include "runchannel.h"

#include "arguments.h"

#include <sys/random.h>

#include <algorithm>
#include <cstring>
#include <mutex>

namespace rankstep::cli {
namespace {

std::mutex g_filesMutex;
bool g_keepFiles = false;
std::vector<std::pair<std::string, std::string>> g_files;
std::optional<FigureJob> g_figures;

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
    bool atEnd() const { return m_at == m_bytes.size(); }
    void skip(std::size_t count) { m_at += count; }

private:
    const std::string &m_bytes;
    std::size_t m_at = 0;
};

bool readFigures(Reader &in, RunReport &report)
{
    FigureJob job;
    std::uint64_t count = 0;
    if (!in.number(count))
        return false;
    for (std::uint64_t i = 0; i < count; ++i) {
        std::string option;
        std::string value;
        if (!in.text(option) || !in.text(value))
            return false;
        job.options.emplace_back(std::move(option), std::move(value));
    }
    std::uint64_t hasTarget = 0;
    std::uint64_t target = 0;
    if (!in.text(job.title) || !in.number(hasTarget) || hasTarget > 1 || !in.number(target) ||
        !in.text(job.trace))
        return false;
    if (hasTarget == 1)
        job.memoryTarget = std::int64_t(target);
    report.figures = std::move(job);
    return true;
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

std::string encodeReport(const ChannelToken &token, const RunReport &report)
{
    std::size_t bytes = token.size() + 64; // one buffer of the whole size: a trace is 40 MB
    for (const auto &[path, contents] : report.files)
        bytes += path.size() + contents.size() + 20;
    if (report.figures) {
        bytes += report.figures->trace.size() + report.figures->title.size() + 64;
        for (const auto &[option, value] : report.figures->options)
            bytes += option.size() + value.size() + 20;
    }
    std::string out;
    out.reserve(bytes);
    out.append(reinterpret_cast<const char *>(token.data()), token.size());
    putNumber(out, std::uint64_t(report.exitCode));
    putNumber(out, report.files.size());
    for (const auto &[path, contents] : report.files) {
        putText(out, path);
        putText(out, contents);
    }
    putNumber(out, report.figures ? 1 : 0);
    if (report.figures) {
        const FigureJob &job = *report.figures;
        putNumber(out, job.options.size());
        for (const auto &[option, value] : job.options) {
            putText(out, option);
            putText(out, value);
        }
        putText(out, job.title);
        putNumber(out, job.memoryTarget ? 1 : 0);
        putNumber(out, std::uint64_t(job.memoryTarget.value_or(0)));
        putText(out, job.trace);
    }
    return out;
}

ChannelReading decodeReport(const ChannelToken &token, const std::string &bytes)
{
    ChannelReading reading;
    if (bytes.empty())
        return reading;
    reading.tampered = true;
    if (bytes.size() < token.size() || std::memcmp(bytes.data(), token.data(), token.size()) != 0)
        return reading;
    Reader in(bytes);
    in.skip(token.size());
    RunReport report;
    std::uint64_t code = 0;
    std::uint64_t count = 0;
    if (!in.number(code) || code > 255 || !in.number(count))
        return reading;
    for (std::uint64_t i = 0; i < count; ++i) {
        std::string path;
        std::string contents;
        if (!in.text(path) || !in.text(contents))
            return reading;
        report.files.emplace_back(std::move(path), std::move(contents));
    }
    std::uint64_t hasFigures = 0;
    if (!in.number(hasFigures) || hasFigures > 1 || (hasFigures == 1 && !readFigures(in, report)))
        return reading;
    if (!in.atEnd())
        return reading;
    report.exitCode = int(code);
    reading.report = std::move(report);
    reading.tampered = false;
    return reading;
}

void keepDeliveredFiles()
{
    std::lock_guard lock(g_filesMutex);
    g_keepFiles = true;
}

void deliverFile(const std::string &path, std::string contents)
{
    {
        std::lock_guard lock(g_filesMutex);
        if (g_keepFiles) {
            g_files.emplace_back(path, std::move(contents));
            return;
        }
    }
    writeFile(path, contents);
}

bool deliverFigures(FigureJob job)
{
    std::lock_guard lock(g_filesMutex);
    if (!g_keepFiles)
        return false;
    g_figures = std::move(job);
    return true;
}

RunReport takeDelivered(int exitCode)
{
    std::lock_guard lock(g_filesMutex);
    return {exitCode, std::exchange(g_files, {}), std::exchange(g_figures, std::nullopt)};
}

} // namespace rankstep::cli
