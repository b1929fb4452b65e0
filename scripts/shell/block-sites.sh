#!/usr/bin/env bash
# Blocks a list of websites through /etc/hosts while the MorningProof gate is closed, and lifts the
# block once it opens. NEEDS ROOT: it edits /etc/hosts. Run it every few minutes from root's crontab,
# pointing at your own database, for example:
#
#   */5 * * * * MORNINGPROOF_DB=/home/you/.local/share/morningproof/morningproof.sqlite \
#     /path/to/scripts/shell/block-sites.sh /home/you/.config/morningproof/blocked-sites
#
# The sites file holds one host name per line (news.example.com); # starts a comment. The lines it
# adds sit between two marker comments and are removed when the gate opens. If morningproof fails
# (not exit 0 or 1), the hosts file is left as it was. Browsers cache DNS for a while, so a change
# can take a minute to show. It is a nudge, not a lock: root can always edit the file back.
#
# MORNINGPROOF_HOSTS_FILE overrides /etc/hosts (to try it out on a copy); MORNINGPROOF_BIN names the program.
set -euo pipefail

sites=${1:?usage: block-sites.sh SITES_FILE}
hosts=${MORNINGPROOF_HOSTS_FILE:-/etc/hosts}
bin=${MORNINGPROOF_BIN:-morningproof}
begin='# >>> morningproof: blocked while the gate is closed >>>'
end='# <<< morningproof <<<'

set +e
"$bin" gate --quiet
verdict=$?
set -e
if [ "$verdict" -gt 1 ]; then
  echo "block-sites: morningproof gate failed (exit $verdict); $hosts left as it was" >&2
  exit "$verdict"
fi

new=$(mktemp)
trap 'rm -f "$new"' EXIT
# Everything but an earlier block.
awk -v begin="$begin" -v end="$end" '$0 == begin { skip = 1; next } $0 == end { skip = 0; next } !skip' "$hosts" >"$new"
if [ "$verdict" -eq 1 ]; then
  {
    echo "$begin"
    grep -v '^[[:space:]]*\(#\|$\)' "$sites" | awk '{ print "0.0.0.0 " $1; print ":: " $1 }'
    echo "$end"
  } >>"$new"
fi
if ! cmp -s "$new" "$hosts"; then
  cat "$new" >"$hosts" # keeps the file's owner and mode
  echo "block-sites: gate $([ "$verdict" -eq 1 ] && echo closed, sites blocked || echo open, sites unblocked)"
fi
