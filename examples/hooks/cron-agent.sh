#!/usr/bin/env bash
# A cron'd agent: every run takes the obligations that arrived since the last run (each once,
# thanks to the state file) and hands each to a handler command, which answers it.
#
#   * * * * *  QHORUS_URL=… QHORUS_TOKEN=… /path/to/examples/hooks/cron-agent.sh
#
# Each run waits up to QHORUS_CRON_WAIT seconds (default 50, so one run a minute covers the whole
# minute and a request is picked up within moments, not at the next tick); flock keeps two runs
# from overlapping. The handler gets one obligation as the API's JSON on stdin; the default one
# asks Claude Code headless (claude -p) to do the work and answer with `qhorus post`.
set -euo pipefail

state="${QHORUS_INBOX_STATE:-$HOME/.qhorus/cron-inbox-state.json}"
wait_s="${QHORUS_CRON_WAIT:-50}"
handler="${QHORUS_HANDLER:-claude -p --allowedTools Bash(qhorus:*)}"
read -r -a qhorus <<<"${QHORUS_BIN:-qhorus}"
read -r -a handle <<<"$handler"
mkdir -p "$(dirname "$state")"

exec 9>"$state.lock"
flock -n 9 || exit 0 # the previous run is still working

set +e
found="$("${qhorus[@]}" inbox --wait "$wait_s" --state "$state" --json)"
code=$?
set -e
[ "$code" -eq 2 ] && exit 0 # nothing new
[ "$code" -ne 0 ] && exit "$code"

# One handler run per obligation, oldest first.
node -e 'for (const o of JSON.parse(require("fs").readFileSync(0, "utf8"))) console.log(JSON.stringify(o))' <<<"$found" |
  while IFS= read -r obligation; do
    printf 'Answer this Qhorus request, then post the answer with: qhorus post CHANNEL TEXT --type RESPONSE|DONE|DECLINE --correlation-id ID --reply-to SEQ\n%s\n' "$obligation" |
      "${handle[@]}"
  done
