# MorningProof for zsh. Add to ~/.zshrc:
#
#   source /path/to/morningproof/scripts/shell/morningproof.zsh
#
# On the first interactive shell of the day it asks the check-in (when one is set up and today is
# unanswered). With MORNINGPROOF_PROMPT=1 set before sourcing, the prompt starts with
# "[gate closed] " while the morning routine is not done. MORNINGPROOF_BIN names the program
# (default: morningproof). Gate an application with an alias, e.g.:
#
#   alias firefox='morningproof gate --exec firefox'

[[ -o interactive ]] || return 0

__morningproof_bin=${MORNINGPROOF_BIN:-morningproof}

# Asks at most once per day: a stamp file remembers the day (the check-in's own day, so
# config day-start is honoured) on which this shell last asked.
__morningproof_checkin_once() {
  local json day dir stamp
  json=$("$__morningproof_bin" checkin status --json 2>/dev/null) || return 0
  [[ $json == *'"shouldAsk":true'* ]] || return 0
  day=${json#*\"day\":\"}
  day=${day%%\"*}
  dir=${XDG_STATE_HOME:-$HOME/.local/state}/morningproof
  stamp=$dir/checkin-asked
  [[ -r $stamp && $(<"$stamp") == "$day" ]] && return 0
  mkdir -p "$dir" && print -r -- "$day" >"$stamp"
  "$__morningproof_bin" checkin
}

__morningproof_gate_prompt() {
  if "$__morningproof_bin" gate --quiet 2>/dev/null; then
    __morningproof_gate=''
  else
    __morningproof_gate='[gate closed] '
  fi
}

__morningproof_checkin_once

if [[ ${MORNINGPROOF_PROMPT:-0} == 1 ]]; then
  __morningproof_gate=''
  autoload -Uz add-zsh-hook
  add-zsh-hook precmd __morningproof_gate_prompt
  setopt PROMPT_SUBST
  PROMPT='${__morningproof_gate}'"$PROMPT"
fi
