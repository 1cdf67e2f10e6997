#!/usr/bin/env python3
"""Hostile requests against a real `locemu serve` (issue 22): every one answered 4xx within
5 s, the server's memory under 200 MB, other clients answered throughout, and SIGTERM ends it
with 0 within 5 s even while requests are stuck. For a ThreadSanitizer build: 12 s, 500 MB,
and a --body-timeout of 6 s instead of 2 s.

Usage: tools/hostile-serve.py LOCEMU   (tools/hostile-serve.sh builds it and runs this)

Cases: trace names leading outside the --traces directory (.., absolute paths, a link out,
a link to /dev/zero), a FIFO in the directory, the old "path" member, /dev/zero and
/dev/urandom as uploaded bodies, a body that declares 2 GB, a chunked body of 2 GB, 20,000
phones against --max-phones, event clients against --max-event-clients, and 1,000 slow
clients that send half a request and wait. Prints one line per case and the figures.
"""
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time




def sanitized(binary):
    """Whether BINARY was built with ThreadSanitizer (its runtime is linked in)."""
    marker, tail = b"__tsan_init", b""
    with open(binary, "rb") as f:
        while chunk := f.read(1 << 24):
            if marker in tail + chunk:
                return True
            tail = chunk[-len(marker):]
    return False


SANITIZED = len(sys.argv) > 1 and os.path.exists(sys.argv[1]) and sanitized(sys.argv[1])
# The server's memory bound: 200 MB; under ThreadSanitizer, whose shadow memory and access
# history come on top of the program's own (a 2.3x ratio measured on this server under this
# load: 113 MB plain, 261 MB instrumented), 2.5 times that.
MEMORY_LIMIT_MB = 500.0 if SANITIZED else 200.0
# The server's --body-timeout, and the time within which every request must be answered. Under
# ThreadSanitizer, beside the test command's builds, taking in a 4 MB body took the server over
# 2 s (it answered 408 and closed while the client still sent): there, 6 s and 12 s.
BODY_TIMEOUT_SECONDS = 6 if SANITIZED else 2
LIMIT_SECONDS = 12.0 if SANITIZED else 5.0
SECRET = "TOP-SECRET-CONTENT-OF-A-FILE-OUTSIDE"
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        failures.append(what)


def rss_mb(pid, field="VmRSS"):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


