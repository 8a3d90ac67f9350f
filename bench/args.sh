# bench/args.sh: the argument checks the bench scripts share. Sourced right after a script sets ROOT and before
# anything else (no build, lab, install, temp dir or ssh before its arguments are checked):
#     . "$ROOT/bench/args.sh"
# Every refusal is one line on stderr, "SCRIPT: WHAT (see the header of bench/SCRIPT)", and exit 2, so an admin
# who typed a bad number sees at once which option and why, instead of bash's "$2: unbound variable" or a lab
# that starts with it. Only functions and one variable: sourcing it has no side effect.
#
# BENCH_ARGS_ONLY=1 in the environment: args_done exits 0, so a script stops right after its arguments are
# parsed and checked (BenchScriptArgsTest runs every script this way: nothing runs even if a check regresses).

BENCH_SCRIPT=${0##*/}

# arg_error WHAT...: refuses the command line.
arg_error() {
    echo "$BENCH_SCRIPT: $* (see the header of bench/$BENCH_SCRIPT)" >&2
    exit 2
}

# unknown_arg ARG: an option the script does not have ("unknown option '--x'"), or a word where it takes none.
unknown_arg() {
    if [[ $1 == -* ]]; then arg_error "unknown option '$1'"; fi
    arg_error "unknown argument '$1'"
}

# need_value OPTION COUNT: COUNT is the caller's $# with OPTION as $1; fewer than 2 means OPTION came last,
# without its value (set -u would otherwise stop the script at "$2: unbound variable").
need_value() {
    (($2 >= 2)) || arg_error "$1 needs a value"
}

# positive_int NAME VALUE: VALUE is a whole number from 1 up (at most 18 digits: bash's arithmetic is 64-bit;
# no leading zero: bash would read 010 as octal 8).
positive_int() {
    [[ $2 =~ ^[1-9][0-9]{0,17}$ ]] || arg_error "$1 must be a positive integer, not '$2'"
}

# int_at_least NAME VALUE MIN [WHAT]: VALUE is a whole number >= MIN; WHAT replaces the message's description.
int_at_least() {
    [[ $2 =~ ^(0|[1-9][0-9]{0,17})$ ]] && (($2 >= $3)) || arg_error "$1 must be ${4:-an integer >= $3}, not '$2'"
}

# hacf_time NAME VALUE: a non-zero ha.cf time the bench scripts can compute with: whole seconds (5) or whole
# milliseconds (500ms). Heartbeat itself also reads fractions and "us"; the scripts' arithmetic does not.
hacf_time() {
    [[ $2 =~ ^[1-9][0-9]{0,8}(ms)?$ ]] \
        || arg_error "$1 must be whole seconds or milliseconds in ha.cf syntax (e.g. 3 or 500ms), not '$2'"
}

# one_of NAME VALUE CHOICE...: VALUE is one of the CHOICEs.
one_of() {
    local name=$1 v=$2 c
    shift 2
    for c; do [[ $v == "$c" ]] && return 0; done
    arg_error "$name must be one of: $*; not '$v'"
}

# args_done: the arguments are checked; with BENCH_ARGS_ONLY=1 the script stops here, having done nothing.
args_done() {
    if [[ ${BENCH_ARGS_ONLY:-} == 1 ]]; then exit 0; fi
}

# print_header: the script's header comment (its usage), without the "#!" line and the leading "# ".
print_header() {
    sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"
}
