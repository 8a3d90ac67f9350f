#!/usr/bin/env bash
# timeline.sh REF_MS REF_NAME — prints a demo's timeline: reads events "MS TEXT" on stdin
# (MS: wall-clock milliseconds since the epoch, TEXT: what happened then), one line each
# "[  +1234 ms] TEXT" with the time relative to REF_MS, sorted by time (events recorded out of
# order, e.g. a poll's answer noted after a later command, come out in time order; equal times keep
# their input order). Starts with a header that names the one reference point and its wall-clock
# time, so that the lines can be matched with ha-log. Exit 2 on a malformed line.
set -euo pipefail
if (($# != 2)) || [[ ! $1 =~ ^[0-9]+$ ]]; then
    echo "usage: timeline.sh REF_MS REF_NAME < events (lines: EPOCH_MS TEXT)" >&2
    exit 2
fi
ref=$1 name=$2 nr=0 rows=''
while IFS= read -r l || [[ -n $l ]]; do
    nr=$((nr + 1))
    [[ -z $l ]] && continue
    if [[ ! $l =~ ^([0-9]+)\ (.*)$ ]]; then
        echo "timeline.sh: stdin:$nr: expected 'EPOCH_MS TEXT', got '$l'" >&2
        exit 2
    fi
    rows+=$(printf '%d\t%d\t%s' "${BASH_REMATCH[1]}" "$nr" "${BASH_REMATCH[2]}")$'\n'
done
printf 'times in ms from %s (wall clock %(%F %T)T.%03d)\n' "$name" $((ref / 1000)) $((ref % 1000))
printf '%s' "$rows" | sort -t $'\t' -k1,1n -k2,2n | while IFS=$'\t' read -r t _ text; do
    printf '[%+8d ms] %s\n' $((t - ref)) "$text"
done
