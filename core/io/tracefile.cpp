// SPDX-License-Identifier: MIT
#include "tracefile.h"

#include "tracebinary.h"

#include "core/regularfile.h"

namespace rankstep::io {

core::Result<core::Trace> traceFromFile(const std::string &path, TraceJsonOptions *options)
{
    auto bytes = core::readRegularFile(path, core::kMaxTraceFileBytes);
    if (!bytes)
        return bytes.error();
    if (bytes->rfind("RSTB", 0) == 0)
        return traceFromBinary(*bytes, options);
    TraceJsonOptions read;
    auto trace = traceFromJson(*bytes, read);
    if (trace && options != nullptr)
        *options = std::move(read);
    return trace;
}

} // namespace rankstep::io
