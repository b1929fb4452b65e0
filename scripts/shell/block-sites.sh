#!/usr/bin/env bash
# Blocks a list of websites through /etc/hosts while the MorningProof gate is closed, and lifts the
# block once it opens. NEEDS ROOT: it edits /etc/hosts. Run it every few minutes from root's crontab,
# pointing at your own database, for example:
#
#   */5 * * * * MORNINGPROOF_DB=/home/you/.local/share/morningproof/morningproof.sqlite \
#     /path/to/scripts/shell/block-sites.sh
#
# The sites are the shield's own list, `morningproof gate sites list` (add them with `morningproof gate
# sites add instagram.com "*.reddit.com"`): the same list the browser extension shields. /etc/hosts
# knows no wildcards, so instagram.com blocks instagram.com and www.instagram.com, and *.reddit.com
# blocks reddit.com and www.reddit.com (the extension shields every subdomain). The lines it adds sit
# between two marker comments and are removed when the gate opens. If morningproof fails (not exit 0
# or 1, or the list cannot be read), the hosts file is left as it was. Browsers cache DNS for a while, so a change
# can take a minute to show. It is a nudge, not a lock: root can always edit the file back.
#
# MORNINGPROOF_HOSTS_FILE overrides /etc/hosts (to try it out on a copy); MORNINGPROOF_BIN names the program.
set -euo pipefail

if [ $# -gt 0 ]; then
  echo "usage: block-sites.sh (the sites are morningproof gate sites list)" >&2
  exit 64
fi
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

# One pattern a line; "No site is shielded..." (an empty list) is no pattern.
if ! listed=$("$bin" gate sites list); then
  echo "block-sites: morningproof gate sites list failed; $hosts left as it was" >&2
  exit 1
fi
sites=$(printf '%s\n' "$listed" | grep -E '^(\*\.)?[a-z0-9.-]+$' | sed 's/^\*\.//' | sort -u || true)

new=$(mktemp)
trap 'rm -f "$new"' EXIT
# Everything but an earlier block.
awk -v begin="$begin" -v end="$end" '$0 == begin { skip = 1; next } $0 == end { skip = 0; next } !skip' "$hosts" >"$new"
if [ "$verdict" -eq 1 ]; then
  {
    echo "$begin"
    for site in $sites; do
      for host in "$site" "www.$site"; do
        echo "0.0.0.0 $host"
        echo ":: $host"
      done
    done
    echo "$end"
  } >>"$new"
fi
if ! cmp -s "$new" "$hosts"; then
  cat "$new" >"$hosts" # keeps the file's owner and mode
  echo "block-sites: gate $([ "$verdict" -eq 1 ] && echo closed, sites blocked || echo open, sites unblocked)"
fi
