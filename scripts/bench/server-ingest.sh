# Sourced (not run) by scripts/bench/server: the ingest part. POST /api/metrics of an Apple Health
# export (zip, and its export.xml) and of a Health Auto Export JSON payload over loopback, each to a
# new server on a new database, against `morningproof metrics import` of the same file into a new
# SQLite file in the same run. Prints per file: MB/s of both (over the file's bytes; for the zip,
# over the export.xml inside it, so that both forms of the export compare), their ratio, CPU
# seconds, peak memory (VmHWM of the server, max RSS of the CLI) and the records each read.
# Aim: the server at least 60% of the CLI's MB/s; under 150 MB peak for the 100 MB export.
#
# Each server gets a new account and a metrics-scope token (POST /api/tokens), as Health Auto Export
# would use.
# Uses from scripts/bench/server: start, api, $work, $bin; and $mp, the morningproof CLI.
# INGEST_EXPORT_MB (100) and INGEST_JSON_MB (10) set the sizes.

source scripts/lib/bench-inputs.sh
INGEST_NOW=2026-04-15T09:00:00-04:00
INGEST_RUN=0

ms_since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }'; }
proc_cpu() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$1/stat"; }

# ingest_row LABEL FILE CONTENT-TYPE MB DATABASE-ARGS...: one row of the table.
ingest_row() {
  local label=$1 file=$2 type=$3 mb=$4 name token code seconds cpu0 cpu peak records t0
  shift 4
  INGEST_RUN=$((INGEST_RUN + 1))
  name=ingest$INGEST_RUN
  start "$name" "$@"
  token=$(api -d "{\"email\": \"ingest$INGEST_RUN.$$@example.com\", \"password\": \"bench password\",
    \"timezone\": \"America/New_York\"}" "$url/api/auth/signup" | jq -r .token)
  # The token a phone would hold: one that can only post metrics.
  token=$(api -H "Authorization: Bearer $token" -d '{"name": "bench", "scope": "metrics"}' "$url/api/tokens" |
    jq -r .token)
  cpu0=$(proc_cpu "$SERVER_PID")
  t0=$EPOCHREALTIME
  # No `Expect: 100-continue` (curl's default above 1 MB, which browsers and phones do not send): the
  # server answers no 100, so curl would wait its 1 s timeout before sending the body.
  # curl holds a --data-binary body in memory, which it cannot past about 1 GB: larger files are streamed (-T).
  local body=(--data-binary @"$file")
  [ "$(stat -c %s "$file")" -lt 1000000000 ] || body=(-X POST -T "$file")
  code=$(curl -sS -o "$work/$name.json" -w '%{http_code}' -H 'Expect:' -H "Authorization: Bearer $token" \
    -H "Content-Type: $type" -H "X-MorningProof-Now: $INGEST_NOW" "${body[@]}" "$url/api/metrics")
  seconds=$(ms_since "$t0")
  cpu=$(awk -v a="$cpu0" -v b="$(proc_cpu "$SERVER_PID")" 'BEGIN { printf "%.2f", b - a }')
  peak=$(awk '/VmHWM/ { print $2 }' "/proc/$SERVER_PID/status")
  server_stop "$work" "$name"
  if [ "$code" = 503 ]; then  # an engine that does not take metrics (yet): say so, go on
    printf '%-30s %7.1f   server answered 503: %s\n' "$label" "$mb" "$(jq -r .error "$work/$name.json")"
    return 0
  elif [ "$code" != 200 ]; then
    echo "POST /api/metrics ($label) answered $code: $(head -c 400 "$work/$name.json")" >&2
    return 1
  fi
  records=$(jq -r .records "$work/$name.json")

  local cli_s cli_peak cli_user cli_sys cli_records
  t0=$EPOCHREALTIME
  TZ=America/New_York /usr/bin/time -f "%M %U %S" -o "$work/$name.time" \
    "$mp" metrics import "$file" --db "$work/$name-cli.sqlite" --now "$INGEST_NOW" --json \
    >"$work/$name-cli.json" 2>"$work/$name-cli.err" || {
    echo "morningproof metrics import ($label) failed:" >&2
    tail -5 "$work/$name-cli.err" >&2
    return 1
  }
  cli_s=$(ms_since "$t0")
  read -r cli_peak cli_user cli_sys <"$work/$name.time"
  cli_records=$(jq -r .recordsRead "$work/$name-cli.json")

  local server_rate cli_rate
  server_rate=$(awk -v m="$mb" -v s="$seconds" 'BEGIN { printf "%.1f", m / s }')
  cli_rate=$(awk -v m="$mb" -v s="$cli_s" 'BEGIN { printf "%.1f", m / s }')
  printf '%-30s %7.1f %8.2f s %7s %6s s %7.1f MB %8.2f s %7s %6s s %7.1f MB %7s %s\n' "$label" "$mb" \
    "$seconds" "$server_rate" "$cpu" "$(awk -v k="$peak" 'BEGIN { print k / 1024 }')" "$cli_s" "$cli_rate" \
    "$(awk -v u="$cli_user" -v s="$cli_sys" 'BEGIN { printf "%.2f", u + s }')" \
    "$(awk -v k="$cli_peak" 'BEGIN { print k / 1024 }')" \
    "$(awk -v a="$server_rate" -v b="$cli_rate" 'BEGIN { printf "%.0f%%", 100 * a / b }')" \
    "$records / $cli_records"
}

