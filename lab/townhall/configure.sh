#!/usr/bin/env bash
# configure.sh — after `lab.sh up` of a town hall lab (LAB_NODE_INIT=<repo>/lab/townhall/node-init.sh,
# LAB_PRIVATE_RUN=1, LAB_HARESOURCES from lab/townhall/haresources): installs the town hall's
# haresources, sync.yaml, jheartbeat.yaml (monitoring) and resource.d/townhall-db into both nodes' config dirs.
# Environment: as lab.sh (LAB_ID, LAB_RUN); TOWNHALL_SYNC_SCHEDULE (default every 5 s, 6-field cron);
# TOWNHALL_HARESOURCES (default haresources, the CI subset; haresources.full: every service and the
# host names, whose DNS key is <run>/named/ddns.key: see start-named.sh).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LAB=$HERE/../lab.sh
ssh_cmd=$("$LAB" ssh-cmd)
run=$(eval "$("$LAB" env)"; echo "$LAB_RUN")
[[ -n $run && -d $run ]] || { echo "configure.sh: lab run dir not found (is the lab up?)" >&2; exit 1; }
for n in 1 2; do
    cfg=$run/node$n/ha.d
    install -m 755 "$HERE/resource.d/townhall-db" "$HERE/resource.d/townhall-tomcat" "$cfg/resource.d/"
    grep -v '^#' "$HERE/${TOWNHALL_HARESOURCES:-haresources}" | grep . | sed "s|@KEY@|$run/named/ddns.key|g" \
        >"$cfg/haresources"
    sed -e "s|@SSH@|$ssh_cmd|" -e "s|@CONFIG@|$cfg|" -e "s|@SCHEDULE@|${TOWNHALL_SYNC_SCHEDULE:-*/5 * * * * *}|" \
        "$HERE/sync.yaml" >"$cfg/sync.yaml"
    cat "$HERE/jheartbeat.yaml" >>"$cfg/jheartbeat.yaml"
    chmod 644 "$cfg/jheartbeat.yaml"
done
echo "configure.sh: town hall config installed in $run/node1/ha.d and $run/node2/ha.d"
