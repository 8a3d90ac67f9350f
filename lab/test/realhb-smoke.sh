#!/usr/bin/env bash
# realhb-smoke.sh — two REAL Heartbeat 3.0.6 nodes (Debian package) in the
# lab, over the null-modem cable only (LAB_MEDIA=serial by default):
# both reach `active`, node1 serves the VIP, line noise does not hurt,
# power-off of node1 -> node2 serves the VIP. No jheartbeat involved.
#
#   SMOKE_ID (lab id, default rhbsmoke)  SMOKE_MEDIA (default serial)
#
# Needs root and `apt-get install heartbeat`. Exit 0 iff all checks passed,
# 77 if real heartbeat is not installed. Tears the lab down on every exit.
set -euo pipefail

LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
L=$LAB_DIR/lab.sh
export LAB_ID=${SMOKE_ID:-rhbsmoke} LAB_MEDIA=${SMOKE_MEDIA:-serial}
export LAB_NODE1=heartbeat LAB_NODE2=heartbeat LAB_HTTP_TIMEOUT=0.3
fails=0

[[ -x /usr/libexec/heartbeat/heartbeat ]] || {
    echo "SKIP: real heartbeat not installed (apt-get install heartbeat)"
    exit 77
}

ok() { echo "ok   - $*"; }
bad() {
    echo "FAIL - $*"
    fails=$((fails + 1))
}
now_ms() { echo $(($(date +%s%N) / 1000000)); }
# wait_for SECONDS CMD...: poll CMD every 0.2 s; prints elapsed ms
wait_for() {
    local limit=$(($1 * 1000)) t0
    shift
    t0=$(now_ms)
    while (($(now_ms) - t0 < limit)); do
        if "$@" >/dev/null 2>&1; then
            echo $(($(now_ms) - t0))
            return 0
        fi
        sleep 0.2
    done
    return 1
}
sees() { [[ $("$L" clstatus "$1" nodestatus "$2" 2>/dev/null) == "$3" ]]; }
serves() { [[ $("$L" http 2>/dev/null) == "$1" ]]; }
alive() { kill -0 "$1" 2>/dev/null; }

cleanup() {
    local rc=$?
    if ((rc != 0 || fails != 0)) && [[ -n ${N1_HA_LOG:-} && -n ${N2_HA_LOG:-} ]]; then
        echo "--- node1 ha-log (tail)"
        tail -n 15 "$N1_HA_LOG" 2>/dev/null || true
        echo "--- node2 ha-log (tail)"
        tail -n 15 "$N2_HA_LOG" 2>/dev/null || true
    fi
    "$L" down >/dev/null 2>&1 || "$L" down || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM
"$L" down >/dev/null 2>&1 || true

echo "# real heartbeat x2, lab '$LAB_ID', LAB_MEDIA=$LAB_MEDIA"
"$L" up 2>/dev/null
"$L" start node1 2>/dev/null
"$L" start node2 2>/dev/null
eval "$("$L" env)" # after start: N1_DAEMON_PID, N2_DAEMON_PID
if ms=$(wait_for 40 sees node1 node2 active) && sees node2 node1 active; then
    ok "both nodes active ($ms ms after start)"
else
    bad "nodes did not reach active"
fi
if [[ $LAB_MEDIA != ucast ]]; then
    if [[ $("$L" clstatus node2 hblinkstatus node1 "$N2_TTY" 2>/dev/null) == up ]]; then
        ok "node2: serial link node1:$N2_TTY up"
    else
        bad "serial link not up"
    fi
fi
if ms=$(wait_for 60 serves node1); then
    ok "VIP served by node1 ($ms ms later)"
else
    bad "VIP not served by node1"
fi

if [[ $LAB_MEDIA != ucast ]]; then
    "$L" serialgarbage node2 4096 2>/dev/null
    "$L" serialgarbage node1 4096 2>/dev/null
    sleep 2
    if alive "$N1_DAEMON_PID" && alive "$N2_DAEMON_PID" && sees node2 node1 active &&
        sees node1 node2 active && serves node1; then
        ok "4 KiB of line noise each way: both alive, active, VIP on node1"
    else
        bad "line noise hurt the cluster"
    fi
fi

t0=$(now_ms)
"$L" poweroff node1 2>/dev/null
if ms=$(wait_for 30 serves node2); then
    ok "power-off node1 -> VIP served by node2 after $ms ms"
else
    bad "no takeover by node2"
fi
for line in 'node node1: is dead' 'mach_down takeover complete'; do
    if grep -q "$line" "$N2_HA_LOG"; then ok "node2 log: $line"; else bad "node2 log lacks '$line'"; fi
done
echo "# poweroff of node1 at $(date -d "@$((t0 / 1000)).$((t0 % 1000))" +%T.%3N); node2 log:"
grep -E 'is dead|Link node1:.* dead|takeover complete' "$N2_HA_LOG" | sed 's/^/#   /'

echo
if ((fails)); then
    echo "realhb-smoke: $fails check(s) FAILED"
    exit 1
fi
echo "realhb-smoke: all checks passed"
