build_progress() {
  grep -o '^\[[0-9]*/[0-9]*\]' .build/build-debug.log 2>/dev/null | tail -1 | tr -d '[]' | sed 's|/| of |;s|$| steps|'
}
started=$SECONDS said=$SECONDS
while kill -0 "$server_build" 2>/dev/null; do
  progress=$(build_progress)
  if [ -t 1 ]; then
    printf '\r(the server'"'"'s build: %s, %d s so far)   ' "${progress:-starting}" $((SECONDS - started))
  elif [ -n "$progress" ] && [ $((SECONDS - said)) -ge 1 ]; then
    echo "(the server's build: $progress, $((SECONDS - started)) s so far)"
    said=$SECONDS
  fi
  sleep 1
done
[ -t 1 ] && echo
