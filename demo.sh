#!/usr/bin/env bash
# The main job: a two-node failover demo in the namespace lab, with a timeline.
# Fresh Debian 12, as root: installs packages, builds cli/target/hb.jar, runs lab/demo.sh.
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh
mvn -B -q -ntp package -DskipTests
exec lab/demo.sh "$@"
