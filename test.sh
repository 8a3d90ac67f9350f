#!/usr/bin/env bash
# Runs every test: unit tests (surefire) and the root-only lab/integration tests (failsafe).
# Fresh Debian 12, as root: installs packages first.
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh
exec mvn -B -ntp verify "$@"
