#!/usr/bin/env bash
# A Claude Code Stop hook: when Claude finishes a turn, wait up to QHORUS_HOOK_WAIT seconds for a
# new Qhorus obligation (a request addressed to this agent, or an open one from another agent);
# if one comes, keep Claude working with it as the next instruction, else let Claude stop.
#
# Claude Code reads a Stop hook's exit code its own way: 0 with {"decision":"block","reason":…}
# on stdout keeps Claude going with the reason as its next prompt; 2 ALSO blocks (stderr becomes
# the prompt); anything else is an error shown to the user. `qhorus inbox --wait` exits 2 when
# nothing new came, so this script translates: nothing new → exit 0, no output (Claude stops).
#
# Environment: QHORUS_URL, QHORUS_TOKEN (this agent's token), optionally QHORUS_HOOK_WAIT (30),
# QHORUS_INBOX_STATE (what was reported already; default per project), QHORUS_BIN (qhorus).
set -uo pipefail

cat >/dev/null # the hook's JSON input (session, transcript path…): not needed here
wait_s="${QHORUS_HOOK_WAIT:-30}"
state="${QHORUS_INBOX_STATE:-${CLAUDE_PROJECT_DIR:-.}/.claude/qhorus-inbox-state.json}"
read -r -a qhorus <<<"${QHORUS_BIN:-qhorus}"

out="$("${qhorus[@]}" inbox --wait "$wait_s" --state "$state" 2>/tmp/qhorus-hook.$$.err)"
code=$?
err="$(cat /tmp/qhorus-hook.$$.err)"; rm -f /tmp/qhorus-hook.$$.err

case "$code" in
  0)
    reason="New requests reached you on Qhorus while you were working. Handle each one, then answer it with the qhorus post command shown under it (RESPONSE for a QUERY, DONE when a COMMAND is done, DECLINE with a reason if you cannot):

$out"
    node -e 'process.stdout.write(JSON.stringify({ decision: "block", reason: process.argv[1] }))' "$reason"
    exit 0 ;;
  2) exit 0 ;; # nothing new: let Claude stop
  *) printf 'qhorus inbox hook failed (exit %s): %s\n' "$code" "$err" >&2
     exit 1 ;; # a non-blocking error: shown to the user, Claude stops
esac
