#!/usr/bin/env bash
# Every Swift snippet of the README and of the DocC articles is a file of the repository, quoted
# whole: a line `<!-- file: PATH -->` followed by a fenced block must hold PATH's contents, and a
# ```swift block without such a line fails. The files are built and run by scripts/test.sh (the
# library's Tests/DocumentationTests, Examples/QuickStart), so a snippet that drifts from the API
# fails there, and one that drifts from its file fails here. `--write` copies each file into its
# quote instead (after an edit of the file).
set -euo pipefail
cd "$(dirname "$0")/.."
WRITE="${1:-}" python3 - README.md Sources/*/*.docc/*.md <<'PY'
import os, re, sys
write = os.environ.get("WRITE") == "--write"
marked = re.compile(r"<!-- file: (\S+) -->\n```[a-z]*\n(.*?)```\n", re.S)
swift_block = re.compile(r"^```swift\n", re.M)
total = bad = 0
for document in sys.argv[1:]:
    text = open(document).read()
    if write:
        text = marked.sub(lambda m: f"<!-- file: {m.group(1)} -->\n```swift\n{open(m.group(1)).read()}```\n", text)
        open(document, "w").write(text)
    quoted = {match.start(2) - len("```swift\n") for match in marked.finditer(text)}
    for block in swift_block.finditer(text):
        if block.start() not in quoted:
            line = text.count("\n", 0, block.start()) + 1
            print(f"check-readme-snippets: {document}:{line}: a Swift block that is not a file of the repository "
                  "(precede it with <!-- file: PATH --> and keep the code in PATH, where the tests build it)", file=sys.stderr)
            bad += 1
    for path, block in marked.findall(text):
        total += 1
        try:
            content = open(path).read()
        except OSError as error:
            print(f"check-readme-snippets: {document}: {path}: {error.strerror}", file=sys.stderr)
            bad += 1
            continue
        if block != content:
            print(f"check-readme-snippets: {document}'s copy of {path} differs from the file", file=sys.stderr)
            bad += 1
if total == 0:
    sys.exit("check-readme-snippets: no '<!-- file: PATH -->' snippets found")
print(f"==> check-readme-snippets: {total} snippets in {len(sys.argv) - 1} documents; {bad} problems", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
