#!/bin/sh
# hb-script: OCF resource agent (written by jheartbeat's 'hb export pacemaker') that runs a
# Heartbeat R1 resource script under Pacemaker: SCRIPT [ARGS...] start|stop|status.
# Install on every node as /usr/lib/ocf/resource.d/jheartbeat/hb-script (mode 755).
#
# Parameters: script (absolute path), args (blank-separated arguments, the haresources '::' ones).
# Status follows Heartbeat 3.0.6's rule: the output of 'status' decides, not its exit code:
# "not", a blank, then "running" (any case; anything between) = stopped; else "running"/"Running" or "OK" =
# running; anything else = stopped.

: "${OCF_ROOT:=/usr/lib/ocf}"
OCF_SUCCESS=0
OCF_ERR_GENERIC=1
OCF_ERR_UNIMPLEMENTED=3
OCF_ERR_INSTALLED=5
OCF_ERR_CONFIGURED=6
OCF_NOT_RUNNING=7

script=${OCF_RESKEY_script:-}
args=${OCF_RESKEY_args:-}

meta_data() {
    cat <<'XML'
<?xml version="1.0"?>
<resource-agent name="hb-script" version="1.0">
  <version>1.1</version>
  <longdesc lang="en">Runs a Heartbeat R1 resource.d script (SCRIPT ARGS start|stop|status); status is read from the script's output as Heartbeat 3.0.6 did.</longdesc>
  <shortdesc lang="en">Heartbeat R1 resource script</shortdesc>
  <parameters>
    <parameter name="script" required="1" unique="0">
      <longdesc lang="en">Absolute path of the script, e.g. /etc/ha.d/resource.d/labweb</longdesc>
      <shortdesc lang="en">script</shortdesc>
      <content type="string"/>
    </parameter>
    <parameter name="args" required="0" unique="0">
      <longdesc lang="en">Arguments passed before the action, blank-separated (the haresources :: arguments)</longdesc>
      <shortdesc lang="en">arguments</shortdesc>
      <content type="string" default=""/>
    </parameter>
  </parameters>
  <actions>
    <action name="start" timeout="60s"/>
    <action name="stop" timeout="60s"/>
    <action name="monitor" timeout="20s" interval="10s"/>
    <action name="meta-data" timeout="5s"/>
    <action name="validate-all" timeout="5s"/>
  </actions>
</resource-agent>
XML
}

validate() {
    if [ -z "$script" ]; then
        echo "ocf-exit-reason:parameter script is not set" >&2
        return $OCF_ERR_CONFIGURED
    fi
    if [ ! -f "$script" ] || [ ! -x "$script" ]; then
        echo "ocf-exit-reason:$script is not an executable file" >&2
        return $OCF_ERR_INSTALLED
    fi
    return $OCF_SUCCESS
}

# Heartbeat's status rule on the script's standard output
status() {
    # shellcheck disable=SC2086  # args are blank-separated on purpose
    out=$("$script" $args status 2>/dev/null)
    case "$out" in
        *[Nn][Oo][Tt]\ *[Rr]unning*) return $OCF_NOT_RUNNING ;;
        *running* | *Running* | *OK*) return $OCF_SUCCESS ;;
        *) return $OCF_NOT_RUNNING ;;
    esac
}

action=${1:-}
case "$action" in
    meta-data) meta_data; exit $OCF_SUCCESS ;;
    validate-all) validate; exit $? ;;
    start | stop | monitor | status) ;;
    *) exit $OCF_ERR_UNIMPLEMENTED ;;
esac
validate || {
    rc=$?
    # a probe or stop where the script is missing: the resource is not running here
    if [ "$action" = stop ]; then exit $OCF_SUCCESS; fi
    if [ "$action" = monitor ] && [ $rc -eq $OCF_ERR_INSTALLED ]; then exit $OCF_NOT_RUNNING; fi
    exit $rc
}
case "$action" in
    start)
        status && exit $OCF_SUCCESS
        # shellcheck disable=SC2086
        "$script" $args start || exit $OCF_ERR_GENERIC
        exit $OCF_SUCCESS
        ;;
    stop)
        # shellcheck disable=SC2086
        "$script" $args stop || exit $OCF_ERR_GENERIC
        status && exit $OCF_ERR_GENERIC
        exit $OCF_SUCCESS
        ;;
    monitor | status)
        status
        exit $?
        ;;
esac
