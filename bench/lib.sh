# bench/lib.sh: what the bench scripts share; sourced (". "$ROOT/bench/lib.sh"") after they set LAB.

# kill_pids: kills the background processes whose ids the script put in PIDS (servers, load,
# samplers); one already gone is no error.
kill_pids() {
    local p
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
}

# bench_cleanup: for `trap bench_cleanup EXIT` in a script that runs one lab ($LAB, this LAB_ID): kill_pids,
# then the lab down, whatever state it is in.
bench_cleanup() {
    kill_pids
    "$LAB" down >/dev/null 2>&1 || true
}
