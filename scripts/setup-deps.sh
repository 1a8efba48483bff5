#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian 12 packages Rankstep needs to build, test and run.
# Works as root, or through sudo otherwise; does nothing when all are installed.
# --fuzz adds what scripts/fuzz.sh needs: clang 16 and its libFuzzer (clang 14 cannot compile
# std::source_location of libstdc++ 12).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

fail() {
    echo "setup-deps: ERROR: $*" >&2
    exit 1
}

PACKAGES=(
    build-essential cmake ninja-build
    qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev
    qcoro-qt6-dev libqscintilla2-qt6-dev
    pybind11-dev python3-dev libseccomp-dev libgtest-dev libgmock-dev libbenchmark-dev
    xvfb xauth fonts-dejavu-core
    git clang clang-format clang-tidy libclang-rt-14-dev
    python3-torch  # `rankstep-cli real`: torch.distributed with gloo; the PyTorch lessons
    # The translations (Qt6LinguistTools, lupdate/lrelease), man pages from --help,
    # and the checks of the desktop entry and the AppStream metainfo.
    qt6-tools-dev qt6-l10n-tools help2man man-db desktop-file-utils appstream
    qt6-translations-l10n  # Qt's own texts (QMessageBox's buttons) in the translation's language
    libcli11-dev  # rankstep-cli's arguments
)
if [[ "${1:-}" == "--fuzz" ]]; then
    PACKAGES+=(clang-16 libclang-rt-16-dev)
fi

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
    fail "dpkg-query and apt-get not found: this script supports Debian 12 only."
fi

missing=()
for pkg in "${PACKAGES[@]}"; do
    status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)"
    if [[ "$status" != "install ok installed" ]]; then
        missing+=("$pkg")
    fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
    echo "setup-deps: all ${#PACKAGES[@]} packages already installed."
    exit 0
fi

if [[ $EUID -eq 0 ]]; then
    SUDO=()
elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
else
    fail "not root and sudo is not installed; run as root: apt-get install ${missing[*]}"
fi

echo "setup-deps: installing ${missing[*]}"
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update \
    || fail "apt-get update failed (network, or package sources in /etc/apt?)"
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    "${missing[@]}" \
    || fail "apt-get install failed for: ${missing[*]}"
echo "setup-deps: done."
