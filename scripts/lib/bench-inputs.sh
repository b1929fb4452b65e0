# Sourced (not run) by the benchmarks that read health files: scripts/bench/ingest, scripts/bench/server.
# Each input is generated once, deterministically, and cached under .build-bench/health/ (run from
# the repository's root).
#
#   bench_export SIZE_MB [--valid-dtd] NAME
#       An Apple Health export.xml of about SIZE_MB (scripts/make-health-export) at
#       .build-bench/health/NAME; sets BENCH_INPUT to its path.
#   bench_zip XML_NAME ZIP_NAME
#       .build-bench/health/XML_NAME as apple_health_export/export.xml inside ZIP_NAME.zip, the way
#       the Health app shares it; sets BENCH_INPUT.
#   bench_auto_export SIZE_MB NAME
#       A Health Auto Export JSON payload of about SIZE_MB (scripts/make-health-auto-export); sets
#       BENCH_INPUT.

bench_cache=.build-bench/health
mkdir -p "$bench_cache"

bench_export() {
  local size=$1 flags=() name
  shift
  [ "${1:-}" = --valid-dtd ] && { flags=(--valid-dtd); shift; }
  name=$1
  BENCH_INPUT=$bench_cache/$name
  if [ ! -s "$BENCH_INPUT" ]; then
    echo "generating $BENCH_INPUT ($size MB)..." >&2
    scripts/make-health-export --size-mb "$size" "${flags[@]}" "$BENCH_INPUT.tmp" && mv "$BENCH_INPUT.tmp" "$BENCH_INPUT"
  fi
}

bench_zip() {
  local xml=$1 name=$2
  BENCH_INPUT=$bench_cache/$name.zip
  if [ ! -s "$BENCH_INPUT" ]; then
    rm -rf "$bench_cache/zip-$name" && mkdir -p "$bench_cache/zip-$name/apple_health_export"
    ln "$bench_cache/$xml" "$bench_cache/zip-$name/apple_health_export/export.xml" 2>/dev/null ||
      cp "$bench_cache/$xml" "$bench_cache/zip-$name/apple_health_export/export.xml"
    (cd "$bench_cache/zip-$name" && zip -q -1 -r "../$name.zip" apple_health_export)
    rm -rf "$bench_cache/zip-$name"
  fi
}

bench_auto_export() {
  local size=$1 name=$2
  BENCH_INPUT=$bench_cache/$name
  if [ ! -s "$BENCH_INPUT" ]; then
    echo "generating $BENCH_INPUT ($size MB)..." >&2
    scripts/make-health-auto-export --size-mb "$size" "$BENCH_INPUT.tmp" && mv "$BENCH_INPUT.tmp" "$BENCH_INPUT"
  fi
}
