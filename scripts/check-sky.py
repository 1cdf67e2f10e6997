#!/usr/bin/env python3
"""Checks `locemu sky` against an independent implementation: skyfield (SGP4, its own time
scales and Earth frames) propagating the GPS satellites of the TLE file Debian's rtklib package
ships. For each satellite, the TLE's state at a reference time is turned into almanac elements
(a YUMA file: the osculating Kepler orbit in a frame that coincides with the Earth-fixed one at
that time, and the J2 rate of its node); locemu propagates that almanac with IS-GPS-200's
algorithm, skyfield the TLE with SGP4, and the azimuths, elevations and DOPs seen from a dozen
places over two hours must agree: within 0.2 degrees and 0.05.

Usage: check-sky.py LOCEMU TLE_FILE
"""
import datetime, json, math, subprocess, sys, tempfile

import numpy as np
from skyfield.api import load, wgs84
from skyfield.framelib import itrs

MU = 3.986005e14
OMEGA_E = 7.2921151467e-5
J2, RE = 1.08262668e-3, 6378137.0
GPS_EPOCH_JD = 2444244.5  # 1980-01-06


def almanac_entry(prn, r, v, toa, week):
    """Osculating elements of an Earth-fixed state (position r, velocity v in ITRS) as a YUMA
    block whose Ωk at toa is the node's longitude then."""
    v_in = v + np.cross([0, 0, OMEGA_E], r)  # inertial velocity in the frame aligned with ITRS now
    h = np.cross(r, v_in)
    rn, vn = np.linalg.norm(r), np.linalg.norm(v_in)
    i = math.acos(h[2] / np.linalg.norm(h))
    node = np.cross([0, 0, 1], h)
    raan = math.atan2(node[1], node[0])
    e_vec = ((vn * vn - MU / rn) * r - np.dot(r, v_in) * v_in) / MU
    e = np.linalg.norm(e_vec)
    a = 1 / (2 / rn - vn * vn / MU)
    omega = math.atan2(np.dot(np.cross(node, e_vec), h) / np.linalg.norm(h), np.dot(node, e_vec))
    nu = math.atan2(np.dot(np.cross(e_vec, r), h) / np.linalg.norm(h), np.dot(e_vec, r))
    E = 2 * math.atan2(math.sqrt(1 - e) * math.sin(nu / 2), math.sqrt(1 + e) * math.cos(nu / 2))
    M = E - e * math.sin(E)
    n = math.sqrt(MU / a ** 3)
    p = a * (1 - e * e)
    node_rate = -1.5 * n * J2 * (RE / p) ** 2 * math.cos(i)
    omega0 = raan + OMEGA_E * toa
    return (f"******** Week 0 almanac for PRN-{prn:02d} ********\n"
            f"ID: {prn}\nHealth: 0\nEccentricity: {float(e):.17g}\nTime of Applicability(s): {float(toa):.17g}\n"
            f"Orbital Inclination(rad): {float(i):.17g}\nRate of Right Ascen(r/s): {float(node_rate):.17g}\n"
            f"SQRT(A)  (m 1/2): {math.sqrt(a):.17g}\nRight Ascen at Week(rad): {float(omega0):.17g}\n"
            f"Argument of Perigee(rad): {float(omega):.17g}\nMean Anom(rad): {float(M):.17g}\nAf0(s): 0\nAf1(s/s): 0\nweek: {week}\n")


def dops(azel):
    rows = [[math.sin(math.radians(az)) * math.cos(math.radians(el)),
             math.cos(math.radians(az)) * math.cos(math.radians(el)), math.sin(math.radians(el)), 1.0]
            for az, el in azel]
    g = np.array(rows)
    q = np.linalg.inv(g.T @ g)
    d = np.diag(q)
    return {"xdop": math.sqrt(d[0]), "ydop": math.sqrt(d[1]), "hdop": math.sqrt(d[0] + d[1]),
            "vdop": math.sqrt(d[2]), "pdop": math.sqrt(d[:3].sum()), "tdop": math.sqrt(d[3]),
            "gdop": math.sqrt(d.sum())}