# ingest_bench ENGINE-LABEL DATABASE-ARGS...: the table for one engine. DATABASE-ARGS may hold the
# word @DB, replaced by a new SQLite file for each server.
ingest_bench() {
  local engine=$1 export_mb=${INGEST_EXPORT_MB:-100} json_mb=${INGEST_JSON_MB:-10} xml zip json xml_mb json_mb_real
  shift
  bench_export "$export_mb" "export-$export_mb.xml"
  xml=$BENCH_INPUT
  bench_zip "export-$export_mb.xml" "export-$export_mb"
  zip=$BENCH_INPUT
  bench_auto_export "$json_mb" "auto-export-$json_mb.json"
  json=$BENCH_INPUT
  xml_mb=$(awk -v b="$(stat -c %s "$xml")" 'BEGIN { printf "%.1f", b / 1e6 }')
  json_mb_real=$(awk -v b="$(stat -c %s "$json")" 'BEGIN { printf "%.1f", b / 1e6 }')
  # Files past the default limits (512 MB for an export, 50 MB otherwise) get limits that fit them.
  local mib=$(((${export_mb%.*} > ${json_mb%.*} ? ${export_mb%.*} : ${json_mb%.*}) + 1))
  [ "$mib" -le 50 ] || set -- "$@" --metrics-limit "${mib}MB" --metrics-export-limit "$((mib > 512 ? mib : 512))MB"
  echo "POST /api/metrics over loopback ($engine, a new server and database per file) against morningproof metrics import (a new SQLite file):"
  printf '%-30s %7s %10s %7s %8s %10s %10s %7s %8s %10s %7s %s\n' file MB "server" "MB/s" CPU peak "CLI" "MB/s" CPU \
    peak "ratio" "records (server / CLI)"
  ingest_row "Apple export.zip ($(awk -v b="$(stat -c %s "$zip")" 'BEGIN { printf "%.0f", b / 1e6 }') MB zip)" \
    "$zip" application/zip "$xml_mb" "${@/@DB/$work/ingest-zip.sqlite}"
  ingest_row "Apple export.xml" "$xml" application/xml "$xml_mb" "${@/@DB/$work/ingest-xml.sqlite}"
  ingest_row "Health Auto Export JSON" "$json" application/json "$json_mb_real" "${@/@DB/$work/ingest-json.sqlite}"
  echo "aim: ratio (server MB/s / CLI MB/s) >= 60%; server peak < 150 MB for the ${export_mb} MB export"
}
