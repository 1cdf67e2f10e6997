#!/usr/bin/env python3
"""How much of Apple's CoreLocation and MapKit (iOS 18 SDK) the Linux modules declare.

Reads the public symbols of the CoreLocation and MapKit modules from their symbol graphs
(`swift package dump-symbol-graph`, which scripts/corelocation-api-coverage.sh runs first) and
checks each declaration of scripts/data/apple-corelocation-mapkit-api.tsv (one per line:
group<TAB>Type.member(labels:), the declarations of the SDK's generated interface as the
project's research listed them) by its path and, for functions, its argument labels.

A third column marks a declaration that cannot exist on Linux, with why: `not portable: <reason>`
(a UIKit view or control, a CoreGraphics context); those are left out of the figures and listed
with --missing. Every other declaration is provided (found in the symbol graphs) or not provided.

Prints per group: declared / listed, then the total, then per framework: provided, not provided,
not portable; then what is missing (with --missing).
"""
import json, os, re, sys
from collections import OrderedDict

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
graphs = os.environ.get('SYMBOL_GRAPHS')
if graphs is None:
    for dirpath, dirnames, files in os.walk(os.path.join(root, '.build')):
        if dirpath.endswith('symbolgraph') and 'CoreLocation.symbols.json' in files:
            graphs = dirpath
            break
if graphs is None:
    sys.exit("no symbol graphs: run 'swift package dump-symbol-graph --minimum-access-level public' first")

for module in ('CoreLocation', 'MapKit'):
    # Each module's graph against its own sources (a change to MapKit alone rebuilds MapKit alone).
    newest_source = max(
        os.path.getmtime(os.path.join(d, f)) for d, _, files in os.walk(os.path.join(root, 'Sources', module)) for f in files)
    graph = os.path.join(graphs, module + '.symbols.json')
    if not os.path.exists(graph) or os.path.getmtime(graph) < newest_source:
        sys.exit(f"{graph} is missing or older than the sources: 'swift package dump-symbol-graph' did not write it")

declared = set()
# Functions by their path without labels: each with its labels and which of them have defaults.
functions = {}
for name in os.listdir(graphs):
    # CoreLocation's and MapKit's own graphs, and the Contacts product's extensions of them
    # (`CLPlacemark.postalAddress`, `CLGeocoder.geocodePostalAddress`).
    if not (name.startswith('CoreLocation') or name.startswith('MapKit') or name.startswith('Contacts@')) or not name.endswith('.symbols.json'):
        continue
    with open(os.path.join(graphs, name)) as f:
        graph = json.load(f)
    for symbol in graph['symbols']:
        path = symbol['pathComponents']
        declared.add('.'.join(path))
        # A function's title carries its labels; a property or case is its name alone.
        if '(' in path[-1]:
            base = '.'.join(path[:-1] + [path[-1].split('(')[0]])
            labels = re.findall(r'([A-Za-z_]+):', path[-1])
            text = ''.join(f.get('spelling', '') for f in symbol.get('declarationFragments', []))
            params = text[text.find('(') + 1:text.rfind(')')] if '(' in text else ''
            # The parameters in order, with whether each has a default (`= …` at the top level).
            depth, pieces, current = 0, [], ''
            for ch in params:
                depth += ch in '([<'
                depth -= ch in ')]>'
                if ch == ',' and depth == 0:
                    pieces.append(current)
                    current = ''
                else:
                    current += ch
            if current.strip():
                pieces.append(current)
            defaults = ['=' in piece for piece in pieces]
            functions.setdefault(base, []).append((labels, defaults))

# Declared under a name the symbol graph leaves out (underscored, as `init(_nsError:)` and the
# enum behind `CLMonitor.Event.State` are): found in the sources instead.
sources = ''
for module in ('CoreLocation', 'MapKit'):
    for dirpath, _, files in os.walk(os.path.join(root, 'Sources', module)):
        for file in files:
            if file.endswith('.swift'):
                sources += open(os.path.join(dirpath, file)).read()
for alias, target in re.findall(r'public typealias (\w+) = (__\w+)', sources):
    body = re.search(r'enum ' + target + r'\b[^{]*\{(.*?)\n\}', sources, re.S)
    for case in re.findall(r'\bcase (\w+)', body.group(1) if body else ''):
        declared.add(f'@alias {alias}.{case}')


groups = OrderedDict()
missing = []
# Per framework: provided, not provided, not portable (with its reason in the table's third column).
frameworks = OrderedDict()
not_portable = []
for line in open(os.path.join(root, 'scripts', 'data', 'apple-corelocation-mapkit-api.tsv')):
    if not line.strip() or line.startswith('#'):
        continue
    fields = line.rstrip('\n').split('\t')
    group, entry = fields[0], fields[1]
    status = fields[2] if len(fields) > 2 else ''
    framework = 'MapKit' if entry.startswith('MK') or group.split(' ')[0] in ('11', '12', '13.2') or group[:3] in ('11.', '12.') else 'CoreLocation'
    counts = frameworks.setdefault(framework, [0, 0, 0])
    if status.startswith('not portable'):
        counts[2] += 1
        not_portable.append((entry, status))
        continue
    found = entry in declared
    if not found and '(' in entry:
        # Callable with these labels: a declared function whose further parameters have defaults.
        base, labels = entry.split('(')[0], re.findall(r'([A-Za-z_]+):', entry)
        found = any(
            have[:len(labels)] == labels and all(defaults[len(labels):])
            for have, defaults in functions.get(base, []) if len(defaults) == len(have))
        if not found and entry.split('.')[-1].startswith('init(_'):
            found = re.search(r'public (?:convenience )?init\(' + labels[0] + r' ', sources) is not None
    if not found and '(' not in entry:
        parts = entry.split('.')
        found = len(parts) >= 2 and f'@alias {parts[-2]}.{parts[-1]}' in declared
    total, have = groups.get(group, (0, 0))
    groups[group] = (total + 1, have + (1 if found else 0))
    counts[0 if found else 1] += 1
    if not found:
        missing.append((group, entry))

all_total = sum(t for t, _ in groups.values())
all_have = sum(h for _, h in groups.values())
for group, (total, have) in groups.items():
    print(f"{group[:70]:<70} {have:>4} / {total:<4}")
print(f"{'all':<70} {all_have:>4} / {all_total:<4} ({100.0 * all_have / all_total:.1f} %)")
print()
for framework, (provided, lacking, unportable) in frameworks.items():
    portable = provided + lacking
    print(f"{framework}: {provided} of {portable} portable declarations provided ({100.0 * provided / portable:.1f} %), "
          f"{lacking} not provided, {unportable} not portable")
if '--at-least' in sys.argv:
    floor = float(sys.argv[sys.argv.index('--at-least') + 1])
    if 100.0 * all_have / all_total < floor:
        sys.exit(f"CoreLocation/MapKit coverage fell below {floor} %: run with --missing to see what went")
if '--missing' in sys.argv:
    print()
    for group, entry in missing:
        print(f"missing  {entry}    ({group.split(' ')[0]})")
    for entry, status in not_portable:
        print(f"{status.split(':')[0]}  {entry}    ({status.split(':', 1)[1].strip()})")