def request(port, method, path, body=b"", headers=None, timeout=LIMIT_SECONDS):
    """One request on its own connection; (status, body, seconds)."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(body)}", "Connection: close"]
        for k, v in (headers or {}).items():
            head.append(f"{k}: {v}")
        try:
            s.sendall(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # answered and closed before the whole body went: read what it said
        try:
            return read_response(s, started)
        except OSError as e:
            return 0, f"no answer: {e}".encode(), time.monotonic() - started


def read_response(s, started):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed without an answer after {data[:80]!r}")
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ")[1])
    length = 0
    for line in head.split(b"\r\n")[1:]:
        k, _, v = line.partition(b":")
        if k.strip().lower() == b"content-length":
            length = int(v.strip())
    while len(rest) < length:
        chunk = s.recv(65536)
        if not chunk:
            break
        rest += chunk
    return status, rest[:length], time.monotonic() - started


def json_request(port, method, path, obj):
    return request(port, method, path, json.dumps(obj).encode(), {"Content-Type": "application/json"})


def streaming_upload(port, path, declared, chunked):
    """Sends a body of zeros as fast as the server takes it; answers (status, seconds) as soon as
    the server does, without waiting for the body to end."""
    started = time.monotonic()
    s = socket.create_connection(("127.0.0.1", port), timeout=LIMIT_SECONDS)
    head = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/octet-stream"]
    head.append("Transfer-Encoding: chunked" if chunked else f"Content-Length: {declared}")
    s.sendall(("\r\n".join(head) + "\r\n\r\n").encode())
    stop = threading.Event()

    def pump():
        zeros = b"\0" * 65536
        frame = (b"%x\r\n" % len(zeros)) + zeros + b"\r\n" if chunked else zeros
        sent = 0
        try:
            while not stop.is_set() and sent < declared:
                s.sendall(frame)
                sent += len(zeros)
        except OSError:
            pass

    thread = threading.Thread(target=pump, daemon=True)
    thread.start()
    try:
        status, _, seconds = read_response(s, started)
    finally:
        stop.set()
        s.close()
        thread.join(timeout=LIMIT_SECONDS)
    return status, seconds


def main():
    locemu = sys.argv[1]
    work = tempfile.mkdtemp(prefix="hostile-serve-")
    traces = os.path.join(work, "traces")
    outside = os.path.join(work, "outside")
    os.makedirs(traces)
    os.makedirs(outside)
    with open(os.path.join(outside, "secret.nmea"), "w") as f:
        f.write(SECRET + "\n")
    walk = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "traces", "city-walk.nmea")
    with open(walk, "rb") as src, open(os.path.join(traces, "walk.nmea"), "wb") as dst:
        dst.write(src.read())
    os.symlink(os.path.join(outside, "secret.nmea"), os.path.join(traces, "out.nmea"))
    os.symlink(outside, os.path.join(traces, "outdir"))
    os.symlink("/dev/zero", os.path.join(traces, "zero.jsonl"))
    os.mkfifo(os.path.join(traces, "fifo.nmea"))

    err = open(os.path.join(work, "serve.err"), "w+")
    server = subprocess.Popen(
        [locemu, "serve", "--listen", "127.0.0.1:0", "--traces", traces, "--max-phones", "50", "--max-event-clients", "4",
         "--body-timeout", str(BODY_TIMEOUT_SECONDS), "--virtual-time"], stderr=err, stdout=subprocess.DEVNULL)
    port = None
    for _ in range(600):
        err.seek(0)
        for line in err.read().splitlines():
            if line.startswith("listening on http://"):
                port = int(line.rsplit(":", 1)[1])
        if port or server.poll() is not None:
            break
        time.sleep(0.1)
    if not port:
        err.seek(0)
        print("the server did not start: " + err.read(), file=sys.stderr)
        server.kill()
        return 1
    print(f"locemu serve on port {port}, pid {server.pid}", flush=True)
    try:
        return hostile_requests(server, port, err, traces, outside)
    except Exception:
        # A server that dies midway (a sanitizer's report, a crash) shows here as a refused
        # connection: say how it ended and what it printed last, then the script's traceback.
        code = server.poll()
        err.seek(0)
        lines = err.read().splitlines()
        report = next((i for i, line in enumerate(lines) if "Sanitizer" in line), max(0, len(lines) - 60))
        print(f"hostile-serve: stopped by an exception; the server {'exited with ' + str(code) if code is not None else 'still runs'}; "
              "its stderr from the first sanitizer report (or its last lines):\n" + "\n".join(lines[report:report + 80]),
              file=sys.stderr, flush=True)
        if code is None:
            server.kill()
            server.wait()
        raise


def hostile_requests(server, port, err, traces, outside):
    # Others are answered throughout: a client asks for the state every 0.2 s.
    probe_times = []
    probing = threading.Event()

    def probe():
        while not probing.is_set():
            try:
                status, _, seconds = request(port, "GET", "/phones/1", timeout=10)
                probe_times.append(seconds if status == 200 else 99.0)
            except OSError:
                probe_times.append(99.0)
            time.sleep(0.2)

    prober = threading.Thread(target=probe, daemon=True)
    prober.start()

    # Names that lead outside, devices, FIFOs: 404 or 400, never the file.
    names = ["../outside/secret.nmea", os.path.join(outside, "secret.nmea"), "/etc/passwd", "/etc/shadow",
             "../../../../../../etc/passwd", "out.nmea", "outdir/secret.nmea", "zero.jsonl", "/dev/zero",
             "/dev/urandom", "fifo.nmea", "missing.nmea", "walk.nmea/../../outside/secret.nmea"]
    for name in names:
        status, body, seconds = json_request(port, "POST", "/phones/1/trace", {"name": name, "format": "jsonl"})
        check(status in (400, 404) and seconds < LIMIT_SECONDS and SECRET.encode() not in body,
              f"name {name!r}: {status} in {seconds:.2f} s")
    status, body, seconds = json_request(port, "POST", "/phones", {"trace": {"name": "../outside/secret.nmea"}})
    check(status == 404 and seconds < LIMIT_SECONDS, f"POST /phones with a name outside: {status} in {seconds:.2f} s")
    for path in ["/etc/passwd", "/dev/zero", os.path.join(traces, "walk.nmea")]:
        status, _, seconds = json_request(port, "POST", "/phones/1/trace", {"path": path})
        check(status == 400 and seconds < LIMIT_SECONDS, f"path {path!r}: {status} in {seconds:.2f} s")
    # Nothing outside answers differently whether it exists or not.
    a = json_request(port, "POST", "/phones/1/trace", {"name": "../outside/secret.nmea"})
    b = json_request(port, "POST", "/phones/1/trace", {"name": "../outside/nothing.nmea"})
    check(a[0] == b[0] and a[1].replace(b"secret", b"X") == b[1].replace(b"nothing", b"X"),
          "an existing and a missing file outside get the same answer")
    status, _, seconds = json_request(port, "POST", "/phones/1/trace", {"name": "walk.nmea"})
    check(status == 200, f"a trace of the directory plays: {status} in {seconds:.2f} s")

    # Bodies of zeros and random bytes, at and over the limit.
    with open("/dev/urandom", "rb") as f:
        noise = f.read(4 << 20)
    for what, body, fmt in [("zeros", b"\0" * (4 << 20), "jsonl"), ("zeros", b"\0" * (4 << 20), "nmea"),
                            ("random", noise, "jsonl"), ("random", noise, "nmea"), ("random", noise, "gpx")]:
        status, _, seconds = request(port, "POST", f"/phones/1/trace?format={fmt}", body,
                                     {"Content-Type": "application/octet-stream"})
        check(status == 400 and seconds < LIMIT_SECONDS, f"4 MB of {what} as {fmt}: {status} in {seconds:.2f} s")
    for chunked in (False, True):
        status, seconds = streaming_upload(port, "/phones/1/trace?format=jsonl", 2 << 30, chunked)
        check(status == 413 and seconds < LIMIT_SECONDS,
              f"a 2 GB body ({'chunked' if chunked else 'Content-Length'}): {status} in {seconds:.2f} s")
    status, _, seconds = request(port, "POST", "/phones/1/location", b"{" * 2_000_000, {"Content-Type": "application/json"})
    check(status == 413 and seconds < LIMIT_SECONDS, f"a 2 MB JSON body: {status} in {seconds:.2f} s")

    # 20,000 phones asked for: 50 made (--max-phones), the rest 429.
    made = refused = 0
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        for _ in range(20_000):
            s.sendall(b"POST /phones HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
            status, _, _ = read_response(s, time.monotonic())
            made += status == 201
            refused += status == 429
    check(made == 49 and refused == 20_000 - 49, f"20,000 POST /phones: {made} made, {refused} refused (429) in {time.monotonic() - started:.1f} s")

    # Event clients beyond --max-event-clients: 429.
    streams = []
    for _ in range(4):
        s = socket.create_connection(("127.0.0.1", port), timeout=LIMIT_SECONDS)
        s.sendall(b"GET /phones/1/events HTTP/1.1\r\nHost: x\r\n\r\n")
        streams.append(s)
    time.sleep(0.5)
    status, _, seconds = request(port, "GET", "/phones/1/events")
    check(status == 429, f"a fifth event client: {status} in {seconds:.2f} s")
    for s in streams:
        s.close()

    # 1,000 slow clients: half a body each, then nothing. Each gets 408 at --body-timeout.
    slow = []
    for _ in range(1000):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(b"POST /phones/1/location HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"lat\":")
        slow.append((s, time.monotonic()))
    peak_during = rss_mb(server.pid)
    answers = {}
    slowest = 0.0
    for s, started in slow:
        try:
            status, _, seconds = read_response(s, started)
            answers[status] = answers.get(status, 0) + 1
            slowest = max(slowest, seconds)
        except OSError as e:
            answers[str(e)[:40]] = answers.get(str(e)[:40], 0) + 1
        s.close()
    check(answers.get(408) == 1000 and slowest < LIMIT_SECONDS,
          f"1,000 slow clients (half a body, then nothing): {answers}, each within {slowest:.2f} s of its request")

    # SIGTERM while 100 clients are stuck in their bodies: exit 0 within LIMIT_SECONDS.
    stuck = []
    for _ in range(100):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(b"POST /phones/1/trace HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n$GPGGA")
        stuck.append(s)
    probing.set()
    prober.join()
    slowest = max(probe_times) if probe_times else 99.0
    check(probe_times and slowest < 2.0, f"a well-behaved client, {len(probe_times)} requests meanwhile: slowest {slowest:.2f} s")
    peak = rss_mb(server.pid, "VmHWM")
    check(peak < MEMORY_LIMIT_MB,
          f"the server's peak memory: {peak:.0f} MB (with 1,000 slow clients: {peak_during:.0f} MB; "
          f"at most {MEMORY_LIMIT_MB:.0f}{' under ThreadSanitizer' if SANITIZED else ''})")
    started = time.monotonic()
    server.send_signal(signal.SIGTERM)
    try:
        code = server.wait(timeout=LIMIT_SECONDS + 5)
    except subprocess.TimeoutExpired:
        server.kill()
        code = "still running"
    took = time.monotonic() - started
    check(code == 0 and took < LIMIT_SECONDS, f"SIGTERM with 100 stuck requests: exit {code} in {took:.2f} s")
    for s in stuck:
        s.close()
    err.seek(0)
    print("server's stderr: " + " / ".join(err.read().splitlines()[-3:]))
    if failures:
        print(f"hostile-serve: {len(failures)} failed", file=sys.stderr)
        return 1
    print("hostile-serve: every hostile request answered 4xx in time, memory bounded, SIGTERM honoured")
    return 0


if __name__ == "__main__":
    sys.exit(main())
