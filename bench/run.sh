#!/usr/bin/env bash
# planforge benchmark: times the main commands on generated 1k, 10k and 100k-node
# plans next to `jq -c .` and a bare serde_json parse of the same document, in one
# run, and prints medians, ratios and peak memory as a Markdown table.
#
#   bench/run.sh                 # all sizes
#   SIZES="1000 10000" bench/run.sh
#   RUNS=3 RUNS_100K=2 ENTRIES=0 bench/run.sh   # fewer runs, no issue-13 case
#   ONE_SHOT=1 SIZES="10000 100000" bench/run.sh  # only the one-shot rows
#     (and validate FILE)
#     (add BUILD_ONE_SHOT="1000 10000" for the REPL builds too)
#   BUILD="1000 10000" bench/run.sh              # REPL script builds (default)
#   NO_BUILD=1 …                                  # the release binaries as they are
#   ROUNDS_RUNS=0 PACED_RUNS=0 NO_5K=1 …          # without the interleaved rounds
#     (ratios 100k/10k and × jq at 100k), the runs after a pause (PAUSE=3 s)
#     and the warm session on a 5k-node plan
#
# One-shot rows: `outline`, `read`, `status` run with the plan's snapshot
# (`checkpoint.snap`) warm; the "(cold …)" rows are the first run after
# another process wrote, and "(no snapshot …)" the first with none.
#
# Needs hyperfine and jq (installed from Debian packages when missing) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."

