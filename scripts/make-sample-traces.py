#!/usr/bin/env python3
"""Generates the synthetic sample traces in traces/ (the real ones come from gpsd's corpus).

Writes traces/drive.gpx and traces/tunnel.gpx (timed GPX tracks with a speed
profile); scripts/make-sample-traces.sh turns them and traces/old-town-route.gpx
into NMEA with `locemu convert`. Deterministic: same output on every run.
"""
import math
import sys
from datetime import datetime, timedelta, timezone

R = 6371008.8


def dist(a, b):
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * R * math.asin(math.sqrt(h))


def along(path, s):
    """The point s metres along a polyline (linear in lat/lon within a segment)."""
    for a, b in zip(path, path[1:]):
        d = dist(a, b)
        if s <= d:
            f = s / d if d else 0
            return (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f)
        s -= d
    return path[-1]


def length(path):
    return sum(dist(a, b) for a, b in zip(path, path[1:]))


def drive(path, start, stops, cruise=13.9, accel=1.5):
    """1 Hz samples of a car: accelerates to `cruise`, brakes to a halt at each stop (metres), waits 15 s."""
    total = length(path)
    t, s, v = 0, 0.0, 0.0
    samples = []
    targets = sorted(stops) + [total]
    wait = 0
    while s < total - 0.5:
        samples.append((start + timedelta(seconds=t), along(path, s), v))
        nxt = next(x for x in targets if x > s + 0.5)
        if wait > 0:
            wait -= 1
            if wait == 0:
                targets = [x for x in targets if x > s + 1]
        else:
            braking = v * v / (2 * accel)
            if nxt - s <= braking + v:
                v = max(0.0, v - accel)
                if v == 0.0 and nxt != total:
                    wait = 15
            else:
                v = min(cruise, v + accel)
        s = min(total, s + v)
        t += 1
    samples.append((start + timedelta(seconds=t), path[-1], 0.0))
    return samples


def gpx(name, samples, no_fix=lambda i: False):
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<gpx version="1.1" creator="scripts/make-sample-traces.py" xmlns="http://www.topografix.com/GPX/1/1">',
           f'  <trk><name>{name}</name><trkseg>']
    for i, (time, (lat, lon), _) in enumerate(samples):
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ")
        if no_fix(i):
            out.append(f'    <trkpt lat="{lat:.7f}" lon="{lon:.7f}"><time>{stamp}</time><fix>none</fix></trkpt>')
        else:
            out.append(f'    <trkpt lat="{lat:.7f}" lon="{lon:.7f}"><ele>{95 + 5 * math.sin(i / 40):.1f}</ele>'
                       f'<time>{stamp}</time><fix>3d</fix><hdop>0.9</hdop></trkpt>')
    out += ['  </trkseg></trk>', '</gpx>', '']
    return "\n".join(out)


# Warsaw, Aleje Jerozolimskie eastwards to the Vistula, two traffic lights.
DRIVE = [(52.2287, 20.9830), (52.2297, 20.9960), (52.2307, 21.0070), (52.2318, 21.0180),
         (52.2335, 21.0290), (52.2352, 21.0380), (52.2370, 21.0440)]
# Warsaw, Wisłostrada northbound through the tunnel under the Old Town (fix lost inside).
TUNNEL = [(52.2395, 21.0300), (52.2430, 21.0240), (52.2462, 21.0190), (52.2495, 21.0150),
          (52.2530, 21.0110), (52.2560, 21.0080)]

if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "traces"
    start = datetime(2026, 5, 16, 9, 30, 0, tzinfo=timezone.utc)
    d = drive(DRIVE, start, stops=[900, 2100])
    open(f"{out}/drive.gpx", "w").write(gpx("Aleje Jerozolimskie, Warsaw (synthetic)", d))
    t = drive(TUNNEL, start + timedelta(hours=1), stops=[])
    s = 0.0
    marks = []
    for i, (_, p, v) in enumerate(t):
        marks.append(s)
        s += v
    # The tunnel: from 700 m to 1250 m along the road the receiver has no fix.
    open(f"{out}/tunnel.gpx", "w").write(gpx("Wisłostrada tunnel, Warsaw (synthetic)", t,
                                             no_fix=lambda i: 700 <= marks[i] <= 1250))
