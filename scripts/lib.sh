# Shared helpers for the scripts/ scripts. Source it; do not run it.

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

# api_products: the products docs/PublicAPI.md lists as API (the first column of its "API"
# table), one a line, but Combine: OpenCombine's API under a trait, not this project's to version.
api_products() {
  python3 - <<'PY'
import re
text = open("docs/PublicAPI.md").read()
section = text.split("\n## API\n", 1)[1].split("\n## ", 1)[0]
for row in section.splitlines():
    if row.startswith("| `"):
        for name in re.findall(r"`([A-Za-z]+)`", row.split("|")[1]):
            if name != "Combine":
                print(name)
PY
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

# The test builds, shared by scripts/test.sh and scripts/stress.sh (one set of flags, so that neither
# rebuilds what the other compiled). test_build_settings sets the variables they use.
# test_index_store SCRATCH_PATH [PACKAGE_PATH]: the environment setting that indexes only the
# test targets (the manifests' LOCEMU_TEST_INDEX_STORE), for
# `env "$(test_index_store …)" swift build --disable-index-store …`.
test_index_store() { echo "LOCEMU_TEST_INDEX_STORE=$(swift build --package-path "${2:-.}" --scratch-path "$1" --show-bin-path)/index/store"; }
test_build_settings() {
  STRICT=(-Xswiftc -warnings-as-errors -Xswiftc -gline-tables-only)
  # Known reports that are not races in the program, each with its reason: scripts/tsan-suppressions.txt.
  export TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/scripts/tsan-suppressions.txt ${TSAN_OPTIONS:-}"

  # Two build folders, each compiling the library once for what shares its configuration:
  #   .build       plain debug, default traits: the library's tests, and the example apps that use
  #                the library as apps do (NearbyPets, LostPets, QuickStart; StaticLink is a link of
  #                the same modules). Every build in it passes the same flags, so each reuses what
  #                the one before compiled (the symbol graphs the API coverage reads included).
  #   .build-tsan  ThreadSanitizer, trait ServedPhone: the library's tests and the tools package
  #                (which depends on the library with that trait), so the tools reuse the library.
  # CoreLocationCompat turns the Combine trait on, which changes every module of the library: it
  # keeps a folder of its own. LOCEMU_SKIP_TSAN=1: no .build-tsan; the tools plain in Tools/.build.
  PLAIN=.build
  SANITIZED=.build-tsan
  SHARED_EXAMPLES=(NearbyPets LostPets QuickStart)
  SYMBOL_GRAPHS="$PWD/$PLAIN/symbol-graphs"
  PLAIN_FLAGS=("${STRICT[@]}" -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$SYMBOL_GRAPHS"
    -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public)
  TSAN=(--sanitize=thread)
  TOOLS_SCRATCH=$SANITIZED
  if [ -n "${LOCEMU_SKIP_TSAN:-}" ]; then TSAN=() TOOLS_SCRATCH=Tools/.build; fi
  locemu_binary="$(swift build --package-path Tools "${TSAN[@]}" --scratch-path "$TOOLS_SCRATCH" --show-bin-path)/locemu"
}
plain_build() {
  mkdir -p "$SYMBOL_GRAPHS"
  # Indexed whole, as SwiftPM does by default: the examples' tests are discovered from the index,
  # and their manifests (the quick start's is quoted in the README) take no setting of ours.
  swift build --build-tests --scratch-path "$PLAIN" "${PLAIN_FLAGS[@]}"
  local example
  for example in "${SHARED_EXAMPLES[@]}"; do
    swift build --package-path "Examples/$example" --build-tests --scratch-path "$PLAIN" "${PLAIN_FLAGS[@]}"
  done
  # The same modules, linked with the Swift runtime and Foundation inside: only a link.
  swift build --package-path Examples/StaticLink --scratch-path "$PLAIN" --static-swift-stdlib "${PLAIN_FLAGS[@]}"
}
sanitized_build() {
  env "$(test_index_store "$TOOLS_SCRATCH" Tools)" swift build --package-path Tools --build-tests --disable-index-store \
    "${TSAN[@]}" --scratch-path "$TOOLS_SCRATCH" "${STRICT[@]}"
  if [ -z "${LOCEMU_SKIP_TSAN:-}" ]; then
    # After the tools, and the test product only: the library's Combine module, once in the
    # folder, turns `#if canImport(Combine)` on in the tools' dependencies; GRDB then compiles its
    # Combine publishers (the import resolves: Plugins/CombineModuleMap), which the tools'
    # programs, linking no OpenCombine, could not link. (swift-argument-parser's os_unfair_lock
    # under `canImport(os)` links either way: the os module emits it into its callers.)
    env "$(test_index_store "$SANITIZED")" swift build --product LocationEmulatorPackageTests --disable-index-store \
      --sanitize=thread --traits ServedPhone --scratch-path "$SANITIZED" "${STRICT[@]}"
  fi
}

