#!/usr/bin/env python3
"""The module graph, from the manifests, checked against the code and against docs/Architecture.md.

Reads `swift package dump-package` of the library (.) and of the tools (Tools/) and checks, for
every Swift target (tests included):

  layering   every module a target imports is one it declares (a target of its package or a
             product of a dependency), or a module of the toolchain. A lower module importing a
             higher one is such an undeclared import (a declared one would be a cycle, which
             SwiftPM refuses), so this is the check that the layers hold;
  no unused  every target it declares is imported by at least one of its files (clang module
   edges     maps that a target's own module map pulls in are named in MODULE_MAPS below);
  traits     a dependency a target declares only under a package trait (`.when(traits:)`) is
             imported only inside `#if TRAIT`: without the trait the module is not built, and an
             import outside the guard breaks that build (locemu without Servers, say), which the
             test command does not compile;
  one way    no module re-exports another (`@_exported`) but Apple's facades, whose re-exports
   to a      are the point (CoreLocation gives Foundation on Apple platforms, MapKit gives
   module    CoreLocation, Combine gives OpenCombine under Combine's name, os gives Glibc) and
             a renamed module's old name (LocationServices gives LocationModel).

It also fails on a hand-written Swift file over 600 lines (generated code, in folders named
Generated, excepted).

Then it draws the library's and the tools' graphs (Mermaid) and compares them with the ones
between the markers in docs/Architecture.md. `--write` rewrites them there instead.

Exit status 0 when all holds; 1 with one line per finding otherwise.
"""

import json
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
DOC = os.path.join(ROOT, "docs", "Architecture.md")

# Modules that come with the toolchain (Swift's standard modules, corelibs, the C library).
TOOLCHAIN = {
    "Swift", "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Dispatch",
    "Glibc", "Musl", "Darwin", "Synchronization", "Observation", "Testing", "XCTest", "_Concurrency",
    "RegexBuilder", "Android", "WinSDK", "ucrt", "CRT", "ObjectiveC", "_Volatile",
    # Apple's UI frameworks, which iOS code imports under `#if canImport(UIKit)` and the like.
    "UIKit", "AppKit", "SwiftUI", "WatchKit",
}

# Targets that exist only to give another target a clang module map; the importing target names
# them in its own module map, not in an import statement.
MODULE_MAPS = {"CoreLocationModuleMap", "osModuleMap"}
# Imports a target makes without declaring them, on purpose: Examples/GuardedCombine holds packages
# in the shape of third-party libraries that import Combine or os under `#if canImport(…)` without
# depending on them, and the test command checks that such imports resolve and link.
UNDECLARED_ON_PURPOSE = {"GuardedCombine": {"Combine"}, "GuardedLock": {"os"}, "GuardedLocation": {"CoreLocation"}}

# The only modules that may re-export others, and what each may re-export.
FACADES = {
    "CoreLocation": {"Foundation", "FoundationNetworking", "AppleCompat", "Combine"},
    "MapKit": {"CoreLocation"},
    "Combine": {"OpenCombine", "OpenCombineDispatch", "OpenCombineFoundation", "FoundationNetworking"},
    "os": {"Glibc", "Musl"},
    # A renamed module's old name, kept for code that imports it (deprecated; see CHANGELOG.md).
    "LocationServices": {"LocationModel"},
}

IMPORT = re.compile(
    r"^\s*(?P<attrs>(?:@\w+(?:\([^)]*\))?\s+)*)(?:(?:public|package|internal|fileprivate|private)\s+)?"
    r"import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(?P<module>[A-Za-z_][A-Za-z0-9_]*)"
)


