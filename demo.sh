#!/usr/bin/env bash
# The main job: a two-node failover demo in the namespace lab, with a timeline.
# Fresh Debian 12, as root: installs packages, builds cli/target/hb.jar, runs lab/demo.sh
# (lab id "demo", override with LAB_ID=...). "./demo.sh townhall": the town hall demo instead;
# any other argument is refused (exit 2) before anything runs.
set -euo pipefail
cd "$(dirname "$0")"
# refused before the set-up and the build, not after them (lab/demo.sh checks the same)
if (($# > 1)) || [[ $# == 1 && $1 != townhall ]]; then
    echo "demo: unknown argument '$*' (accepted: townhall, or nothing)" >&2
    exit 2
fi
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
