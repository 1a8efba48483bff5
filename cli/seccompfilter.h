// SPDX-License-Identifier: MIT
// The seccomp layer of the sandbox (cli/sandbox.h), through libseccomp.
#pragma once

namespace rankstep::cli {

struct SeccompOptions {
    bool network = false;   // a real run's rank: TCP/IP sockets allowed, no other
    bool noNewCode = false; // no memory mapped executable from now on (no library, no .so written
                            // by the code): every C extension the run may use is loaded before
    bool sanitized = false; // a sanitizer build: its tracer and symbolizer need processes and exec
};

// Installs the filter on every thread of the process, for good; false when the kernel or
// libseccomp refused it.
bool applySeccomp(const SeccompOptions &options);

} // namespace rankstep::cli
