# Shared by the benchmark scripts: whole-process timing, medians of N runs, in milliseconds, of
# wall time and of CPU time (user + system: a loaded machine inflates it less than wall time).
#   t=$(median_ms RUNS command args...)   -> "WALL CPU", e.g. "3.12 2.84"
#   wall "$t", cpu "$t"                    -> one of the two
#   ms "$t"                                -> "3.12 ms (CPU 2.84)", for printing
#   ratios "$t1" "$t2"                     -> "1.42x (CPU 1.18x)"
# The command's output is discarded and its exit status ignored. scripts/bench/runtime.c does the
# timing (wait4's rusage, to the microsecond; bash's `time` rounds to the millisecond).
runtime=.build/bench-runtime
if [ ! -x "$runtime" ] || [ scripts/bench/runtime.c -nt "$runtime" ]; then
  mkdir -p .build && cc -O2 -o "$runtime" scripts/bench/runtime.c
fi

median_ms() {
  local runs=$1; shift
  local samples=()
  for ((i = 0; i < runs; i++)); do samples+=("$("$runtime" "$@")"); done
  echo "$(printf '%s\n' "${samples[@]}" | cut -d' ' -f1 | median_of) $(printf '%s\n' "${samples[@]}" | cut -d' ' -f2 | median_of)"
}
# The median of numbers (microseconds) on stdin, in milliseconds.
median_of() {
  sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", ((NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) / 1000 }'
}
wall() { echo "${1% *}"; }
cpu() { echo "${1#* }"; }
ms() { echo "$(wall "$1") ms (CPU $(cpu "$1"))"; }

# ratio A B: A / B with two decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
# ratios T1 T2: both figures of two median_ms results divided, e.g. "1.42x (CPU 1.18x)".
ratios() { echo "$(ratio "$(wall "$1")" "$(wall "$2")")x (CPU $(ratio "$(cpu "$1")" "$(cpu "$2")")x)"; }
