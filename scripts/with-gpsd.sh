#!/usr/bin/env bash
# Runs a command against a real gpsd fed with a trace:
#
#   scripts/with-gpsd.sh [FEED OPTIONS] TRACE -- COMMAND [ARGS...]
#
# starts `locemu feed TRACE` on a free loopback port, a real gpsd on another
# free loopback port reading it (gpsd -N -n -S PORT tcp://127.0.0.1:FEEDPORT),
# waits until gpsd accepts clients, then runs COMMAND with GPSD_HOST, GPSD_PORT
# and FEED_PORT in its environment. Both daemons are stopped by PID whatever
# happens (exit, error, Ctrl-C); the command's exit status is returned. FEED
# OPTIONS are passed to `locemu feed` (e.g. --speed 10 --loop).
#
# Example: scripts/with-gpsd.sh --loop traces/city-walk.nmea -- sh -c 'cgps 127.0.0.1:$GPSD_PORT'
# Environment: LOCEMU (the locemu binary; default: this checkout's debug build),
# GPSD (default: gpsd on PATH or /usr/sbin/gpsd).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 64; }
feed_args=()
while [[ $# -gt 0 && $1 != -- ]]; do feed_args+=("$1"); shift; done
[[ $# -gt 1 && ${#feed_args[@]} -gt 0 ]] || usage
shift

if [[ -z ${LOCEMU:-} ]]; then
  LOCEMU="$(cd "$here" && swift build --package-path Tools --show-bin-path)/locemu"
  if [[ ! -x $LOCEMU ]]; then
    echo "with-gpsd: building locemu" >&2
    (cd "$here" && swift build --package-path Tools --product locemu >&2)
  fi
fi
GPSD=${GPSD:-$(command -v gpsd || echo /usr/sbin/gpsd)}
[[ -x $GPSD ]] || { echo "with-gpsd: gpsd not found (apt-get install gpsd)" >&2; exit 69; }

work=$(mktemp -d)
feed_pid="" gpsd_pid=""
# SIGTERM, then SIGKILL after 2 s: a parent that blocks SIGTERM (some test runners do)
# passes the block on to its children, and gpsd then never sees the signal.
stop_pid() {
  local pid=${1:-}
  [[ -n $pid ]] || return 0
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
stop() {
  local status=$?
  stop_pid $gpsd_pid
  stop_pid $feed_pid
  if [[ $status -ne 0 && -n ${WITH_GPSD_LOGS:-1} ]]; then
    for log in "$work"/*.log; do [[ -s $log ]] && { echo "--- $(basename "$log")" >&2; tail -n 20 "$log" >&2; }; done
  fi
  rm -rf "$work"
  exit "$status"
}
trap stop EXIT
trap 'exit 130' INT TERM

accepts() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# How long each daemon may take to start: a hang guard, not a bound on start-up (a
# ThreadSanitizer locemu has taken 10-16 s to start on a loaded machine). Each wait polls for
# what the daemon does once it is up (its port file written; a client accepted) and ends at
# once when the daemon exits; past the bound it fails with a message naming what it waited for.
bound=600

"$LOCEMU" feed "${feed_args[@]}" --listen 127.0.0.1:0 --port-file "$work/feed.port" 2>"$work/feed.log" &
feed_pid=$!
deadline=$((SECONDS + bound))
until [[ -s $work/feed.port ]] || ! kill -0 "$feed_pid" 2>/dev/null || ((SECONDS >= deadline)); do sleep 0.05; done
if [[ ! -s $work/feed.port ]]; then
  if kill -0 "$feed_pid" 2>/dev/null; then
    echo "with-gpsd: locemu feed wrote no port file (--port-file) within $bound s" >&2
  else
    echo "with-gpsd: locemu feed exited before it wrote its port file" >&2
  fi
  exit 1
fi
feed_port=$(cat "$work/feed.port")

# A free port for gpsd: pick one nobody answers on, below the ephemeral range (32768 and up by
# default, where the kernel binds outgoing connections); retry if gpsd cannot bind it (it exits).
for _ in $(seq 10); do
  port=$((20000 + RANDOM % 12000))
  accepts "$port" && continue
  "$GPSD" -N -n -S "$port" -F "$work/gpsd.sock" "tcp://127.0.0.1:$feed_port" 2>"$work/gpsd.log" &
  gpsd_pid=$!
  deadline=$((SECONDS + bound))
  until accepts "$port" || ! kill -0 "$gpsd_pid" 2>/dev/null || ((SECONDS >= deadline)); do sleep 0.05; done
  accepts "$port" && break
  if kill -0 "$gpsd_pid" 2>/dev/null; then
    echo "with-gpsd: gpsd on 127.0.0.1:$port accepted no client within $bound s" >&2
    exit 1
  fi
  stop_pid "$gpsd_pid"
  gpsd_pid=""
done
[[ -n $gpsd_pid ]] || { echo "with-gpsd: gpsd did not start on any of 10 ports (see gpsd.log)" >&2; exit 1; }

echo "with-gpsd: gpsd on 127.0.0.1:$port (pid $gpsd_pid) reading locemu feed on 127.0.0.1:$feed_port (pid $feed_pid)" >&2
export GPSD_HOST=127.0.0.1 GPSD_PORT=$port FEED_PORT=$feed_port
set +e
"$@"
status=$?
set -e
exit "$status"