SIZES=${SIZES:-"1000 10000 100000"}
need=()
command -v hyperfine >/dev/null 2>&1 || need+=(hyperfine)
command -v jq >/dev/null 2>&1 || need+=(jq)
[ -x /usr/bin/time ] || need+=(time)
if ((${#need[@]})); then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq "${need[@]}"
fi

if [ -z "${NO_BUILD:-}" ]; then
  echo "building release binaries…" >&2
  cargo build --release -q --bin planforge --example gen_plan --example json_baseline
fi
TARGET=${CARGO_TARGET_DIR:-$PWD/target}
PF=$TARGET/release/planforge
GEN=$TARGET/release/examples/gen_plan
BASE=$TARGET/release/examples/json_baseline

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export NO_COLOR=1 PLANFORGE_ACTOR=bench
RESULTS=$WORK/results.tsv
: >"$RESULTS"
PAIRED=$WORK/paired.tsv
: >"$PAIRED"
# Interleaved rounds (bench/rounds.py): KIND<TAB>ROW<TAB>{"name": [seconds …]}.
ROUNDS=$WORK/rounds.tsv
: >"$ROUNDS"

# time_cmd SIZE NAME RUNS COMMAND [PREPARE]: median seconds and peak RSS (KB).
time_cmd() {
  local size=$1 name=$2 runs=$3 cmd=$4 prep=${5:-}
  local json=$WORK/h.json
  # -N runs the command without a shell (no shell start-up in the figures), so
  # the command's own redirection is dropped: hyperfine discards output anyway.
  # The preparation step needs a shell, so it runs from a script.
  local args=(--style none --warmup 1 --runs "$runs" --export-json "$json" -N)
  if [ -n "$prep" ]; then
    printf '%s\n' "$prep" >"$WORK/prepare.sh"
    args+=(--prepare "bash $WORK/prepare.sh")
  fi
  hyperfine "${args[@]}" "${cmd% >/dev/null}" >"$WORK/hyperfine.log" 2>&1 || {
    echo "failed: $cmd" >&2
    cat "$WORK/hyperfine.log" >&2
    exit 1
  }
  local median fastest
  read -r median fastest < <(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; print(r['median'], r['min'])" "$json")
  [ -n "$prep" ] && bash -c "$prep" >/dev/null 2>&1
  local rss
  /usr/bin/time -f '%M' -o "$WORK/rss" bash -c "$cmd" >/dev/null 2>&1
  rss=$(tail -1 "$WORK/rss")
  printf '%s\t%s\t%s\t%s\t%s\n' "$size" "$name" "$median" "$rss" "$fastest" >>"$RESULTS"
  echo "  $name: ${median}s, ${rss} KB" >&2
}

# warm SIZE STORE NODE: per-call medians inside long-lived processes, as rows
# of the results: an MCP session driven by bench/mcp_session.py (add_node,
# connect_nodes, plan_status, plan_read of one node), and a REPL session
# driven by bench/repl_session.py (LINES `add-node` lines, each timed from
# its write to its echo's last line, after one `status` that loads the plan).
warm() {
  local size=$1 store=$2 node=$3 calls=10 lines=100
  [ "$size" -ge 100000 ] && calls=5
  python3 bench/mcp_session.py "$PF" "$store" plan-bench "$node" "$calls" |
    while IFS=$'\t' read -r name median low; do
      printf '%s\t%s\t%s\t%s\t%s\n' "$size" "warm MCP $name" "$median" 0 "$low" >>"$RESULTS"
      echo "  warm MCP $name: ${median}s" >&2
    done
  local median low
  read -r median low < <(python3 bench/repl_session.py "$PF" "$store" plan-bench "$lines") || true
  [ -n "$median" ] || { echo "the REPL session at $size nodes failed" >&2; exit 1; }
  printf '%s\t%s\t%s\t%s\t%s\n' "$size" "warm REPL add-node line" "$median" 0 "$low" >>"$RESULTS"
  echo "  warm REPL add-node line: ${median}s" >&2
}

# repl_build LINES: seconds to build a new plan of LINES nodes from a script
# of LINES `add-node` lines piped into one REPL.
repl_build() {
  local lines=$1 dir=$WORK/build$1
  "$PF" init "$dir" >/dev/null
  { printf 'create plan-build\n'; for i in $(seq 1 "$lines"); do printf 'add-node n%s --kind join\n' "$i"; done; } >"$dir/script.txt"
  python3 -c "import subprocess,sys,time; t=time.perf_counter(); subprocess.run(sys.argv[1:], stdin=open('$dir/script.txt'), stdout=subprocess.DEVNULL, check=True); print(time.perf_counter()-t)" "$PF" --store "$dir" repl
}

# one_shot SIZE RUNS "PF --store … -p plan" NODE STORE PHASE: one process per
# command on the stored plan, with its snapshot current (hyperfine's
# warm-up run leaves it so): the reads answer in place from it, the writes
# fold it and append. Each write's preparation undoes the last run's.
one_shot() {
  local n=$1 runs=$2 P=$3 node=$4 store=$5 phase=$6
  time_cmd "$n" "one-shot status (snapshot)" "$runs" "$P status >/dev/null"
  time_cmd "$n" "one-shot read NODE (snapshot)" "$runs" "$P read --node $node >/dev/null"
  time_cmd "$n" "one-shot outline (snapshot)" "$runs" "$P outline >/dev/null"
  time_cmd "$n" "one-shot read PHASE (snapshot)" "$runs" "$P read --phase '$phase' >/dev/null"
  time_cmd "$n" "one-shot add-node (snapshot)" "$runs" "$P add-node bench_extra --kind join >/dev/null" \
    "$P remove-node --yes bench_extra >/dev/null 2>&1 || true"
  time_cmd "$n" "one-shot connect (snapshot)" "$runs" "$P connect bench_extra $node --id bench_edge >/dev/null" \
    "$P disconnect bench_edge >/dev/null 2>&1 || true; $P add-node bench_extra --kind join >/dev/null 2>&1 || true"
}

# fill TEMPLATE DIR: a row's command for the plan of size DIR ({P}: the
# plan's commands, {PF}, {store}, {doc}, {reg}, {node}, {rev0}).
fill() {
  local t=$1 d=$2
  t=${t//\{P\}/$PF --store $d/store -p plan-bench}
  t=${t//\{PF\}/$PF}
  t=${t//\{store\}/$d/store}
  t=${t//\{doc\}/$d/plan.json}
  t=${t//\{reg\}/$d/registry.yaml}
  t=${t//\{node\}/$(cat "$d/node")}
  t=${t//\{rev0\}/$(cat "$d/rev0")}
  printf '%s' "$t"
}
# The preparations of undo and redo, and of the cold reads (another
# process writes first), as templates.
again_t="{P} remove-node --yes bench_undo >/dev/null 2>&1; {P} add-node bench_undo --kind join >/dev/null"
other_t="{P} add-node bench_cold --kind join >/dev/null 2>&1; {P} remove-node --yes bench_cold >/dev/null 2>&1"

for n in $SIZES; do
  echo "== $n nodes" >&2
  dir=$WORK/n$n
  mkdir -p "$dir"
  doc=$dir/plan.json
  "$GEN" --nodes "$n" --phases 8 --seed 7 --registry-out "$dir/registry.yaml" >"$doc"
  store=$dir/store
  "$PF" init "$store" >/dev/null
  cp "$dir/registry.yaml" "$store/registry.yaml"
  "$PF" --store "$store" import "$doc" --id plan-bench >/dev/null
  rev0=$("$PF" --store "$store" --format json status -p plan-bench | python3 -c "import json,sys; print(json.load(sys.stdin)['revision'])")
  phase=$("$PF" --store "$store" --format json outline -p plan-bench | python3 -c "import json,sys; o=json.load(sys.stdin); print(o['phases'][len(o['phases'])//2]['phase'])")
  node=$("$PF" --store "$store" --format json outline -p plan-bench | python3 -c "import json,sys; o=json.load(sys.stdin); p=o['phases'][len(o['phases'])//2]; print(p['nodeIds'][len(p['nodeIds'])//2])")
  printf '%s\n' "$rev0" >"$dir/rev0"
  printf '%s\n' "$node" >"$dir/node"
  runs=${RUNS:-10}; [ "$n" -ge 100000 ] && runs=${RUNS_100K:-5}
  P="$PF --store $store -p plan-bench"
  time_cmd "$n" "jq -c . (baseline)" "$runs" "jq -c . $doc >/dev/null"
  time_cmd "$n" "serde_json parse (floor)" "$runs" "$BASE $doc"
  time_cmd "$n" "validate FILE" "$runs" "$PF validate $doc --registry $dir/registry.yaml >/dev/null"
  # validate FILE against the floor in interleaved runs (see bench/paired.py):
  # twenty pairs below 100k (six gave a median off by a third at 10k).
  pairs=20; [ "$n" -ge 100000 ] && pairs=$((runs * 2))
  printf '%s\t%s\n' "$n" "$(python3 bench/paired.py "$pairs" "$PF validate $doc --registry $dir/registry.yaml" "$BASE $doc")" >>"$PAIRED"
  if [ -n "${ONE_SHOT:-}" ]; then
    one_shot "$n" "$runs" "$P" "$node" "$store" "$phase"
    continue
  fi
  time_cmd "$n" "import" "$runs" "$PF --store $store import $doc --id plan-import >/dev/null" \
    "$PF --store $store remove plan-import --force --yes >/dev/null 2>&1 || true"
  time_cmd "$n" "outline" "$runs" "$P outline >/dev/null"
  time_cmd "$n" "read PHASE" "$runs" "$P read --phase '$phase' >/dev/null"
  time_cmd "$n" "read NODE" "$runs" "$P read --node $node >/dev/null"
  time_cmd "$n" "show" "$runs" "$P show >/dev/null"
  time_cmd "$n" "add-node" "$runs" "$P add-node bench_extra --kind join >/dev/null" \
    "$P remove-node --yes bench_extra >/dev/null 2>&1 || true"
  time_cmd "$n" "connect" "$runs" "$P connect bench_extra $node --id bench_edge >/dev/null" \
    "$P disconnect bench_edge >/dev/null 2>&1 || true; $P add-node bench_extra --kind join >/dev/null 2>&1 || true"
  time_cmd "$n" "status" "$runs" "$P status >/dev/null"
  # After the writes above, the plan has moved on from the import: diff folds
  # the import's revision from the log and compares it with the current one.
  time_cmd "$n" "diff (import revision against current)" "$runs" "$P diff $rev0 current >/dev/null"
  # undo and redo of one add-node (each preparation leaves one to take back).
  again=$(fill "$again_t" "$dir")
  time_cmd "$n" "undo (of an add-node)" "$runs" "$P undo >/dev/null" "$again"
  time_cmd "$n" "redo (of that undo)" "$runs" "$P redo >/dev/null" "$again; $P undo >/dev/null"
  # The one-shot reads above run with the snapshot warm (hyperfine's warm-up
  # run leaves it current). Cold: the first run after another process
  # wrote (two one-shot writes: the snapshot then holds a prefix and the
  # log a tail to fold, and the checkpoint's findings are stale), and the
  # first run with no snapshot at all (the fold, then the snapshot written).
  other=$(fill "$other_t" "$dir")
  nosnap="rm -f $store/plan-bench/checkpoint.snap"
  time_cmd "$n" "status (cold: after another process wrote)" "$runs" "$P status >/dev/null" "$other"
  time_cmd "$n" "read NODE (cold: after another process wrote)" "$runs" "$P read --node $node >/dev/null" "$other"
  time_cmd "$n" "outline (cold: after another process wrote)" "$runs" "$P outline >/dev/null" "$other"
  time_cmd "$n" "status (no snapshot: rebuilt)" "$runs" "$P status >/dev/null" "$nosnap"
  time_cmd "$n" "read NODE (no snapshot: rebuilt)" "$runs" "$P read --node $node >/dev/null" "$nosnap"
  warm "$n" "$store" "$node"
done

# The one-shot rows' targets are ratios: 100k / 10k (≤ 11×) and, at 100k,
# the writes and reads against `jq -c .` (≤ 0.01×). Each ratio is also
# measured as the median of per-round ratios of interleaved rounds
# (bench/rounds.py), which the machine's drift between two hyperfine
# series does not move. ROUNDS_RUNS sets the rounds (5); 0 skips them.
#
# rows: NAME|COMMAND|PREPARE, as the one-shot rows above run them.
rows=(
  "jq -c . (baseline)|jq -c . {doc}|"
  "validate FILE|{PF} validate {doc} --registry {reg}|"
  "import|{PF} --store {store} import {doc} --id plan-import|{PF} --store {store} remove plan-import --force --yes >/dev/null 2>&1 || true"
  "outline|{P} outline|"
  "show|{P} show|"
  "add-node|{P} add-node bench_extra --kind join|{P} remove-node --yes bench_extra >/dev/null 2>&1 || true"
  "connect|{P} connect bench_extra {node} --id bench_edge|{P} disconnect bench_edge >/dev/null 2>&1 || true; {P} add-node bench_extra --kind join >/dev/null 2>&1 || true"
  "diff (import revision against current)|{P} diff {rev0} current|"
  "undo (of an add-node)|{P} undo|$again_t"
  "redo (of that undo)|{P} redo|$again_t; {P} undo >/dev/null"
  "status (cold: after another process wrote)|{P} status|$other_t"
  "read NODE (cold: after another process wrote)|{P} read --node {node}|$other_t"
  "status (no snapshot: rebuilt)|{P} status|rm -f {store}/plan-bench/checkpoint.snap"
  "read NODE (no snapshot: rebuilt)|{P} read --node {node}|rm -f {store}/plan-bench/checkpoint.snap"
  "status|{P} status|{P} status"
  "read NODE|{P} read --node {node}|"
)
# row_args DIR NAME…: appends to `args` each named row's name, command and
# preparation for the plan in DIR (named by its size when DIR is given as
# SIZE=DIR).
row_args() {
  local d=$1 label="" want row name cmd prep
  shift
  case $d in *=*) label=${d%%=*} d=${d#*=} ;; esac
  for want in "$@"; do
    for row in "${rows[@]}"; do
      IFS='|' read -r name cmd prep <<<"$row"
      if [ "$name" = "$want" ]; then
        args+=("${label:-$name}" "$(fill "$cmd" "$d")" "$(fill "$prep" "$d")")
      fi
    done
  done
}
scale_rows=(
  "validate FILE" import outline show add-node connect "diff (import revision against current)"
  "undo (of an add-node)" "redo (of that undo)" "status (cold: after another process wrote)"
  "read NODE (cold: after another process wrote)" "status (no snapshot: rebuilt)"
  "read NODE (no snapshot: rebuilt)"
)
scale=""
case " $SIZES " in *" 10000 "*) case " $SIZES " in *" 100000 "*) scale=1 ;; esac ;; esac
if [ "${ROUNDS_RUNS:-5}" -gt 0 ] && [ -n "$scale" ] && [ -z "${ONE_SHOT:-}" ]; then
  echo "== 100000 / 10000 nodes in interleaved rounds" >&2
  for name in "${scale_rows[@]}"; do
    args=()
    row_args "10000=$WORK/n10000" "$name"
    row_args "100000=$WORK/n100000" "$name"
    json=$(python3 bench/rounds.py "${ROUNDS_RUNS:-5}" "${args[@]}")
    printf 'scaling\t%s\t%s\n' "$name" "$json" >>"$ROUNDS"
    echo "  $name" >&2
  done
fi
case " $SIZES " in *" 100000 "*) big=1 ;; *) big="" ;; esac
if [ "${ROUNDS_RUNS:-5}" -gt 0 ] && [ -n "$big" ]; then
  echo "== 100000 nodes: one-shot commands against jq in interleaved rounds" >&2
  # status and read NODE after a status (the snapshot current, as in the
  # rows above); the writes after their preparations.
  args=()
  row_args "$WORK/n100000" "jq -c . (baseline)" status "read NODE" add-node connect
  json=$(python3 bench/rounds.py "${ROUNDS_RUNS:-5}" "${args[@]}")
  printf 'jq\t100000\t%s\n' "$json" >>"$ROUNDS"
fi

# As a person or a model runs them: each command after PAUSE seconds idle
# (the rows above run back to back, which a script does). On a virtual
# machine whose host takes back the guest's free memory, the first touch
# of fresh memory after a pause costs far more (docs/performance.md,
# session 28). PACED_RUNS=0 skips them.
if [ "${PACED_RUNS:-3}" -gt 0 ]; then
  for n in $SIZES; do
    [ "$n" -ge 10000 ] || continue
    echo "== $n nodes: one-shot commands after a pause of ${PAUSE:-3} s" >&2
    args=()
    row_args "$WORK/n$n" "jq -c . (baseline)" "validate FILE" show "status (no snapshot: rebuilt)" \
      status "read NODE" add-node connect
    json=$(python3 bench/rounds.py --pause "${PAUSE:-3}" "${PACED_RUNS:-3}" "${args[@]}")
    printf 'paced\t%s\t%s\n' "$n" "$json" >>"$ROUNDS"
  done
fi

# Issue 17 states its warm targets on a 5,000-node plan: an MCP session on one.
if [ -z "${ONE_SHOT:-}" ] && [ -z "${NO_5K:-}" ]; then
  echo "== 5000 nodes: warm MCP session" >&2
  d=$WORK/n5000 && mkdir -p "$d"
  "$GEN" --nodes 5000 --phases 8 --seed 7 --registry-out "$d/registry.yaml" >"$d/plan.json"
  "$PF" init "$d/store" >/dev/null && cp "$d/registry.yaml" "$d/store/registry.yaml"
  "$PF" --store "$d/store" import "$d/plan.json" --id plan-bench >/dev/null
  node=$("$PF" --store "$d/store" --format json outline -p plan-bench | python3 -c "import json,sys; o=json.load(sys.stdin); p=o['phases'][len(o['phases'])//2]; print(p['nodeIds'][len(p['nodeIds'])//2])")
  python3 bench/mcp_session.py "$PF" "$d/store" plan-bench "$node" 20 |
    while IFS=$'\t' read -r name median low; do
      printf '%s\t%s\t%s\t%s\t%s\n' "5000 (warm MCP session only)" "warm MCP $name" "$median" 0 "$low" >>"$RESULTS"
      echo "  warm MCP $name: ${median}s" >&2
    done
fi

time_cmd "-" "--version" 20 "$PF --version >/dev/null"
if [ -n "${ONE_SHOT:-}" ]; then
  ENTRIES=0
  BUILD=${BUILD_ONE_SHOT-}
fi

if [ -z "${ONE_SHOT:-}" ]; then
# Issue 14: 200 plan documents in one call against 200 calls (CI passes a
# folder). The 200 calls run in one shell loop, so the row's time is theirs.
many=$WORK/many && mkdir -p "$many/docs"
"$GEN" --nodes 30 --phases 3 --seed 7 >"$many/one.json"
for i in $(seq -w 1 200); do cp "$many/one.json" "$many/docs/p$i.json"; done
time_cmd "200 docs" "validate DIR (one call)" 5 "$PF validate $many/docs --format json >/dev/null"
time_cmd "200 docs" "validate FILE x 200 (200 calls)" 3 \
  "bash -c 'for f in $many/docs/*.json; do $PF validate \$f >/dev/null; done'"
fi

# Issue 13: a plan of ENTRIES entry nodes (every one but the first is
# `multiple_entries`) must validate within 2x the time and memory of a valid
# plan of as many nodes. ENTRIES=0 skips it.
ENTRIES=${ENTRIES:-400000}
if [ "$ENTRIES" -gt 0 ]; then
  echo "== $ENTRIES entry nodes vs a valid plan of $ENTRIES nodes" >&2
  dir=$WORK/entries
  mkdir -p "$dir"
  "$GEN" --nodes "$ENTRIES" --phases 8 --seed 7 --compact --registry-out "$dir/registry.yaml" >"$dir/valid.json"
  "$GEN" --nodes "$ENTRIES" --phases 8 --seed 7 --compact --entries-only >"$dir/entries.json"
  time_cmd "$ENTRIES entries" "validate FILE (valid plan)" 3 "$PF validate $dir/valid.json --registry $dir/registry.yaml >/dev/null"
  # Exit 1 (blocking findings) is the expected verdict: `|| true` in a shell.
  time_cmd "$ENTRIES entries" "validate FILE (all entry nodes)" 3 "bash -c '$PF validate $dir/entries.json --registry $dir/registry.yaml >/dev/null 2>&1 || true'"
fi

# A plan built line by line in one REPL: linear means the ratio is 2.
BUILD=${BUILD-"1000 10000"}
if [ -n "$BUILD" ]; then
  echo "== REPL builds of $BUILD lines" >&2
  for l in $BUILD; do
    t=$(repl_build "$l")
    printf '%s\t%s\t%s\t%s\t%s\n' "build" "REPL script of $l add-node lines" "$t" 0 "$t" >>"$RESULTS"
    echo "  $l lines: ${t}s" >&2
  done
fi

python3 - "$RESULTS" "$PAIRED" "$ROUNDS" <<'PY'
import sys, collections, json, statistics
paired = [l.rstrip("\n").split("\t") for l in open(sys.argv[2]) if l.strip()]
if paired:
    print("\n### validate FILE against the serde_json floor, interleaved runs\n")
    print("| nodes | wall ratio | CPU ratio | validate wall | floor wall | validate CPU | floor CPU |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for size, rw, rc, aw, bw, ac, bc in paired:
        ms = lambda x: f"{float(x) * 1000:.1f} ms"
        print(f"| {size} | {float(rw):.2f} | {float(rc):.2f} | {ms(aw)} | {ms(bw)} | {ms(ac)} | {ms(bc)} |")
    print("\n(median of the per-pair ratios; load average at the end: %.1f)" % __import__("os").getloadavg()[0])
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
by = collections.OrderedDict()
fastest = {}
for size, name, median, rss, low in rows:
    by.setdefault(size, []).append((name, float(median), int(rss or 0)))
    fastest[(size, name)] = float(low)
for size, items in by.items():
    base = dict((n, m) for n, m, _ in items)
    jq = base.get("jq -c . (baseline)")
    floor = base.get("serde_json parse (floor)")
    if size == "build":
        print("\n### a plan built by a script piped into one REPL\n")
        print("| script | total | per line |")
        print("|---|---:|---:|")
        for name, m, _ in items:
            lines = int(name.split()[3])
            print(f"| {name} | {m:.2f} s | {m / lines * 1000:.1f} ms |")
        if len(items) >= 2:
            (n1, m1, _), (n2, m2, _) = items[0], items[-1]
            print(f"\n{n2.split()[3]} lines / {n1.split()[3]} lines: {m2 / m1:.2f}× (linear: {int(n2.split()[3]) / int(n1.split()[3]):.2f}×)")
        continue
    if size.endswith(" entries"):
        print(f"\n### {size.split()[0]} entry nodes vs a valid plan of as many nodes\n")
    elif size == "-":
        print("\n### start-up\n")
    elif size.split()[0].isdigit() and size.split()[-1].endswith(")"):
        print(f"\n### {size.split()[0]} nodes {' '.join(size.split()[1:])}\n")
    else:
        print(f"\n### {size} nodes\n")
    if size.endswith(" entries"):
        ok = dict((n, (m, r)) for n, m, r in items)
        (vm, vr), (em, er) = ok.get("validate FILE (valid plan)", (0, 0)), ok.get("validate FILE (all entry nodes)", (0, 0))
        if vm and vr:
            print(f"entry nodes / valid plan: time {em / vm:.2f}x, peak RSS {er / vr:.2f}x (issue 13 wants both <= 2)\n")
    print("| command | median | × jq | × serde_json | peak RSS |")
    print("|---|---:|---:|---:|---:|")
    for name, m, rss in items:
        rj = f"{m / jq:.2f}" if jq else "–"
        rf = f"{m / floor:.2f}" if floor else "–"
        mem = f"{rss / 1024:.1f} MB" if rss else "–"
        print(f"| {name} | {m * 1000:.1f} ms | {rj} | {rf} | {mem} |")
sizes = [s for s in by if s.isdigit()]
pairs = []
if len(sizes) >= 2:
    pairs.append((sizes[-2], sizes[-1]))
if len(sizes) >= 3:
    pairs.append((sizes[0], sizes[-1]))
for lo, hi in pairs:
    a = dict((n, m) for n, m, _ in by[lo]); b = dict((n, m) for n, m, _ in by[hi])
    # Medians move with whatever else the machine runs; the fastest run is
    # the least disturbed one, so its ratio is the steadier estimate.
    print(f"\n### scaling {hi} / {lo} nodes\n")
    print("| command | ratio of medians | ratio of fastest runs |")
    print("|---|---:|---:|")
    for name in a:
        if name in b:
            # A figure of 0 (a per-line cost lost in the noise) has no ratio.
            med = f"{b[name] / a[name]:.1f}" if a[name] else "–"
            low = fastest[(lo, name)]
            low = f"{fastest[(hi, name)] / low:.1f}" if low else "–"
            print(f"| {name} | {med} | {low} |")
rounds = [l.rstrip("\n").split("\t", 2) for l in open(sys.argv[3]) if l.strip()]
med = statistics.median
scaling = [(row, json.loads(j)) for kind, row, j in rounds if kind == "scaling"]
if scaling:
    print("\n### scaling 100000 / 10000 nodes, interleaved rounds\n")
    print("Each round runs the 10k command, then the 100k one; the ratio is the median of the")
    print("rounds' ratios (the machine's drift between two series does not move it).\n")
    print("| command | median of per-round ratios | per-round ratios | 10k median | 100k median |")
    print("|---|---:|---|---:|---:|")
    for row, w in scaling:
        r = sorted(b / a for a, b in zip(w["10000"], w["100000"]))
        print(f"| {row} | {med(r):.1f} | {', '.join(f'{x:.1f}' for x in r)} | {med(w['10000']) * 1000:.1f} ms | {med(w['100000']) * 1000:.1f} ms |")
for kind, size, j in rounds:
    if kind not in ("jq", "paced"):
        continue
    w = json.loads(j)
    base = w.pop("jq -c . (baseline)")
    if kind == "jq":
        print(f"\n### {size} nodes: one-shot commands against `jq -c .`, interleaved rounds\n")
        print(f"Each round runs `jq -c .` on the plan's document ({med(base):.2f} s median), then each command.\n")
    else:
        print(f"\n### {size} nodes: one-shot commands after a pause\n")
        print(f"Each run follows an idle pause, as a person or a model runs a command; each round runs `jq -c .` ({med(base):.2f} s median) and each command so.\n")
    print("| command | median | median of per-round × jq | per-round × jq |")
    print("|---|---:|---:|---|")
    for name, ts in w.items():
        r = sorted(t / b for t, b in zip(ts, base))
        print(f"| {name} | {med(ts) * 1000:.1f} ms | {med(r):.4f} | {', '.join(f'{x:.4f}' for x in r)} |")
PY
