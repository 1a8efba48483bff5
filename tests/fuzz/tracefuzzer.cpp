// SPDX-License-Identifier: MIT
// libFuzzer targets over both trace readers (built twice: RANKSTEP_TRACE_BINARY selects
// io::traceFromBinary, else io::traceFromJson). Any bytes give a trace or a Usage error; a trace
// that reads is within checkTraceLimits and survives writing and reading back unchanged.
#include "fuzzcheck.h"

#include "core/io/tracebinary.h"
#include "core/io/tracejson.h"
#include "core/io/tracelimits.h"

#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace rankstep;
    using fuzz::require;
    const std::string_view bytes(reinterpret_cast<const char *>(data), size);
    io::TraceJsonOptions options;
#ifdef RANKSTEP_TRACE_BINARY
    auto read = io::traceFromBinary(bytes, &options);
#else
    auto read = io::traceFromJson(bytes, options);
#endif
    if (!read) {
        require(read.error().kind == core::ErrorKind::Usage, "a bad trace is a Usage error");
        require(!read.error().message.empty(), "a bad trace has a message");
        return 0;
    }
    require(!io::checkTraceLimits(*read), "a trace that reads is within the limits");
    const std::string json = io::traceToJson(*read, options);
    auto again = io::traceFromJson(json);
    require(again.ok(), "what traceToJson writes reads back");
    require(io::traceToJson(*again, options) == json, "JSON round trip is exact");
    auto binary = io::traceFromBinary(io::traceToBinary(*read, options));
    require(binary.ok(), "what traceToBinary writes reads back");
    require(io::traceToJson(*binary, options) == json, "binary round trip is exact");
    return 0;
}
