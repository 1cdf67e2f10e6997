#!/usr/bin/env bash
# Fuzzes `locemu serve`'s HTTP API from its OpenAPI file with schemathesis (PyPI): generated and
# mutated requests against every operation (the event stream's GET aside: it never ends), then
# stateful sequences. Fails on any 5xx, an answer that breaks the schema, a request slower than
# 5 s (15 s for a ThreadSanitizer build), or a server that crashed or hangs afterwards.
#
# Usage: tools/fuzz-serve.sh [EXAMPLES]   (per operation; default 40)
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/lib.sh
ensure_swift
examples="${1:-40}"
if ! python3 -c 'import schemathesis' 2>/dev/null; then
  echo "==> installing schemathesis (PyPI)" >&2
  python3 -m pip install --quiet schemathesis >&2 || python3 -m pip install --quiet --break-system-packages schemathesis >&2
fi
# LOCEMU_BINARY: a locemu already built (tools/test.sh passes its ThreadSanitizer build's).
if [ -n "${LOCEMU_BINARY:-}" ]; then
  locemu="$LOCEMU_BINARY"
else
  locemu="$(swift build --package-path Tools --show-bin-path)/locemu"
  [ -x "$locemu" ] || swift build --package-path Tools --product locemu >&2
fi
# A response within 5 s; a ThreadSanitizer build (its runtime linked in), whose checks slow the
# server several times over (a zoom-0 map tile, the heaviest answer, took 8 s beside a build),
# within 15 s.
response_limit=5 request_timeout=10
if grep -qa __tsan_init "$locemu"; then response_limit=15 request_timeout=30; fi
work=$(mktemp -d)
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
# The schema without the event stream's GET (a response that never ends by design).
python3 - "$work/api.yaml" <<'PY'
import sys, yaml
spec = yaml.safe_load(open("openapi.yaml"))
del spec["paths"]["/phones/{id}/events"]["get"]
yaml.safe_dump(spec, open(sys.argv[1], "w"))
PY
"$locemu" serve --virtual-time --listen 127.0.0.1:0 --phones 3 --traces traces 2>"$work/serve.err" &
server_pid=$!
for _ in $(seq 100); do grep -q '^listening on' "$work/serve.err" && break; sleep 0.1; done
url=$(sed -n 's/^listening on //p' "$work/serve.err")
[ -n "$url" ] || { echo "fuzz-serve: the server did not start: $(cat "$work/serve.err")" >&2; exit 1; }
echo "==> schemathesis against $url ($examples examples per operation, responses within $response_limit s)" >&2
run_bounded 900 schemathesis run "$work/api.yaml" --url "$url" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
  --max-examples "$examples" --request-timeout "$request_timeout" --max-response-time "$response_limit" --seed 1
# Still alive and answering, and still stops cleanly.
curl -sf --max-time 5 "$url/phones" >/dev/null || { echo "fuzz-serve: the server no longer answers" >&2; exit 1; }
kill -INT "$server_pid"
status=0
wait "$server_pid" || status=$?
server_pid=""
[ "$status" -eq 0 ] || { echo "fuzz-serve: the server ended with $status after SIGINT" >&2; exit 1; }
echo "==> fuzz-serve: no 5xx, no schema break, no crash, no hang" >&2
