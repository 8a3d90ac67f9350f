#!/bin/sh
# service-start.sh RUN_DIR HB_JAR — the lab's stand-in for "systemctl enable --now jheartbeat", for
# hb setup --start-command inside a lab node (there is no systemd in the lab). Run inside a jheartbeat
# node (its UTS host name is nodeN): starts the daemon as lab.sh start does (own session, pid in
# RUN_DIR/nodeN/daemon.pid, output appended to RUN_DIR/nodeN/daemon.out, so lab.sh stop/poweroff/down
# find it) and waits up to 20 s for its control socket. Exit 0: started (or already running); 1: failed.
set -u
run=${1:?usage: service-start.sh RUN_DIR HB_JAR}
jar=${2:?usage: service-start.sh RUN_DIR HB_JAR}
n=$(hostname)
d=$run/$n
[ -d "$d" ] || { echo "service-start.sh: $d is not a lab node directory (host name $n)" >&2; exit 1; }
if [ -s "$d/daemon.pid" ] && kill -0 "$(cat "$d/daemon.pid")" 2>/dev/null; then
    # running: make it re-read its files, as systemctl reload jheartbeat does
    kill -HUP "$(cat "$d/daemon.pid")"
    exit 0
fi
mkdir -p "$d/state"
rm -f "$d/daemon.pid" "$d/state/control.sock"
echo "=== $(date '+%F %T') service-start.sh: $n" >>"$d/daemon.out"
# shellcheck disable=SC2016  # expanded by the inner sh
LABWEB_STATE_DIR=$d/state setsid sh -c 'echo $$ >"$1"; shift; exec "$@"' daemon "$d/daemon.pid" \
    env --default-signal=HUP java -Xmx128m -XX:+UseSerialGC -jar "$jar" daemon --config-dir "$d/ha.d" \
    --state-dir "$d/state" --node-name "$n" </dev/null >>"$d/daemon.out" 2>&1 &
i=0
while [ "$i" -lt 400 ]; do
    [ -S "$d/state/control.sock" ] && exit 0
    if [ -s "$d/daemon.pid" ] && ! kill -0 "$(cat "$d/daemon.pid")" 2>/dev/null; then
        tail -n 5 "$d/daemon.out" >&2
        echo "service-start.sh: the daemon on $n exited (see $d/daemon.out)" >&2
        exit 1
    fi
    sleep 0.05
    i=$((i + 1))
done
echo "service-start.sh: no control socket on $n after 20 s (see $d/daemon.out)" >&2
exit 1