def dump(package_dir):
    out = subprocess.run(
        ["swift", "package", "--package-path", package_dir, "dump-package"],
        check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(out)


def declared(target):
    """(in-package targets, products) a target declares; a product's module has its name."""
    targets, products = set(), set()
    for dep in target["dependencies"]:
        if "byName" in dep:
            targets.add(dep["byName"][0])
        elif "target" in dep:
            targets.add(dep["target"][0])
        elif "product" in dep:
            products.add(dep["product"][0])
    return targets, products


def target_path(package_dir, target):
    if target.get("path"):
        return os.path.join(package_dir, target["path"])
    folder = "Tests" if target["type"] == "test" else "Sources"
    return os.path.join(package_dir, folder, target["name"])


CONDITION = re.compile(r"^\s*#(if|elseif|else|endif)\b(.*)")


def imports_of(path):
    """({module: [(file, line number, re-exported, the #if conditions around it)]}, how many
    Swift files) under path."""
    found, files_read = {}, 0
    for folder, dirs, files in os.walk(path):
        # Hidden folders, and fixtures (foreign packages' shapes that a test ports, not this target's code).
        dirs[:] = [d for d in dirs if not d.startswith(".") and d != "Fixtures"]
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            file = os.path.join(folder, name)
            files_read += 1
            with open(file, encoding="utf-8") as handle:
                in_string = False  # inside a multi-line string literal (a script in a test, say)
                guards = []  # the conditions of the #if blocks around the line (an #else's negated)
                for number, line in enumerate(handle, 1):
                    condition = None if in_string else CONDITION.match(line)
                    if condition:
                        kind, text = condition.group(1), condition.group(2).strip()
                        if kind == "if":
                            guards.append(text)
                        elif guards and kind == "endif":
                            guards.pop()
                        elif guards:
                            guards[-1] = "!" + guards[-1] if kind == "else" else text
                    match = None if in_string else IMPORT.match(line)
                    if line.count('"""') % 2:
                        in_string = not in_string
                    if match and not line.lstrip().startswith("//"):
                        module = match.group("module")
                        found.setdefault(module, []).append(
                            (os.path.relpath(file, ROOT), number, "@_exported" in match.group("attrs"), tuple(guards)))
    return found, files_read


def check(package_dir, manifest, external_targets, unused_edges=True):
    findings = []
    own = {t["name"] for t in manifest["targets"]}
    for target in manifest["targets"]:
        if target["type"] in ("system", "binary", "plugin"):
            continue
        name = target["name"]
        targets, products = declared(target)
        path = target_path(package_dir, target)
        if not os.path.isdir(path):
            continue
        imports, files_read = imports_of(path)
        if not files_read:
            continue
        allowed = targets | products | TOOLCHAIN | {name} | UNDECLARED_ON_PURPOSE.get(name, set())
        # The modules this target depends on only under a trait: {module: traits}.
        by_trait = {}
        for d in target["dependencies"]:
            kind = next((k for k in ("target", "product", "byName") if k in d), None)
            condition = d[kind][-1] if kind else None
            if isinstance(condition, dict) and condition.get("traits"):
                by_trait[d[kind][0]] = set(condition["traits"])
        for module, places in sorted(imports.items()):
            for file, line, _, guards in places:
                if module in by_trait and not by_trait[module] & set(guards):
                    findings.append(
                        f"{file}:{line}: {name} imports {module} outside `#if {' || '.join(sorted(by_trait[module]))}`, "
                        f"but declares it only with that trait")
            if module not in allowed:
                file, line, _, _ = places[0]
                where = "a target of this package" if module in own else (
                    "a module of the library" if module in external_targets else "not declared")
                findings.append(f"{file}:{line}: {name} imports {module} ({where}), which {name} does not declare")
            for file, line, exported, _ in places:
                if exported and target["type"] != "test" and module not in FACADES.get(name, set()):
                    findings.append(f"{file}:{line}: {name} re-exports {module}; only Apple's facades re-export")
        if not unused_edges:
            continue
        for dependency in sorted(targets - MODULE_MAPS):
            if dependency not in imports:
                findings.append(f"{os.path.relpath(path, ROOT)}: {name} declares {dependency} and imports it nowhere")
        for dependency in sorted(products):
            if dependency not in imports:
                findings.append(f"{os.path.relpath(path, ROOT)}: {name} declares the product {dependency} and imports it nowhere")
    return findings


def graph(manifest, library_products=None, below=None):
    """A Mermaid flowchart of the non-test targets, an arrow from each target to what it uses.

    Arrows that others imply are left out (the transitive reduction): a target that uses Emulator
    also reaches Geo through it, so no arrow from it to Geo is drawn. The layering check above
    still holds each target to the dependencies it declares.
    """
    edges, conditional = {}, set()
    for target in manifest["targets"]:
        if target["type"] == "test":
            continue
        targets, products = declared(target)
        edges[target["name"]] = set(targets) | {
            p for p in products if library_products is None or p in library_products}
        for d in target["dependencies"]:
            if "target" in d and d["target"][1]:
                conditional.add((target["name"], d["target"][0]))

    # The graph of the package below (the library, for the tools) tells what its modules reach.
    known = {**(below or {}), **edges}

    def reachable(start, skip):
        seen, stack = set(), [n for n in known.get(start, ()) if n != skip]
        while stack:
            node = stack.pop()
            if node not in seen:
                seen.add(node)
                stack.extend(known.get(node, ()))
        return seen

    lines = ["```mermaid", "flowchart BT"]
    for name in sorted(edges):
        kept = sorted(d for d in edges[name] if d not in set().union(
            *(reachable(other, None) for other in edges[name] if other != d)))
        if not kept:
            lines.append(f"  {name}")
        for dependency in kept:
            arrow = "-.->|trait|" if (name, dependency) in conditional else "-->"
            lines.append(f"  {name} {arrow} {dependency}")
    lines.append("```")
    return "\n".join(lines), edges


def replace_between(text, marker, body):
    begin, end = f"<!-- {marker}:begin -->", f"<!-- {marker}:end -->"
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
    if not pattern.search(text):
        raise SystemExit(f"check-architecture: {DOC} has no {begin} … {end} section")
    return pattern.sub(lambda _: f"{begin}\n{body}\n{end}", text)


MAX_LINES = 600


def long_files():
    """Hand-written Swift files over MAX_LINES lines: a room too big to find one's way in."""
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d != "Generated"]
        for name in files:
            if name.endswith(".swift"):
                file = os.path.join(folder, name)
                with open(file, encoding="utf-8") as handle:
                    count = sum(1 for _ in handle)
                if count > MAX_LINES:
                    found.append(f"{os.path.relpath(file, ROOT)}: {count} lines; split it by responsibility (at most {MAX_LINES})")
    return found


