#!/usr/bin/env bash
# scripts/slow.sh COMMAND...: runs COMMAND on a slow machine made at will, the same way every time:
# COMMAND and everything it starts are pinned to one core (taskset -c 0), and a busy loop runs on
# that same core for as long as COMMAND does. That is a quarter of this machine's CPU or less (one
# of two cores, shared with the loop): slower than any machine of this kind we have measured, and
# a cooperative pool of one thread, where a test that blocks it stops every other test.
#
# Use it on any change to a test that waits, before it lands:
#   scripts/slow.sh scripts/test.sh           # the whole test command
#   scripts/slow.sh swift test --filter X   # one suite
# LOCEMU_SLOW_CORE=N uses core N instead of 0: two slow runs side by side, one a core, each see
# the same slow machine. Exits with COMMAND's status; the busy loop is stopped however COMMAND ends.
set -euo pipefail
if [ $# -eq 0 ]; then
  echo "usage: scripts/slow.sh COMMAND [ARGUMENT...]" >&2
  exit 64
fi
command -v taskset > /dev/null || { echo "error: taskset (util-linux) is not on PATH" >&2; exit 1; }
core=${LOCEMU_SLOW_CORE:-0}
if ! [[ "$core" =~ ^[0-9]+$ ]] || [ "$core" -ge "$(nproc --all)" ]; then
  echo "error: LOCEMU_SLOW_CORE=$core is not a core of this machine (0 to $(($(nproc --all) - 1)))" >&2
  exit 64
fi
# The busy loop in a session (and so a scheduler group) of its own: the kernel's autogroups then
# share the core between it and COMMAND's session as two equals, however many threads COMMAND runs.
set +m
setsid taskset -c "$core" sh -c 'while :; do :; done' &
busy=$!
stop_busy() { kill -KILL -- "-$busy" 2> /dev/null || kill -KILL "$busy" 2> /dev/null || true; }
trap stop_busy EXIT
trap 'stop_busy; exit 130' INT
trap 'stop_busy; exit 143' TERM
echo "==> slow mode: '$*' pinned to core $core beside a busy loop (pid $busy)" >&2
status=0
taskset -c "$core" "$@" || status=$?
exit "$status"
