#!/usr/bin/env bash
# The documentation site: every library product's DocC catalog and symbols, built with the
# toolchain's docc (no dependency for users), warnings as errors, into one static site.
#
#   scripts/docs.sh              build the site into .build/docs (after a build of the library
#                                that emits symbol graphs: scripts/test.sh's plain build, or the
#                                one this script runs when SYMBOL_GRAPHS is not set)
#   scripts/docs.sh --open       then serve it on a loopback port and print its address
#   scripts/docs.sh --check      then open the site's index and one article in a real browser
#                                (chromium, headless) and check their text (the test command)
#
# Environment: SYMBOL_GRAPHS, the folder of the library's symbol graphs (scripts/lib.sh's
# test_build_settings names the plain build's).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
mode="${1:-}"
if [ -z "${SYMBOL_GRAPHS:-}" ]; then
  ensure_swift
  test_build_settings
  echo "==> building the library with its symbol graphs" >&2
  swift build --scratch-path "$PLAIN" "${PLAIN_FLAGS[@]}" >&2
fi
site=.build/docs
graphs_root=$(cd "$SYMBOL_GRAPHS" && pwd)
work=$(mktemp -d)
server_pid=""
cleanup() {
  [ -z "$server_pid" ] || kill "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# The library's products (Package.swift's .library entries), each a module of the same name.
mapfile -t modules < <(sed -n 's/^ *\.library(name: "\([A-Za-z]*\)".*/\1/p' Package.swift | sort -u)

# own_symbols MODULE GRAPH OUT: GRAPH without what MODULE only re-exports. A graph holds every
# module its `@_exported import`s name: CoreLocation's held all of Foundation and Glibc (about
# 19,000 symbols, `abday_1` of langinfo.h among them), MapKit's CoreLocation's as well; DocC
# made a page of each. Kept: symbols declared in this repository (another product's Sources/
# folder excepted: it has its own page, unless the module re-exports it and declares nothing
# itself) or in a dependency's checkout (Combine is OpenCombine's
# API), the members the compiler synthesizes for a kept type or declares for it implicitly, and
# the relationships from a kept symbol.
own_symbols() {
  python3 - "$@" "$PWD" "${modules[@]}" <<'PY'
import functools, json, re, sys
module, source, out, root, products = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], set(sys.argv[5:])
graph = json.load(open(source))

def declared_here(symbol, others_too=False):
    uri = symbol.get("location", {}).get("uri", "")
    if "/checkouts/" in uri:
        return True
    if not uri.startswith(f"file://{root}/") or "/.build/" in uri:
        return False
    folder = re.search(re.escape(root) + r"/Sources/([^/]+)/", uri)
    return others_too or not folder or folder.group(1) == module or folder.group(1) not in products

located = [s for s in graph["symbols"] if declared_here(s)]
if not located:
    # A module that only re-exports another (LocationServices, LocationModel's old name): its page
    # lists what it re-exports.
    declared_here = functools.partial(declared_here, others_too=True)
    located = [s for s in graph["symbols"] if declared_here(s)]
ids = {s["identifier"]["precise"] for s in located}
# A synthesized member's identifier is the protocol's member's, "::SYNTHESIZED::", then its type's.
synthesized = [s for s in graph["symbols"] if "::SYNTHESIZED::" in s["identifier"]["precise"] and not declared_here(s)]
kept = located + [s for s in synthesized if s["identifier"]["precise"].split("::SYNTHESIZED::")[1] in ids]
# And the implicit ones, with no place in the sources (a raw-value enum's init(rawValue:)): members of a kept type.
implicit = {r["source"] for r in graph["relationships"] if r["kind"] == "memberOf" and r["target"] in ids}
kept += [s for s in graph["symbols"] if "location" not in s and "::SYNTHESIZED::" not in s["identifier"]["precise"]
         and s["identifier"]["precise"] in implicit]
ids = {s["identifier"]["precise"] for s in kept}
graph["symbols"] = kept
graph["relationships"] = [r for r in graph["relationships"] if r["source"] in ids]
json.dump(graph, open(out, "w"))
PY
}
rm -rf "$site"
mkdir -p "$site"
failed=()
for module in "${modules[@]}"; do
  [ -e "$graphs_root/$module.symbols.json" ] || { echo "docs: no symbol graph for $module (build the library first)" >&2; exit 1; }
  # The module's graph and its extensions of others' types (Module@Other), nothing else, each
  # cut to the module's own symbols (own_symbols, below).
  graphs="$work/graphs/$module"
  mkdir -p "$graphs"
  for graph in "$graphs_root/$module".symbols.json "$graphs_root/$module"@*.symbols.json; do
    if [ -e "$graph" ]; then own_symbols "$module" "$graph" "$graphs/$(basename "$graph")"; fi
  done
  catalog=$(ls -d "Sources/$module"/*.docc 2>/dev/null | head -1 || true)
  lower=$(tr '[:upper:]' '[:lower:]' <<< "$module")
  # Combine's symbols are OpenCombine's (re-exported), with OpenCombine's comments: its warnings
  # are that project's to fix, so they are shown but do not fail the site.
  strict=(--warnings-as-errors)
  [ "$module" != Combine ] || strict=()
  if ! docc convert ${catalog:+"$catalog"} --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name "$module" --fallback-bundle-identifier "org.locationemulator.$module" \
    --output-path "$site/$module" --transform-for-static-hosting --hosting-base-path "$module" \
    "${strict[@]}" > "$work/$module.log" 2>&1; then
    failed+=("$module")
    sed "s|^|$module: |" "$work/$module.log" >&2
  fi
  echo "<li><a href=\"$module/documentation/$lower/\">$module</a></li>" >> "$work/index-items.html"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "docs: docc found problems in ${#failed[@]} module(s): ${failed[*]}" >&2
  exit 1
fi
# Every public symbol of an API product (docs/PublicAPI.md) declared here has a comment: DocC
# warns about a broken link or parameter, not about a symbol with nothing to say. (Members the
# compiler synthesizes, such as Codable's, have no place in the sources and are left out.)
mapfile -t api < <(api_products)
python3 - "$graphs_root" "${api[@]}" <<'PY'
import glob, json, os, sys
root = os.getcwd()
products = sys.argv[2:]
missing = []
for product in products:
    graphs = glob.glob(f"{sys.argv[1]}/{product}.symbols.json") + glob.glob(f"{sys.argv[1]}/{product}@*.symbols.json")
    for graph in graphs:
        for symbol in json.load(open(graph))["symbols"]:
            where = symbol.get("location", {}).get("uri", "")
            if symbol.get("accessLevel") not in ("public", "open") or symbol.get("docComment") or f"{root}/Sources/" not in where:
                continue
            line = symbol["location"]["position"]["line"] + 1
            missing.append(f"{where.split(root + '/', 1)[1]}:{line}: {'.'.join(symbol['pathComponents'])}")
if missing:
    print(f"docs: {len(missing)} public symbol(s) of the API products without a documentation comment:", file=sys.stderr)
    print("\n".join(sorted(set(missing))[:40]), file=sys.stderr)
    sys.exit(1)
print(f"docs: every public symbol of the {len(products)} API products has a documentation comment", file=sys.stderr)
PY
{
  echo '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>LocationEmulator documentation</title></head><body>'
  echo '<h1>LocationEmulator documentation</h1><p>One page per library product: its guides and its symbols.</p><ul>'
  cat "$work/index-items.html"
  echo '</ul></body></html>'
} > "$site/index.html"
echo "docs: ${#modules[@]} modules, no warning: $site/index.html" >&2

case "$mode" in
  --open)
    echo "docs: serving $site; press Ctrl-C to stop" >&2
    rm -rf "$work"
    exec python3 -m http.server --bind 127.0.0.1 --directory "$site" 0
    ;;
  --check)
    # A real browser on a real server: the index, a module's page and one of its articles,
    # rendered (DocC's pages are drawn by JavaScript from the site's JSON), each with the text its
    # source gives.
    cat > "$work/check.py" <<'PY'
import functools, html, http.server, re, subprocess, sys, threading
site = sys.argv[1]
class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=site))
threading.Thread(target=server.serve_forever, daemon=True).start()
base = f"http://127.0.0.1:{server.server_address[1]}"

def text(path):
    dom = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=20000",
                          "--dump-dom", base + path], capture_output=True, text=True, timeout=240).stdout
    dom = re.sub(r"<(script|style)[^>]*>.*?</\1>", "", dom, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", dom)))

def summary(markdown):
    # The article's first paragraph after its title, as DocC shows it (code spans without backticks).
    lines = open(markdown).read().split("\n\n")[1]
    return re.sub(r"\s+", " ", lines.replace("`", "")).strip()

failures = []
# (path, what the page shows, what it must not: CoreLocation's page lists its own symbols, not
# those of Foundation or Glibc, which it re-exports)
pages = [("/", ["LocationEmulator documentation", "NMEA", "CoreLocation"], []),
         ("/NMEA/documentation/nmea/", ["NMEA", "Decoding NMEA"], []),
         ("/NMEA/documentation/nmea/decoding/", ["Decoding NMEA", summary("Sources/NMEA/Documentation.docc/Decoding.md")[:60]], []),
         ("/CoreLocation/documentation/corelocation/", ["CLLocationManager", "CLGeocoder"],
          ["BlockOperation", "URLSession", "JSONDecoder"])]
for path, wanted, unwanted in pages:
    shown = text(path)
    wrong = [w for w in wanted if w not in shown] + [f"not {u}" for u in unwanted if u in shown]
    print(f"docs: {path}: {'ok' if not wrong else 'WRONG ' + repr(wrong)}")
    if wrong:
        failures.append(path)
server.shutdown()
sys.exit(1 if failures else 0)
PY
    # Bounded: a browser that never answers ends the check with a message, not a hang.
    run_bounded 600 python3 "$work/check.py" "$site"
    ;;
esac
