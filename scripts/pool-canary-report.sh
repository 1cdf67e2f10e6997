#!/usr/bin/env bash
# scripts/pool-canary-report.sh LOG: prints the pool canary's reports in LOG (written by a test
# process run with LOCEMU_POOL_CANARY=LOG) with each frame's function, file and line, and exits 1
# when there is any; 0 when LOG is missing or empty. Frames in the Swift runtime, Dispatch and
# libc are left out: what is left names the test and the helper that blocked.
set -euo pipefail
log=${1:?usage: scripts/pool-canary-report.sh LOG}
[ -s "$log" ] || exit 0
symbolizer=$(command -v llvm-symbolizer || true)
demangle=$(command -v swift-demangle || true)
echo "error: a thread of Swift's cooperative pool was blocked (the pool canary's report; run the blocking call through offPool { … }):" >&2
while IFS= read -r line; do
  if [[ $line =~ ^\ +#([0-9]+)\ (0x[0-9a-f]+)\ (.+)$ ]]; then
    offset=${BASH_REMATCH[2]} image=${BASH_REMATCH[3]}
    case "$image" in
      */libc.so* | */libswift_Concurrency.so | */libdispatch.so | */libclang_rt.tsan* | */libFoundation*.so | */libswiftCore.so) continue ;;
    esac
    where=""
    if [ -n "$symbolizer" ] && [ -f "$image" ]; then
      where=$("$symbolizer" --obj="$image" --functions=linkage --inlining=false "$offset" 2> /dev/null | head -2 | paste -sd ' ' -)
      [ -z "$demangle" ] || where=$(printf '%s\n' "$where" | "$demangle" --simplified 2> /dev/null || printf '%s\n' "$where")
    fi
    echo "    ${where:-$offset in $image}" >&2
  else
    echo "$line" >&2
  fi
done < "$log"
exit 1
