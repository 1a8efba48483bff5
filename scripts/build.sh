#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Usage: scripts/build.sh [BUILD_DIR] [CMAKE_OPTION...]
# Configures with Ninja (BUILD_DIR defaults to build/ in the repository) and builds.
# Options such as -DRANKSTEP_WERROR=ON are passed to the configure step.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

BUILD_DIR="$ROOT/build"
if [[ $# -gt 0 && "$1" != -* ]]; then
    BUILD_DIR="$1"
    shift
fi

# Debian's Python is embedded, never the pyenv or venv one first on PATH.
cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DPython3_EXECUTABLE=/usr/bin/python3 "$@"
cmake --build "$BUILD_DIR" -j"$(nproc)"
