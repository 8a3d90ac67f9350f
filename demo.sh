#!/usr/bin/env bash
# The main job: a two-node failover demo in the namespace lab, with a timeline.
# Fresh Debian 12, as root: installs packages, builds cli/target/hb.jar, runs lab/demo.sh
# (lab id "demo", override with LAB_ID=...).
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh
build_log=$(mktemp)
trap 'rm -f "$build_log"' EXIT
echo "demo: building cli/target/hb.jar ..."
if ! mvn -B -q -ntp package -DskipTests >"$build_log" 2>&1; then
  cat "$build_log" >&2
  echo "demo: build failed" >&2
  exit 1
fi
lab/demo.sh "$@"
