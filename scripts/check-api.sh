#!/usr/bin/env bash
# The API products' declarations against the last release's (swift package
# diagnose-api-breaking-changes): fails on a break that CHANGELOG.md's Unreleased section does not
# name.
#
#   scripts/check-api.sh          check (the test command runs it after the plain build)
#   scripts/check-api.sh --cut    record HEAD as the release to compare with: run it on the commit
#                                 that moves Unreleased under a new version, then commit the two
#                                 files it writes
#
# The API products are the first column of docs/PublicAPI.md's "API" table. The release's commit is
# in scripts/data/api-baseline.txt; its declarations, as the API digester dumps them, are in
# scripts/data/api-baseline.tar.xz, so that the check builds only the current code, with the plain
# build's flags (SwiftPM then finds it built: seconds after scripts/test.sh's plain build).
# A break is named when the Unreleased section holds the declaration's name as the digester gives
# it (e.g. `JSONValue.isNull` for "var JSONValue.isNull has been removed").
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
test_build_settings

mapfile -t products < <(api_products)
baseline_dir="$PLAIN/api-baseline"
digest() {
  swift package --scratch-path "$PLAIN" "${PLAIN_FLAGS[@]}" diagnose-api-breaking-changes "$1" \
    --products "${products[@]}" --baseline-dir "$baseline_dir" "${@:2}"
}

if [ "${1:-}" = --cut ]; then
  commit=$(git rev-parse HEAD)
  rm -rf "$baseline_dir"
  digest "$commit" --regenerate-baseline > /dev/null
  tar -C "$baseline_dir" -cJf scripts/data/api-baseline.tar.xz "$commit"
  echo "$commit" > scripts/data/api-baseline.txt
  echo "check-api: the release to compare with is $commit (${#products[@]} products); commit scripts/data/api-baseline.*"
  exit 0
fi

commit=$(cat scripts/data/api-baseline.txt)
if [ ! -d "$baseline_dir/$commit" ]; then
  rm -rf "$baseline_dir"
  mkdir -p "$baseline_dir"
  tar -C "$baseline_dir" -xJf scripts/data/api-baseline.tar.xz
fi
# A product the release did not have has nothing to break: it is not digested (the digester
# would build the release's checkout for it, with the plain build's flags, writing the release's
# symbol graphs over the current ones that scripts/docs.sh reads).
released=() new=()
for product in "${products[@]}"; do
  if [ -e "$baseline_dir/$commit/$product.json" ]; then released+=("$product"); else new+=("$product"); fi
done
products=("${released[@]}")
[ ${#new[@]} -eq 0 ] || echo "check-api: new since the release (nothing to compare): ${new[*]}" >&2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
digest "$commit" > "$log" 2>&1 || status=$?
if [ "$status" -ne 0 ] && ! grep -q "API breakage: " "$log"; then
  grep -v '^\[' "$log" >&2
  echo "check-api: the API digester failed (exit $status)" >&2
  exit 1
fi
python3 - "$log" "$commit" "${#products[@]}" "$baseline_dir/$commit" <<'PY'
import glob, json, re, sys
log, commit, count, dumps = sys.argv[1], sys.argv[2][:10], sys.argv[3], sys.argv[4]
# The digester compares `package` declarations too (its dumps mark them isInternal): they are this
# repository's own, not API, and a change to them is not a break.
internal = set()
def walk(node, parents):
    name = node.get("printedName", "")
    if node.get("isInternal"):
        internal.add(".".join(parents + [name]))
    inner = parents + [name] if node.get("kind") == "TypeDecl" else parents
    for child in node.get("children", []):
        walk(child, inner)
for dump in glob.glob(f"{dumps}/*.json"):
    root = json.load(open(dump))
    for child in root.get("ABIRoot", root).get("children", []):
        walk(child, [])
changelog = open("CHANGELOG.md").read()
unreleased = changelog.split("## [Unreleased]", 1)[1].split("\n## [", 1)[0]
breaks = [line.split("API breakage: ", 1)[1].strip() for line in open(log) if "API breakage: " in line]
unnamed = []
skipped = 0
for text in breaks:
    # "var JSONValue.isNull has been removed", "func FixRecord.fix(_:) has return type change …":
    # the declaration is what comes before " has " (or " is "), less its kind and parameters.
    declaration = re.split(r" (?:has|is|now) ", text, maxsplit=1)[0].split()
    name = declaration[-1] if declaration else text
    if name in internal:
        skipped += 1
        continue
    base = re.sub(r"\(.*", "", name)
    if base not in unreleased:
        unnamed.append(text)
if unnamed:
    print(f"check-api: {len(unnamed)} API break(s) since the release at {commit} that CHANGELOG.md's "
          "Unreleased section does not name (name each declaration there, or keep it):", file=sys.stderr)
    for text in unnamed:
        print(f"  {text}", file=sys.stderr)
    sys.exit(1)
public = len(breaks) - skipped
named = f"; {public} break(s), each named in the changelog's Unreleased section" if public else ", no break"
if skipped:
    named += f" ({skipped} change(s) of package declarations, not API)"
print(f"check-api: {count} API products against the release at {commit}{named}")
PY