def main():
    write = "--write" in sys.argv[1:]
    library = dump(ROOT)
    tools = dump(os.path.join(ROOT, "Tools"))
    library_modules = {t["name"] for t in library["targets"]}
    findings = check(ROOT, library, set())
    findings += check(os.path.join(ROOT, "Tools"), tools, library_modules)
    # The benchmarks and the example apps: their imports only (their graphs are not drawn).
    tool_modules = library_modules | {t["name"] for t in tools["targets"]}
    for extra in ["Benchmarks"] + sorted(
            os.path.join("Examples", e) for e in os.listdir(os.path.join(ROOT, "Examples"))
            if os.path.isfile(os.path.join(ROOT, "Examples", e, "Package.swift"))):
        # An example app may declare a product only for what it re-exports (Combine under
        # CoreLocation with the trait), as an iOS app links frameworks it never names.
        findings += check(
            os.path.join(ROOT, extra), dump(os.path.join(ROOT, extra)), tool_modules, unused_edges=extra == "Benchmarks")

    with open(DOC, encoding="utf-8") as handle:
        text = handle.read()
    library_graph, library_edges = graph(library)
    tools_graph, _ = graph(
        tools, library_products=library_modules | {t["name"] for t in tools["targets"]}, below=library_edges)
    expected = replace_between(text, "library-graph", library_graph)
    expected = replace_between(expected, "tools-graph", tools_graph)
    if write:
        with open(DOC, "w", encoding="utf-8") as handle:
            handle.write(expected)
    elif expected != text:
        findings.append(
            "docs/Architecture.md: its module graphs differ from the manifests; run scripts/check-architecture.py --write")

    findings += long_files()

    for finding in findings:
        print(finding)
    if findings:
        print(f"check-architecture: {len(findings)} finding(s)", file=sys.stderr)
        return 1
    print("check-architecture: the imports match the manifests and docs/Architecture.md", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
