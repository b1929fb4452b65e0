# Sourced (not run) by scripts/bench/server --tls, after its helpers (start, prepare, measure,
# wrk_run, server_ticks, pct). One SQLite database served twice in the same run: over plain HTTP,
# then over https (`serve --tls-cert --tls-key`, a certificate of a CA made here with openssl);
# GET /health, GET /api/stats/summary and POST /api/age/daily-update with keep-alive on each, and
# GET /health with `Connection: close` (so every request is a new TCP connection, and over https a
# new full TLS handshake: wrk resumes no session). Prints each figure with its ratio to plain HTTP.
# Aim on 2 cores: https keep-alive >= 70% of plain; >= 500 new handshakes per second.
# TLS_KEY=ecdsa (P-256, the default) or rsa (2048 bits) chooses the server's key.

# tls_certificate DIR: a CA and a server certificate for 127.0.0.1 it signs, as DIR/server.pem and DIR/server.key.
tls_certificate() {
  local dir=$1 key
  case ${TLS_KEY:-ecdsa} in
    ecdsa) key=(-newkey ec -pkeyopt ec_paramgen_curve:P-256) ;;
    rsa) key=(-newkey rsa:2048) ;;
    *) echo "TLS_KEY is ecdsa or rsa" >&2; return 64 ;;
  esac
  openssl req -x509 "${key[@]}" -nodes -keyout "$dir/ca.key" -out "$dir/ca.pem" -days 2 -subj "/CN=bench CA" 2>/dev/null
  openssl req "${key[@]}" -nodes -keyout "$dir/server.key" -out "$dir/server.csr" -subj /CN=localhost 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >"$dir/server.ext"
  openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -set_serial 1 -days 2 \
    -extfile "$dir/server.ext" -out "$dir/server.pem" 2>/dev/null
  cat "$dir/ca.pem" >>"$dir/server.pem"
}

# new_connections URL: GET URL/health, each request on a new connection; sets n to (rps p50 p99 errors cpu).
new_connections() {
  local before rps p50 p99 err count
  before=$(server_ticks)
  read -r rps p50 p99 err count < <(wrk_run "$THREADS" "$CONNECTIONS" -H 'Connection: close' "$1/health")
  n=("$rps" "$p50" "$p99" "$err" \
    "$(awk -v t=$(($(server_ticks) - before)) -v hz="$(getconf CLK_TCK)" -v n="$count" 'BEGIN { printf "%.0f", n ? t * 1e6 / hz / n : 0 }')")
}

tls_row() { # LABEL RPS P50 P99 ERR CPU PLAIN-RPS
  printf '%-34s %10.0f %9s ms %9s ms %8d %9s µs %10s\n' "$1" "$2" "$3" "$4" "$5" "$6" "$(pct "$2" "$7")"
}

tls_bench() {
  local db=$work/tls.sqlite plain
  export TOKEN
  tls_certificate "$work"
  TOKEN=$("$bin" token create --db "$db" --name bench | tail -n 1)
  start plain --db "$db"
  prepare "$url" "$TOKEN"
  : >"$work/plain.log"
  measure "$url"
  new_connections "$url"
  plain=("${h[@]}" "${s[@]}" "${d[@]}" "${n[@]}")
  server_stop_all

  start https --db "$db" --tls-cert "$work/server.pem" --tls-key "$work/server.key"
  curl -sf --cacert "$work/ca.pem" "$url/health" >/dev/null || { echo "https: no answer with the CA" >&2; return 1; }
  measure "$url"
  new_connections "$url"
  echo "plain HTTP and https (${TLS_KEY:-ecdsa} key, $(openssl x509 -in "$work/server.pem" -noout -text | grep -m1 -o 'Public-Key: ([0-9]* bit)'), TLS 1.3) on one SQLite database (https server's peak memory $(peak https))"
  printf '%-34s %10s %12s %12s %8s %12s %10s\n' endpoint "req/s" p50 p99 errors "CPU/request" "vs plain"
  tls_row "plain GET /health" "${plain[@]:0:5}" "${plain[0]}"
  tls_row "https GET /health" "${h[@]}" "${plain[0]}"
  tls_row "plain GET /api/stats/summary" "${plain[@]:5:5}" "${plain[5]}"
  tls_row "https GET /api/stats/summary" "${s[@]}" "${plain[5]}"
  tls_row "plain POST /api/age/daily-update" "${plain[@]:10:5}" "${plain[10]}"
  tls_row "https POST /api/age/daily-update" "${d[@]}" "${plain[10]}"
  tls_row "plain new connections /health" "${plain[@]:15:5}" "${plain[15]}"
  tls_row "https new handshakes /health" "${n[@]}" "${plain[15]}"
  server_stop_all
}
