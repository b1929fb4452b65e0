# Sourced (not run) by the scripts that need a live morningproof-server: scripts/demo,
# scripts/schemathesis/run, scripts/bench/server.
#
#   server_start DIR NAME COMMAND [ARG...]
#       Runs COMMAND ARG... --port 0 in the background: its stdout in DIR/NAME.stdout, its stderr
#       (the request log) in DIR/NAME.log, its process id in DIR/NAME.pid. Waits for the line that
#       says where it listens, then sets SERVER_URL (http://127.0.0.1:PORT), SERVER_PORT and
#       SERVER_PID. A server that exits first, or says nothing for 30 s, is a failure (its log on
#       stderr, return 1).
#   server_stop DIR NAME
#       SIGTERM, then waits for it to exit; sets SERVER_STATUS to its exit status.
#   server_stop_all
#       Stops every server started here and still running. Runs on exit, whatever ends the script;
#       add_exit_action CMD runs CMD (a string for eval) after it, for the caller's own cleanup.
# Every started server stays a child of the calling shell: never call server_start inside $(...).

_server_pid_files=()
_exit_actions=()

server_start() {
  local dir=$1 name=$2 line
  shift 2
  "$@" --port 0 >"$dir/$name.stdout" 2>"$dir/$name.log" &
  SERVER_PID=$!
  echo "$SERVER_PID" >"$dir/$name.pid"
  _server_pid_files+=("$dir/$name.pid")
  for _ in $(seq 300); do
    line=$(grep -s -m 1 -o 'listening on https\?://[0-9.]*:[0-9]*' "$dir/$name.stdout" || true)
    [ -n "$line" ] && break
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.1
  done
  if [ -z "$line" ]; then
    echo "server_start: $name did not say where it listens (${*}):" >&2
    cat "$dir/$name.stdout" "$dir/$name.log" >&2
    return 1
  fi
  SERVER_URL=${line#listening on }
  SERVER_PORT=${SERVER_URL##*:}
  export SERVER_URL SERVER_PORT SERVER_PID
}

server_stop() {
  local file=$1/$2.pid pid
  [ -e "$file" ] || return 0
  pid=$(cat "$file")
  rm -f "$file"
  kill -TERM "$pid" 2>/dev/null || true
  SERVER_STATUS=0
  wait "$pid" 2>/dev/null || SERVER_STATUS=$?
  # A process that is not this shell's child (wait returns 127 at once): wait for it to go.
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
}

server_stop_all() {
  local file
  for file in "${_server_pid_files[@]}"; do
    [ -e "$file" ] && server_stop "$(dirname "$file")" "$(basename "$file" .pid)"
  done
  return 0
}

add_exit_action() { _exit_actions+=("$1"); }

_server_on_exit() {
  local status=$? action
  server_stop_all
  for action in "${_exit_actions[@]}"; do eval "$action" || true; done
  exit "$status"
}
trap _server_on_exit EXIT
