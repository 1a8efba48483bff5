// SPDX-License-Identifier: MIT
#include "error.h"

namespace rankstep::core {

const char *errorKindName(ErrorKind kind)
{
    switch (kind) {
        case ErrorKind::Check:
            return "check";
        case ErrorKind::Exception:
            return "exception";
        case ErrorKind::Syntax:
            return "syntax";
        case ErrorKind::Deadlock:
            return "deadlock";
        case ErrorKind::Mismatch:
            return "mismatch";
        case ErrorKind::Stopped:
            return "stopped";
        case ErrorKind::Usage:
            return "usage";
        case ErrorKind::Internal:
            return "internal";
    }
    return "internal";
}

} // namespace rankstep::core
