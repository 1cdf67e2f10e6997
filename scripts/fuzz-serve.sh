#!/usr/bin/env bash
# Fuzzes `locemu serve`'s HTTP API from its OpenAPI file with schemathesis (PyPI): generated and
# mutated requests against every operation (the event stream's GET aside: it never ends), then
# stateful sequences. Fails on any 5xx, an answer that breaks the schema, or a server that
# crashed, no longer answers, or does not exit on SIGINT. How fast it answers is not checked:
# every timeout here is a hang guard (a request's 300 s; 600 s for the server's start, its
# answer afterwards and its exit), and its failure says what was waited for.
#
# Usage: scripts/fuzz-serve.sh [EXAMPLES]   (per operation; default 40)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_swift
examples="${1:-40}"
if ! python3 -c 'import schemathesis' 2>/dev/null; then
  echo "==> installing schemathesis (PyPI)" >&2
  python3 -m pip install --quiet schemathesis >&2 || python3 -m pip install --quiet --break-system-packages schemathesis >&2
fi
# LOCEMU_BINARY: a locemu already built (scripts/test.sh passes its ThreadSanitizer build's).
if [ -n "${LOCEMU_BINARY:-}" ]; then
  locemu="$LOCEMU_BINARY"
else
  locemu="$(swift build --package-path Tools --show-bin-path)/locemu"
  [ -x "$locemu" ] || swift build --package-path Tools --product locemu >&2
fi
# A request's timeout, a hang guard: a ThreadSanitizer build (its runtime linked in) slows the
# server several times over, and its heaviest answer (a zoom-0 map tile) took 8 s beside a
# build. The other waits' bound, in seconds.
request_timeout=300 bound=600
work=$(mktemp -d)
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill -KILL "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
"$locemu" serve --virtual-time --listen 127.0.0.1:0 --phones 3 --traces traces 2>"$work/serve.err" &
server_pid=$!
# Its 'listening on' line, polled in its stderr (ending at once if it exits), within the bound.
deadline=$((SECONDS + bound))
until grep -q '^listening on' "$work/serve.err" || ! kill -0 "$server_pid" 2>/dev/null || [ "$SECONDS" -ge "$deadline" ]; do
  sleep 0.1
done
url=$(sed -n 's/^listening on //p' "$work/serve.err")
[ -n "$url" ] || {
  echo "fuzz-serve: no 'listening on' line from locemu serve within $bound s (or it exited): $(cat "$work/serve.err")" >&2
  exit 1
}
echo "==> schemathesis against $url ($examples examples per operation; a request's timeout, $request_timeout s, is a hang guard)" >&2
# The event stream's GET (a response that never ends, by design) is left out by name, not deleted
# from the schema: deleted, it is a method the schema does not name, which the coverage phase
# sends to see it refused, and the stream then held that request for its whole timeout.
run_bounded 900 schemathesis run openapi.yaml --url "$url" --exclude-name 'GET /phones/{id}/events' \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
  --max-examples "$examples" --request-timeout "$request_timeout" --seed 1
# Still alive and answering, and still stops cleanly.
curl -sf --max-time "$bound" "$url/phones" >/dev/null || {
  echo "fuzz-serve: the server no longer answers GET /phones (or not within $bound s)" >&2
  exit 1
}
kill -INT "$server_pid"
# Its exit, bounded: polled (bash reaps its children as they end, so kill -0 fails once it has
# exited), then collected; past the bound the cleanup kills it.
deadline=$((SECONDS + bound))
while kill -0 "$server_pid" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.1; done
if kill -0 "$server_pid" 2>/dev/null; then
  echo "fuzz-serve: the server still ran $bound s after SIGINT" >&2
  exit 1
fi
status=0
wait "$server_pid" || status=$?
server_pid=""
[ "$status" -eq 0 ] || { echo "fuzz-serve: the server ended with $status after SIGINT" >&2; exit 1; }
echo "==> fuzz-serve: no 5xx, no schema break, no crash, no hang" >&2
