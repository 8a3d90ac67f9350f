#!/bin/bash
# upgrade-maintenance-check.sh: a manual check (root, the lab; not run by CI) of the package's upgrade
# path, which must move no resource group: the upgrade blocks of packaging/src/deb/control/prerm ("upgrade") and postinst
# ("configure OLD") run on the host against node1 of a lab pair, /usr/sbin/hb pointing at node1's
# daemon, the marker in a temp dir, the service restart done by lab.sh stop/start node1. Meanwhile
# the client asks the VIP every 100 ms and node2's addresses are checked. Prints the samples (all
# must be node1), the daemons' maintenance lines and their "Stopping resource group" counts (0).
# Needs cli/target/hb.jar (mvn package). Everything it makes is removed on exit (lab.sh down, the
# temp dir); the run dir stays under cli/target/lab-run/upgcheck.
set -u
REPO=$(cd "$(dirname "$0")/../../../.." && pwd)
U=$(mktemp -d)
export LAB_ID=upg$((RANDOM % 10000)) LAB_RUN=$REPO/cli/target/lab-run/upgcheck HB_JAR=$REPO/cli/target/hb.jar
export LAB_KEEPALIVE=500ms LAB_DEADTIME=3 LAB_INITDEAD=6
LAB=$REPO/lab/lab.sh
trap '$LAB down >/dev/null 2>&1; rm -rf "$U"' EXIT
$LAB up >/dev/null || exit 1
$LAB start node1 && $LAB start node2 || exit 1
for i in $(seq 100); do [ "$($LAB http)" = node1 ] && break; sleep 0.2; done
state=$LAB_RUN/node1/state
cat > $U/hb <<HB
#!/bin/sh
cmd=\$1; shift
exec $LAB exec node1 env HB_JAR=$HB_JAR $REPO/packaging/src/bin/hb "\$cmd" --state-dir $state "\$@"
HB
chmod +x $U/hb
# the upgrade blocks of the two scripts, pointed at the lab
sed -n '/^marker=/p; /^if \[ "\$1" = "upgrade" \]/,/^fi$/p' $REPO/packaging/src/deb/control/prerm \
  | sed "s#/usr/sbin/hb#$U/hb#g; s#^marker=.*#marker=$U/marker#; s#node=\$(uname -n)#node=node1#; s#\[ -x $U/hb \]#true#" > $U/prerm
sed -n '/^marker=/p; /^if \[ "\$1" = "configure" \] && \[ -n "\$2" \] && \[ -f "\$marker" \]/,/^fi$/p' $REPO/packaging/src/deb/control/postinst \
  | sed "s#/usr/sbin/hb#$U/hb#g; s#^marker=.*#marker=$U/marker#; s#node=\$(uname -n)#node=node1#; s#\[ -d /run/systemd/system \]#true#; s#deb-systemd-invoke restart jheartbeat.service >/dev/null#{ $LAB stop node1 \&\& $LAB start node1; }#" > $U/postinst
rm -f $U/marker $U/stop
( bad=0; n=0; while [ ! -f $U/stop ]; do r=$($LAB http); n=$((n+1)); [ "$r" = node1 ] || bad=$((bad+1)); \
   ip -n $LAB_ID-n2 -o -4 addr show | grep -q ' 198.18.0.100/' && echo "node2 holds VIP"; sleep 0.1; done; echo "samples=$n not-node1=$bad" ) > $U/samples &
t0=$(date +%s.%N)
echo "--- prerm upgrade"; sh -e $U/prerm upgrade 0.1.0; echo "prerm exit $?"; cat $U/marker
echo "--- postinst configure"; sh -e $U/postinst configure 0.1.0; echo "postinst exit $?"
t1=$(date +%s.%N)
touch $U/stop; sleep 1.5; cat $U/samples
echo "upgrade took $(echo "$t1 - $t0" | bc) s"; ls $U/marker 2>&1
grep -c "Stopping resource group" $LAB_RUN/node1/daemon.out $LAB_RUN/node2/daemon.out
grep -h "would be taken over\|adopted\|Maintenance mode" $LAB_RUN/node1/daemon.out $LAB_RUN/node2/daemon.out | cut -c1-200
