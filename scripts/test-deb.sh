#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Usage: scripts/test-deb.sh [BUILD_DIR] [CMAKE_OPTION...]
# Builds the .deb (BUILD_DIR defaults to build-deb/, configured without tests and benchmarks),
# installs it with apt into a fresh minimal Debian 12 root made by debootstrap, and runs both
# programs there: the runner solves the DDP lesson, the app runs it offscreen and saves a
# screenshot to BUILD_DIR/deb-test/shot.png. Needs root (debootstrap, chroot, mount) and the
# network (the Debian mirror). The bare root is kept in $RANKSTEP_DEB_CACHE
# (/var/cache/rankstep-debootstrap) with the downloaded packages, so reruns take a minute or two;
# each run installs into a new copy of it, removed afterwards.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${RANKSTEP_DEB_CACHE:-/var/cache/rankstep-debootstrap}"
MIRROR="${RANKSTEP_DEB_MIRROR:-http://deb.debian.org/debian}"

fail() {
    echo "test-deb: ERROR: $*" >&2
    exit 1
}

if [[ $EUID -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 || fail "run as root: debootstrap, chroot and mount need it"
    exec sudo --preserve-env=RANKSTEP_DEB_CACHE,RANKSTEP_DEB_MIRROR "$0" "$@"
fi

BUILD_DIR="$ROOT/build-deb"
if [[ $# -gt 0 && "$1" != -* ]]; then
    BUILD_DIR="$(realpath -m "$1")"
    shift
fi
OUT="$BUILD_DIR/deb-test"

# The tools of this test only, not of the project: debootstrap, and dpkg-shlibdeps for CPack.
tools=()
command -v debootstrap >/dev/null 2>&1 || tools+=(debootstrap)
command -v dpkg-shlibdeps >/dev/null 2>&1 || tools+=(dpkg-dev)
if [[ ${#tools[@]} -gt 0 ]]; then
    echo "test-deb: installing ${tools[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${tools[@]}" \
        || fail "apt-get install ${tools[*]} failed"
fi

echo "test-deb: building the package in $BUILD_DIR"
if [[ ! -f "$BUILD_DIR/CMakeCache.txt" ]]; then
    set -- -DCMAKE_BUILD_TYPE=Release -DRANKSTEP_BUILD_TESTS=OFF -DRANKSTEP_BUILD_BENCH=OFF "$@"
fi
cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DPython3_EXECUTABLE=/usr/bin/python3 "$@"
# Only what the package holds, so an existing build tree with tests does not build them all.
cmake --build "$BUILD_DIR" -j"$(nproc)" --target rankstep rankstep-cli rankstep_icons
rm -f "$BUILD_DIR"/package/rankstep_*.deb
(cd "$BUILD_DIR" && cpack --config CPackConfig.cmake) || fail "cpack failed"
DEBS=("$BUILD_DIR"/package/rankstep_*.deb)
[[ -f "${DEBS[0]}" ]] || fail "cpack made no rankstep_*.deb in $BUILD_DIR/package"
DEB="${DEBS[0]}"
dpkg-deb --info "$DEB"

# A bare Debian 12, made once.
BASE="$CACHE/bookworm"
if [[ ! -f "$CACHE/bookworm.complete" ]]; then
    echo "test-deb: debootstrap of a minimal bookworm into $BASE (once)"
    rm -rf "$BASE"
    mkdir -p "$CACHE"
    debootstrap --variant=minbase bookworm "$BASE" "$MIRROR" || fail "debootstrap failed"
    cat >"$BASE/etc/apt/sources.list" <<SOURCES
deb $MIRROR bookworm main
deb $MIRROR bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
SOURCES
    touch "$CACHE/bookworm.complete"
fi

# Each run installs into a new copy of the bare root. /proc, a new devpts instance and the package
# cache are mounted in it, never the host's /dev (debootstrap made the device nodes), and the copy
# is removed only once nothing is mounted under it.
mkdir -p "$CACHE/archives/partial"
RUN="$(mktemp -d "$CACHE/run.XXXXXX")"
cleanup() {
    local mounted
    for mounted in "$RUN/var/cache/apt/archives" "$RUN/dev/pts" "$RUN/proc"; do
        if mountpoint -q "$mounted"; then umount "$mounted" || umount -l "$mounted"; fi
    done
    if findmnt -rn -o TARGET | grep -q "^$RUN"; then
        echo "test-deb: something is still mounted under $RUN; not removing it" >&2
    else
        rm -rf "$RUN"
    fi
}
trap cleanup EXIT
cp -a "$BASE/." "$RUN/"
mount -t proc proc "$RUN/proc"
mkdir -p "$RUN/dev/pts"
mount -t devpts -o newinstance,ptmxmode=0666 devpts "$RUN/dev/pts" # apt's terminal log
mount --bind "$CACHE/archives" "$RUN/var/cache/apt/archives"
cp /etc/resolv.conf "$RUN/etc/resolv.conf"
printf '#!/bin/sh\nexit 101\n' >"$RUN/usr/sbin/policy-rc.d"
chmod +x "$RUN/usr/sbin/policy-rc.d"
cp "$DEB" "$RUN/tmp/"

# Real runs and the PyTorch lessons need PyTorch; the rest works without it.
dpkg-deb --field "$DEB" Recommends | grep -q python3-torch \
    || fail "the package does not recommend python3-torch"
echo "test-deb: installing $(basename "$DEB") in a clean Debian 12 root"
chroot "$RUN" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    /bin/bash -euo pipefail -c '
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -q >/dev/null
        # Without Recommends: the Depends line alone must be enough to run.
        apt-get install -y -q --no-install-recommends "/tmp/$(basename "$0")" >/tmp/apt.txt
        grep -E "newly installed|^Need to get|^Setting up rankstep" /tmp/apt.txt
        ' "$DEB" || fail "apt-get install of the package failed"

echo "test-deb: running the installed programs"
mkdir -p "$OUT"
rm -f "$OUT/shot.png"
chroot "$RUN" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp/home LANG=C.UTF-8 \
    /bin/bash -euo pipefail -c '
        mkdir -p "$HOME"
        echo "\$ command -v rankstep rankstep-cli"; command -v rankstep rankstep-cli
        # The menu entry named after the AppStream id, the man pages compressed.
        for file in /usr/share/applications/io.github.rankstep.Rankstep.desktop \
                    /usr/share/metainfo/io.github.rankstep.Rankstep.metainfo.xml \
                    /usr/share/man/man1/rankstep.1.gz /usr/share/man/man1/rankstep-cli.1.gz; do
            test -f "$file" || { echo "not installed: $file"; exit 1; }
        done
        echo "\$ rankstep-cli lesson ddp --solution"
        rankstep-cli lesson ddp --solution | tee /tmp/ddp.txt
        grep -q "Timesteps: 5.1" /tmp/ddp.txt
        echo "\$ rankstep-cli lessons --lessons /usr/share/rankstep/lessons"
        rankstep-cli lessons --lessons /usr/share/rankstep/lessons
        solution=/usr/share/rankstep/lessons/30-ddp/solution.py
        echo "\$ QT_QPA_PLATFORM=offscreen rankstep --lesson ddp --code $solution --run --step end --screenshot /tmp/shot.png"
        QT_QPA_PLATFORM=offscreen QT_LOGGING_RULES=rankstep.run.debug=true \
            timeout 120 rankstep --lesson ddp --code "$solution" --run --step end \
            --screenshot /tmp/shot.png 2>&1 | tee /tmp/app.txt
        grep -q "starting \"/usr/bin/rankstep-cli\"" /tmp/app.txt
        test -s /tmp/shot.png
        ' || fail "the installed programs did not run as expected"
cp "$RUN/tmp/shot.png" "$OUT/shot.png"
echo "test-deb: passed; $(basename "$DEB") ($(du -h "$DEB" | cut -f1)) installs and runs on" \
    "a clean Debian 12; the app's screenshot: $OUT/shot.png"
