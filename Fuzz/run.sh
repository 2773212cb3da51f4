#!/usr/bin/env bash
# Builds the libFuzzer targets (with AddressSanitizer) and runs each for a bounded time against its seed
# corpus in Fuzz/Corpus/TARGET. Fails (exit 1) when a target crashes, hangs (5 s per input) or exceeds
# 1 GiB; the input that did it is kept and its path printed. Writes nothing into the repository but the
# build directory Fuzz/.build and, when a target fails, Fuzz/fuzz-TARGET-failure/ (the input and the log;
# ignored by git): the grown corpus goes to a temporary directory unless --corpus names one.
#
# usage: Fuzz/run.sh [--seconds S] [--corpus DIR] [TARGET ...]
#   --seconds S   how long each target runs (default 20; CI runs this, Fuzz/soak.sh runs it for longer)
#   --corpus DIR  keep the grown corpus in DIR/TARGET (created), e.g. to merge new seeds by hand
#   TARGET        control-command, configuration, recording, payloads, cbor, sparkplug (default: all)
set -euo pipefail
cd "$(dirname "$0")"
seconds=20
keep=""
targets=()
while (($#)); do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --corpus) keep="$2"; shift 2 ;;
        -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "run.sh: unknown option $1" >&2; exit 64 ;;
        *) targets+=("$1"); shift ;;
    esac
done
((${#targets[@]})) || targets=(control-command configuration recording payloads cbor sparkplug)
# The largest input each parser meets in practice, with room: a command is at most 4 KiB.
declare -A max_length=([control-command]=8192 [configuration]=65536 [recording]=65536 [payloads]=16384 [cbor]=16384 [sparkplug]=16384)

# SwiftPM does not notice modules added to the main package under a path dependency's old build: a new
# module would read "no such module". The build directory is started afresh when ../Package.swift changed.
parent=$(sha256sum ../Package.swift | cut -c1-16)
if [ -d .build ] && [ "$(cat .build/parent-package 2>/dev/null)" != "$parent" ]; then rm -rf .build; fi
mkdir -p .build && echo "$parent" > .build/parent-package
work=$(mktemp -d "${TMPDIR:-/tmp}/motionbridge-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0
for target in "${targets[@]}"; do
    [ -n "${max_length[$target]:-}" ] || { echo "run.sh: unknown target $target" >&2; exit 64; }
    # A failed build must not leave an earlier binary to be run: its status decides, not the file.
    if ! swift build --product "fuzz-$target" -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library \
        >"$work/build-$target.log" 2>&1; then
        grep -Ev "Cannot export local symbol|^\[|Compiling|Emitting|Write|Linking|Planning|Building" "$work/build-$target.log" >&2
        echo "run.sh: fuzz-$target did not build" >&2
        exit 1
    fi
    binary=".build/debug/fuzz-$target"
    corpus="${keep:+$keep/$target}"
    corpus="${corpus:-$work/corpus-$target}"
    mkdir -p "$corpus" "$work/artifacts-$target"
    seeds=$(find "Corpus/$target" -type f | wc -l)
    # Swift's own crash handler would race AddressSanitizer's report.
    if SWIFT_BACKTRACE=enable=no "$binary" "$corpus" "Corpus/$target" -max_total_time="$seconds" -timeout=5 \
        -rss_limit_mb=1024 -max_len="${max_length[$target]}" -print_final_stats=1 \
        -artifact_prefix="$work/artifacts-$target/" > "$work/log-$target" 2>&1
    then
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/log-$target" | grep -o '[0-9]*$' || echo "?")
        echo "fuzz-$target: $runs executions in $seconds s, corpus $(find "$corpus" -type f | wc -l) inputs from $seeds seeds, no crash, hang or memory blow-up"
    else
        status=1
        kept="${keep:-$PWD}/fuzz-$target-failure"
        mkdir -p "$kept"
        cp "$work/artifacts-$target/"* "$work/log-$target" "$kept/" 2>/dev/null || true
        echo "fuzz-$target: FAILED; the input and the log are in $kept" >&2
        grep -E "ERROR|Precondition|Fatal|SUMMARY" "$work/log-$target" | head -5 >&2
    fi
done
exit $status
