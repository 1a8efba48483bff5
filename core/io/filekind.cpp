// SPDX-License-Identifier: MIT
#include "filekind.h"

#include <cstddef>
#include <string_view>

namespace rankstep::io {
namespace {

constexpr std::size_t kHead = std::size_t(64) << 10;

std::size_t skipSpace(std::string_view text, std::size_t at)
{
    while (at < text.size() &&
           (text[at] == ' ' || text[at] == '\n' || text[at] == '\r' || text[at] == '\t'))
        ++at;
    return at;
}

// The string value of the first member `key` in `text` ("" when none, or not a plain string),
// and where that member starts.
std::string_view valueOf(std::string_view text, std::string_view key, std::size_t &where)
{
    where = text.find(key);
    if (where == std::string_view::npos)
        return {};
    std::size_t at = skipSpace(text, where + key.size());
    if (at >= text.size() || text[at] != ':')
        return {};
    at = skipSpace(text, at + 1);
    if (at >= text.size() || text[at] != '"')
        return {};
    const std::size_t end = text.find('"', at + 1);
    return end == std::string_view::npos ? std::string_view() : text.substr(at + 1, end - at - 1);
}

} // namespace

FileKind sniffFileKind(std::string_view head)
{
    if (head.substr(0, 4) == "RSTB")
        return FileKind::BinaryTrace;
    head = head.substr(0, kHead);
    if (head.substr(0, 3) == "\xEF\xBB\xBF")
        head.remove_prefix(3);
    const std::size_t start = skipSpace(head, 0);
    if (start >= head.size() || (head[start] != '{' && head[start] != '['))
        return FileKind::Other;
    if (head[start] == '[') // torch.profiler 1.13's own export: a bare list of events
        return head.find("\"ph\"") != std::string_view::npos ? FileKind::ChromeTrace
                                                             : FileKind::OtherJson;
    std::size_t formatAt = 0, clockAt = 0;
    const std::string_view format = valueOf(head, "\"format\"", formatAt);
    const std::size_t events = head.find("\"traceEvents\"");
    if (events != std::string_view::npos && (format.empty() || events < formatAt))
        return FileKind::ChromeTrace;
    if (format == "rankstep-trace")
        return valueOf(head, "\"clock\"", clockAt) == "seconds" ? FileKind::RealReport
                                                                : FileKind::TraceJson;
    if (format == "rankstep-demonstration")
        return FileKind::Demonstration;
    return FileKind::OtherJson;
}

} // namespace rankstep::io
