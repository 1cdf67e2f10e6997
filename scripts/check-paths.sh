#!/usr/bin/env bash
# Fails when two paths in the repository differ only by case: on a case-insensitive file system
# (a Mac's default, Windows') a clone merges them into one folder or file. Fails too when two test
# files of different targets share a name: a failure's file name alone says where it is.
set -euo pipefail
cd "$(dirname "$0")/.."
clashes=$(git ls-files | tr '[:upper:]' '[:lower:]' | sort | uniq -d)
# Folders too: Tools/x and tools/y clash as folders even when no file name does.
folders=$(git ls-files | awk -F/ '{ p = $1; for (i = 2; i < NF; i++) { print p; p = p "/" $i } if (NF > 1) print p }' |
  sort -u | tr '[:upper:]' '[:lower:]' | sort | uniq -d)
if [[ -n $clashes || -n $folders ]]; then
  echo "check-paths: paths that differ only by case (a Mac's or Windows' clone merges them):" >&2
  printf '%s\n' $clashes $folders | sort -u | sed 's/^/  /' >&2
  exit 1
fi
tests=$(git ls-files 'Tests/*.swift' 'Tools/Tests/*.swift' 'Examples/*/Tests/*.swift' | grep -v '/Fixtures/' |
  xargs -n1 basename | sort | uniq -d)
if [[ -n $tests ]]; then
  echo "check-paths: test files of different targets with the same name (name each for its target):" >&2
  for name in $tests; do git ls-files 'Tests/*' 'Tools/Tests/*' 'Examples/*/Tests/*' | grep "/$name\$" | sed 's/^/  /' >&2; done
  exit 1
fi
echo "check-paths: no two paths differ only by case, no two test files share a name"
