# Shared helpers for the tools/ scripts. Source it; do not run it.

# ensure_apt_packages PKG...: installs the Debian packages that are missing, saying so.
ensure_apt_packages() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "==> installing missing apt packages: ${missing[*]}" >&2
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# ensure_swift: fails with a clear message when no Swift toolchain is on PATH.
ensure_swift() {
  if ! command -v swift >/dev/null 2>&1; then
    [ -x /opt/swift/usr/bin/swift ] && export PATH="/opt/swift/usr/bin:$PATH"
  fi
  command -v swift >/dev/null 2>&1 || { echo "error: swift is not on PATH (Swift 6.1 or later is needed)" >&2; exit 1; }
}

# run_bounded SECONDS COMMAND...: runs COMMAND in a session (and process group) of its own and
# returns its status. Past SECONDS it kills the whole group -- swift test, the xctest process
# and every child they started -- says so on standard error, and returns 124. Nothing survives.
run_bounded() {
  local limit=$1
  shift
  set +m
  setsid "$@" &
  local pid=$! waited=0
  while kill -0 "$pid" 2>/dev/null; do
    if [ "$waited" -ge "$limit" ]; then
      kill -KILL -- "-$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
      echo "error: '$*' ran past $limit s; its whole process group was killed" >&2
      return 124
    fi
    sleep 1
    waited=$((waited + 1))
  done
  local status=0
  wait "$pid" || status=$?
  return "$status"
}

# How every script builds the release locemu: with the Swift runtime and Foundation linked into
# it (--static-swift-stdlib), so that it runs without the toolchain's libraries and starts in
# about 10 ms instead of 21 (the dynamic linker's symbol lookups over 64 libraries were most of the
# start-up; libcurl's 35, through URLSession, went when the tools stopped linking it). Every
# release build of Tools must use the same flags, or SwiftPM rebuilds it all. Building needs
# libcurl's header (CLibcurl loads the library on first use).
LOCEMU_RELEASE=(--package-path Tools -c release --static-swift-stdlib)
LOCEMU_RELEASE_APT=(libcurl4-openssl-dev)
