#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what is missing, builds, and starts the app. Arguments go to the app
# (for example --screenshot shot.png). Without a display it runs under Xvfb.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

"$ROOT/scripts/setup-deps.sh"
"$ROOT/scripts/build.sh" "$ROOT/build"

APP="$ROOT/build/gui/rankstep"
[[ -x "$APP" ]] || { echo "run-app: $APP was not built (RANKSTEP_BUILD_GUI=OFF?)" >&2; exit 1; }

if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" && -z "${QT_QPA_PLATFORM:-}" ]]; then
    exec xvfb-run -a -s "-screen 0 1600x1000x24" "$APP" "$@"
fi
exec "$APP" "$@"
