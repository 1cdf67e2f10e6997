#!/usr/bin/env bash
# The README's code that claims to be a file of the repository is that file, byte for byte: a
# line `<!-- file: PATH -->` followed by a fenced block must hold PATH's contents. The files are
# built and tested by tools/test.sh (Examples/QuickStart), so a snippet that drifts from the API
# fails there, and one that drifts from its file fails here.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 - README.md <<'PY'
import re, sys
text = open(sys.argv[1]).read()
pattern = re.compile(r"<!-- file: (\S+) -->\n```[a-z]*\n(.*?)```\n", re.S)
found = pattern.findall(text)
if not found:
    sys.exit("check-readme-snippets: no '<!-- file: PATH -->' snippets in README.md")
bad = 0
for path, block in found:
    try:
        content = open(path).read()
    except OSError as error:
        print(f"check-readme-snippets: {path}: {error.strerror}", file=sys.stderr)
        bad += 1
        continue
    if block != content:
        print(f"check-readme-snippets: README.md's copy of {path} differs from the file", file=sys.stderr)
        bad += 1
print(f"==> check-readme-snippets: {len(found) - bad} of {len(found)} README snippets match their files", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