def main():
    locemu, tle_path = sys.argv[1], sys.argv[2]
    ts = load.timescale(builtin=True)
    # rtklib's table of GNSS satellites: PRN, catalog number (the later line of a PRN wins).
    catalog = {}
    with open(tle_path.rsplit("/", 1)[0] + "/TLE_GNSS_SATNO.txt") as table:
        for line in table:
            words = line.split()
            if len(words) > 1 and words[0].startswith("G") and words[0][1:].isdigit():
                catalog[int(words[0][1:])] = int(words[1].rstrip("U"))
    by_number = {sat.model.satnum: sat for sat in load.tle_file(tle_path)}
    satellites = {prn: by_number[number] for prn, number in catalog.items() if number in by_number}
    if len(satellites) < 24:
        sys.exit(f"check-sky: only {len(satellites)} GPS satellites in {tle_path}")
    t0 = ts.utc(2020, 12, 1, 12, 0, 0)
    gps_seconds = (t0.tt - GPS_EPOCH_JD) * 86400 - 51.184  # TT − GPS = 51.184 s
    week = int(gps_seconds // 604800)
    toa = gps_seconds - week * 604800
    blocks = []
    for prn, sat in sorted(satellites.items()):
        pos, vel = sat.at(t0).frame_xyz_and_velocity(itrs)
        blocks.append(almanac_entry(prn, pos.m, vel.m_per_s, toa, week))
    yuma = "".join(blocks)
    places = [(60.17, 24.94), (52.23, 21.01), (-33.87, 151.21), (0.0, 0.0), (40.71, -74.01), (-54.8, -68.3),
              (78.22, 15.65), (35.68, 139.69), (-1.29, 36.82), (64.15, -21.94), (-77.85, 166.67), (19.43, -99.13)]
    worst_angle, worst_dop, compared, dop_compared = 0.0, 0.0, 0, 0
    with tempfile.NamedTemporaryFile("w", suffix=".yuma") as f:
        f.write(yuma)
        f.flush()
        for lat, lon in places:
            at = t0.utc_strftime("%Y-%m-%dT%H:%M:%SZ")
            out = subprocess.run([locemu, "sky", "--almanac", f.name, f"--from={lat},{lon}", "--at", at,
                                  "--every", "900", "--count", "9", "--mask", "5"],
                                 capture_output=True, text=True, check=True)
            topos = wgs84.latlon(lat, lon)
            for line in out.stdout.splitlines():
                ours = json.loads(line)
                t = ts.from_datetime(datetime.datetime.fromisoformat(ours["time"].replace("Z", "+00:00")))
                theirs = {}
                for prn, sat in satellites.items():
                    alt, az, _ = (sat - topos).at(t).altaz()
                    theirs[prn] = (az.degrees, alt.degrees)
                for s in ours["satellites"]:
                    az, el = theirs[s["PRN"]]
                    # Angular separation of the two directions.
                    a1, e1, a2, e2 = map(math.radians, (s["az"], s["el"], az, el))
                    c = math.sin(e1) * math.sin(e2) + math.cos(e1) * math.cos(e2) * math.cos(a1 - a2)
                    angle = math.degrees(math.acos(max(-1.0, min(1.0, c))))
                    worst_angle = max(worst_angle, angle)
                    compared += 1
                    if angle > 0.2:
                        sys.exit(f"check-sky: PRN {s['PRN']} at {ours['time']} from {lat},{lon}: locemu az/el "
                                 f"{s['az']:.3f}/{s['el']:.3f}, skyfield {az:.3f}/{el:.3f} ({angle:.3f} deg apart)")
                # DOPs over the same satellites, when both see the same set (none near the mask).
                ours_set = {s["PRN"] for s in ours["satellites"]}
                theirs_set = {p for p, (_, el) in theirs.items() if el >= 5}
                if ours_set != theirs_set or len(ours_set) < 4 or "hdop" not in ours:
                    continue
                ref = dops([theirs[p] for p in sorted(theirs_set)])
                for k, v in ref.items():
                    worst_dop = max(worst_dop, abs(ours[k] - v))
                    if abs(ours[k] - v) > 0.05:
                        sys.exit(f"check-sky: {k} at {ours['time']} from {lat},{lon}: locemu {ours[k]}, skyfield {v:.3f}")
                dop_compared += 1
    print(f"check-sky: {compared} satellite directions within {worst_angle:.4f} deg of skyfield's (SGP4), "
          f"DOPs of {dop_compared} skies within {worst_dop:.3f}, {len(satellites)} GPS satellites, 12 places, 2 hours")


if __name__ == "__main__":
    main()
