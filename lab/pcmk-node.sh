#!/bin/sh
# pcmk-node.sh N RUN EXPORT: start Corosync 3 + Pacemaker 2 on lab node N from the files
# 'hb export pacemaker' wrote to EXPORT (PacemakerClusterDrillIT; docs/reference.md, "Outgrowing two nodes").
# Runs inside the node (nsenter -t <holder> -n -u -m): the holder's mount namespace is private,
# so the cluster's fixed paths get their own tmpfs there and the host's stay untouched:
# /etc/corosync, /var/lib/pacemaker, /var/lib/corosync, /var/log/{pacemaker,corosync}, /run and
# /dev/shm (libqb's IPC files; its sockets are abstract, so per network namespace). The OCF tree is
# a copy (RUN/pcmk/ocf) with the exported jheartbeat/hb-script wrapper added, bind-mounted over
# /usr/lib/ocf/resource.d. The CIB names node1's resource.d scripts by node1's path: node 2 sees
# its own ha.d and state directory there. corosync and pacemakerd run in the background; lab.sh
# poweroff/down ends them with every process of the namespace.
set -eu
n=$1
RUN=$2
OUT=$3
P=$RUN/pcmk
mkdir -p "$P" "$RUN/node$n/pcmk"
[ -f "$P/authkey" ] || corosync-keygen -k "$P/authkey" >/dev/null 2>&1
if [ ! -d "$P/ocf" ]; then
    cp -a /usr/lib/ocf/resource.d "$P/ocf.tmp"
    if [ -f "$OUT/resource.d/jheartbeat/hb-script" ]; then
        install -D -m 755 "$OUT/resource.d/jheartbeat/hb-script" "$P/ocf.tmp/jheartbeat/hb-script"
    fi
    mv "$P/ocf.tmp" "$P/ocf"
fi
for m in /etc/corosync /var/lib/pacemaker /var/lib/corosync /var/log/pacemaker /var/log/corosync /run /dev/shm; do
    mount -t tmpfs -o mode=755 "pcmk-node$n" "$m"
done
chmod 1777 /dev/shm
cp "$OUT/corosync.conf" /etc/corosync/corosync.conf
install -m 400 "$P/authkey" /etc/corosync/authkey
mkdir -p /var/lib/pacemaker/cib /var/lib/pacemaker/pengine /var/lib/pacemaker/blackbox \
    /var/lib/pacemaker/cores /run/crm /run/lock /run/resource-agents
# without cib.xml the cluster starts empty (to try loading it live with cibadmin)
[ ! -f "$OUT/cib.xml" ] || install -m 600 -o hacluster -g haclient "$OUT/cib.xml" /var/lib/pacemaker/cib/cib.xml
chown -R hacluster:haclient /var/lib/pacemaker /var/log/pacemaker /run/crm
mount --bind "$P/ocf" /usr/lib/ocf/resource.d
mkdir -p "$RUN/node1/state" "$RUN/node$n/state"
if [ "$n" != 1 ]; then
    mount --bind "$RUN/node$n/ha.d" "$RUN/node1/ha.d"
    mount --bind "$RUN/node$n/state" "$RUN/node1/state"
fi
corosync -f >"$RUN/node$n/pcmk/corosync.out" 2>&1 &
sleep 1
/usr/sbin/pacemakerd -f >"$RUN/node$n/pcmk/pacemakerd.out" 2>&1 &
