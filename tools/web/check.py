#!/usr/bin/env python3
"""The browser and protocol checks of tools/web-test (issue 29). Standard library only.

  check.py page URL --expect-events N --stdout FILE [--screenshot PNG] [--timeout S]
      Opens URL (web/demo.html) in headless Chromium, driven through the DevTools protocol over
      --remote-debugging-pipe (no WebSocket client needed), waits until the page has received N
      gesture events, and checks that they are a contiguous, in-order run of touchwire's own
      stdout event lines (FILE), each dispatched on the tile under its point. Writes a screenshot
      and checks it is not blank (distinct colours, via netpbm's pngtopnm).
  check.py refused-page URL [--wait S]
      Opens URL (the demo from an origin the bridge does not allow) and checks that no event
      arrives and the connection never opens.
  check.py handshake HOST PORT ORIGIN EXPECTED_STATUS
      A WebSocket upgrade request with that Origin header; checks the HTTP status line.
  check.py full HOST PORT ORIGIN N
      N upgraded connections held open (max_clients); one more must get 503.
  check.py commands BRIDGE
      A bridge on a fake touchwire socket: an event line arrives as one text message, and of a
      page's messages only a `display …` command line is passed to the socket.
  check.py stall HOST PORT ORIGIN STATUS_URL --timeout S
      A client that completes the handshake and then never reads (a 4 KiB receive buffer);
      waits until the bridge's /status counts it dropped.
  check.py unix-lines PATH SECONDS
      Prints how many event lines touchwire's Unix socket delivered in SECONDS.
"""
import argparse
import base64
import fcntl
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

VIEWPORT = (1280, 720)
PANEL = (800, 480)


def fail(message):
    print(f"web-test: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def say(message):
    print(f"web-test: {message}", file=sys.stderr)


class Browser:
    """Headless Chromium driven through the DevTools protocol over a pipe (fds 3 and 4)."""

    def __init__(self, profile):
        exe = shutil.which("chromium") or shutil.which("chromium-browser")
        if not exe:
            fail("chromium is not installed (tools/web-test installs Debian's chromium)")
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        # Above fds 3 and 4, so that dup2 always makes a new, inheritable descriptor there.
        high_r = fcntl.fcntl(to_child_r, fcntl.F_DUPFD_CLOEXEC, 10)
        high_w = fcntl.fcntl(from_child_w, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(to_child_r)
        os.close(from_child_w)
        to_child_r, from_child_w = high_r, high_w

        def wire():
            os.dup2(to_child_r, 3)
            os.dup2(from_child_w, 4)

        args = [
            exe, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check",
            "--disable-extensions", "--disable-background-networking", "--mute-audio",
            f"--user-data-dir={profile}", f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}", "about:blank",
        ]
        self.log = open(os.path.join(profile, "..", "chromium.log"), "ab")
        self.proc = subprocess.Popen(args, preexec_fn=wire, close_fds=False, stdin=subprocess.DEVNULL,
                                     stdout=self.log, stderr=self.log)
        os.close(to_child_r)
        os.close(from_child_w)
        self.w = os.fdopen(to_child_w, "wb", buffering=0)
        self.r = os.fdopen(from_child_r, "rb", buffering=0)
        self.buf = b""
        self.next_id = 0
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": VIEWPORT[0], "height": VIEWPORT[1], "deviceScaleFactor": 1, "mobile": False},
                  session=True)

    def call(self, method, params=None, session=False, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = self.session
        self.w.write(json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while time.time() < deadline:
            while b"\0" not in self.buf:
                chunk = os.read(self.r.fileno(), 1 << 20)
                if not chunk:
                    fail(f"chromium exited while waiting for {method}")
                self.buf += chunk
            raw, self.buf = self.buf.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    fail(f"{method}: {reply['error']}")
                return reply.get("result", {})
        fail(f"no answer to {method} within {timeout} s")

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=True)
        return result.get("result", {}).get("value")

    def navigate(self, url):
        self.call("Page.navigate", {"url": url}, session=True)

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", {"format": "png"}, session=True)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except SystemExit:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def stdout_events(path):
    events = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                try:
                    e = json.loads(line)
                except ValueError:
                    continue
                if "recognizer" in e:
                    events.append(e)
    return events


def tile_of(x, y):
    col = min(3, max(0, int(x * 4 / PANEL[0])))
    row = min(2, max(0, int(y * 3 / PANEL[1])))
    return "ABCD"[col] + str(row + 1)


def received(browser):
    text = browser.evaluate("document.getElementById('received').textContent") or ""
    return [line.split(" ") for line in text.splitlines() if line.strip()]


def distinct_colours(png):
    ppm = subprocess.run(["pngtopnm", png], capture_output=True, check=True).stdout
    # P6 header: magic, width, height, maxval, then RGB bytes.
    parts = ppm.split(maxsplit=4)
    if parts[0] != b"P6":
        fail(f"pngtopnm gave {parts[0]!r}, not a colour image")
    width, height = int(parts[1]), int(parts[2])
    pixels = parts[4][: width * height * 3]
    return len({pixels[i:i + 3] for i in range(0, len(pixels), 3)}), width, height


def page(args):
    profile = tempfile.mkdtemp(prefix="profile-", dir=args.workdir)
    browser = Browser(profile)
    try:
        browser.navigate(args.url)
        deadline = time.time() + args.timeout
        got = []
        def complete(events):
            seen = {f"{r[0]}:{r[1]}" for r in events}
            return len(events) >= args.expect_events and all(need in seen for need in args.require)

        while time.time() < deadline:
            got = received(browser)
            if complete(got):
                break
            time.sleep(0.25)
        state = browser.evaluate("document.body.dataset.touchwire")
        if not complete(got):
            fail(f"in {args.timeout} s the page received {len(got)} events, not at least {args.expect_events} "
                 f"with {', '.join(args.require)} (connection: {state}); received: {got[:30]}")
        say(f"the page received {len(got)} events through the WebSocket (connection {state})")
        # The same events, in the same order, as touchwire's stdout: a contiguous run of it.
        sent = stdout_events(args.stdout)
        keys = [(e["recognizer"], e["state"], float(e["x"]), float(e["y"])) for e in sent]
        page_keys = [(r[0], r[1], float(r[2]), float(r[3])) for r in got]
        starts = [i for i in range(len(keys) - len(page_keys) + 1) if keys[i:i + len(page_keys)] == page_keys]
        if not starts:
            fail("the page's events are not an in-order run of touchwire's stdout:\n  page:   "
                 + "\n          ".join(" ".join(r) for r in got[:20]))
        kinds = sorted({r[0] + ":" + r[1] for r in got})
        for need in args.require:
            if not any(f"{r[0]}:{r[1]}" == need for r in got):
                fail(f"no {need} among the page's events ({', '.join(kinds)})")
        # Each on the tile under its point (elementFromPoint after mapping 800×480 → the viewport).
        for r in got:
            want = tile_of(float(r[2]), float(r[3]))
            if r[4] != want:
                fail(f"{r[0]} {r[1]} at ({r[2]}, {r[3]}) was dispatched on {r[4]}, not on tile {want}")
        say("in order (a contiguous run of touchwire's stdout), each on the tile under its point: "
            + ", ".join(kinds))
        if args.restart_bridge:
            restart_bridge(browser, args)
        if args.screenshot:
            browser.screenshot(args.screenshot)
            colours, width, height = distinct_colours(args.screenshot)
            if (width, height) != VIEWPORT:
                fail(f"screenshot is {width}×{height}, expected {VIEWPORT[0]}×{VIEWPORT[1]}")
            if colours < 20:
                fail(f"screenshot {args.screenshot} looks blank: {colours} distinct colours")
            say(f"screenshot {args.screenshot}: {width}×{height}, {colours} distinct colours")
    finally:
        browser.close()


def restart_bridge(browser, args):
    """Stops the bridge under the open page and starts it again: touchwire.js must reconnect by itself."""
    before = len(received(browser))
    os.kill(args.bridge_pid, 15)
    deadline = time.time() + 10
    while time.time() < deadline and browser.evaluate("document.body.dataset.touchwire") == "open":
        time.sleep(0.1)
    state = browser.evaluate("document.body.dataset.touchwire")
    if state == "open":
        fail("the page still says connected 10 s after the bridge stopped")
    with open(args.bridge_log, "ab") as log:
        proc = subprocess.Popen(args.restart_bridge, shell=True, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                start_new_session=False)
    with open(args.bridge_pid_file, "w") as f:
        f.write(str(proc.pid))
    start = time.time()
    while time.time() - start < 30:
        if browser.evaluate("document.body.dataset.touchwire") == "open" and len(received(browser)) >= before + 3:
            say(f"the bridge restarted under the page: touchwire.js reconnected by itself and events flow again "
                f"({time.time() - start:.1f} s after the restart)")
            return
        time.sleep(0.25)
    fail("the page did not reconnect within 30 s after the bridge restarted")


def refused_page(args):
    profile = tempfile.mkdtemp(prefix="profile-", dir=args.workdir)
    browser = Browser(profile)
    try:
        browser.navigate(args.url)
        time.sleep(args.wait)
        got = received(browser)
        opened = browser.evaluate("document.getElementById('status').textContent")
        if got:
            fail(f"a page from a refused origin received {len(got)} events")
        if opened == "connected":
            fail("a page from a refused origin got a connection")
        say(f"a page from a refused origin received nothing (its status: {opened})")
    finally:
        browser.close()


def handshake_request(host, port, origin):
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [f"GET /events HTTP/1.1", f"Host: {host}:{port}", "Upgrade: websocket", "Connection: Upgrade",
             f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
    if origin != "-":
        lines.append(f"Origin: {origin}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def handshake(args):
    with socket.create_connection((args.host, args.port), timeout=10) as s:
        s.sendall(handshake_request(args.host, args.port, args.origin))
        head = b""
        while b"\r\n" not in head:
            chunk = s.recv(4096)
            if not chunk:
                break
            head += chunk
    status = head.split(b"\r\n", 1)[0].decode(errors="replace")
    if status.split(" ")[1:2] != [args.expected]:
        fail(f"origin {args.origin}: expected HTTP {args.expected}, got \"{status}\"")
    say(f"origin {args.origin}: \"{status}\"")


def full(args):
    """max_clients upgraded connections held open; one more gets 503."""
    held = []
    for _ in range(args.count):
        s = socket.create_connection((args.host, args.port), timeout=10)
        s.sendall(handshake_request(args.host, args.port, args.origin))
        head = s.recv(1024)
        if not head.startswith(b"HTTP/1.1 101"):
            fail(f"connection {len(held) + 1} of {args.count} was not upgraded: {head[:40]!r}")
        held.append(s)
    with socket.create_connection((args.host, args.port), timeout=10) as s:
        s.sendall(handshake_request(args.host, args.port, args.origin))
        status = s.recv(1024).split(b"\r\n", 1)[0].decode(errors="replace")
    for s in held:
        s.close()
    if status.split(" ")[1:2] != ["503"]:
        fail(f"client {args.count + 1} with {args.count} connected: expected HTTP 503, got \"{status}\"")
    say(f"{args.count} clients connected, one more: \"{status}\"")


def ws_send_text(sock, text):
    """One masked text frame, as a browser sends it (RFC 6455 §5.3)."""
    payload = text.encode()
    mask = os.urandom(4)
    head = bytes([0x81])
    if len(payload) < 126:
        head += bytes([0x80 | len(payload)])
    else:
        head += bytes([0x80 | 126]) + len(payload).to_bytes(2, "big")
    sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def ws_read_text(sock):
    def exactly(n):
        data = b""
        while len(data) < n:
            chunk = sock.recv(n - len(data))
            if not chunk:
                fail("the bridge closed the connection")
            data += chunk
        return data
    b0, b1 = exactly(2)
    n = b1 & 0x7F
    if n == 126:
        n = int.from_bytes(exactly(2), "big")
    elif n == 127:
        n = int.from_bytes(exactly(8), "big")
    return b0 & 0x0F, exactly(n).decode()


def commands(args):
    """A page's `display …` command reaches touchwire's socket; other messages do not."""
    path = os.path.join(args.workdir, "fake-touchwire.sock")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(1)
    server.settimeout(20)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    origin = "http://127.0.0.1:9"
    log = open(os.path.join(args.workdir, "bridge-commands.log"), "wb")
    bridge = subprocess.Popen([args.bridge, "--socket", path, "--listen", f"127.0.0.1:{port}",
                               "--allow-origin", origin], stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    try:
        upstream, _ = server.accept()
        event = '{"t_us":1,"recognizer":"tap","kind":"tap","state":"recognized","region":"screen","x":1.0,"y":2.0,"touches":1,"taps":1}'
        deadline = time.time() + 20
        while True:
            try:
                page = socket.create_connection(("127.0.0.1", port), timeout=10)
                break
            except OSError:
                if time.time() > deadline:
                    fail("the bridge does not listen")
                time.sleep(0.2)
        page.sendall(handshake_request("127.0.0.1", port, origin))
        head = b""
        while b"\r\n\r\n" not in head:
            head += page.recv(1)
        if not head.startswith(b"HTTP/1.1 101"):
            fail(f"not upgraded: {head[:40]!r}")
        time.sleep(0.3)  # the bridge has subscribed the client once the upgrade is answered
        upstream.sendall(event.encode() + b"\n")
        opcode, text = ws_read_text(page)
        if (opcode, text) != (1, event):
            fail(f"the event line came as opcode {opcode}: {text!r}")
        for message in ["hello", "display on\nexec rm", "display " + "x" * 200, "display on"]:
            ws_send_text(page, message)
        upstream.settimeout(3)
        got = b""
        try:
            while not got.endswith(b"\n"):
                chunk = upstream.recv(1024)
                if not chunk:
                    break
                got += chunk
            upstream.settimeout(1)
            got += upstream.recv(1024)
        except socket.timeout:
            pass
        if got != b"display on\n":
            fail(f"touchwire's socket got {got!r} from the page, expected exactly b'display on\\n'")
        say("one message per event line, and of a page's messages only the `display …` command reached "
            "touchwire's socket")
        page.close()
        upstream.close()
    finally:
        bridge.terminate()
        bridge.wait(timeout=10)
        server.close()


def bridge_status(url):
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.loads(r.read())


def stall(args):
    before = bridge_status(args.status_url)
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect((args.host, args.port))
    s.sendall(handshake_request(args.host, args.port, args.origin))
    head = s.recv(1024)
    if not head.startswith(b"HTTP/1.1 101"):
        fail(f"the stalling client was not upgraded: {head[:60]!r}")
    say("a client subscribed and stopped reading")
    start = time.time()
    while time.time() - start < args.timeout:
        now = bridge_status(args.status_url)
        if now["clients_dropped"] > before["clients_dropped"]:
            say(f"the bridge dropped the client that stopped reading after {time.time() - start:.1f} s "
                f"({now['events'] - before['events']} events meanwhile)")
            s.close()
            return
        time.sleep(0.5)
    s.close()
    fail(f"the client that stopped reading was not dropped within {args.timeout} s")


def unix_lines(args):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(args.path)
    s.settimeout(0.2)
    data = b""
    end = time.time() + args.seconds
    while time.time() < end:
        try:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        except socket.timeout:
            pass
    s.close()
    print(data.count(b"\n"))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--workdir", default=tempfile.gettempdir())
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("page")
    a.add_argument("url")
    a.add_argument("--expect-events", type=int, required=True)
    a.add_argument("--stdout", required=True)
    a.add_argument("--require", action="append", default=[])
    a.add_argument("--screenshot")
    a.add_argument("--timeout", type=float, default=60)
    a.add_argument("--restart-bridge", help="shell command that starts the bridge again")
    a.add_argument("--bridge-pid", type=int)
    a.add_argument("--bridge-log")
    a.add_argument("--bridge-pid-file")
    a = sub.add_parser("refused-page")
    a.add_argument("url")
    a.add_argument("--wait", type=float, default=4)
    a = sub.add_parser("handshake")
    a.add_argument("host")
    a.add_argument("port", type=int)
    a.add_argument("origin")
    a.add_argument("expected")
    a = sub.add_parser("full")
    a.add_argument("host")
    a.add_argument("port", type=int)
    a.add_argument("origin")
    a.add_argument("count", type=int)
    a = sub.add_parser("commands")
    a.add_argument("bridge")
    a = sub.add_parser("stall")
    a.add_argument("host")
    a.add_argument("port", type=int)
    a.add_argument("origin")
    a.add_argument("status_url")
    a.add_argument("--timeout", type=float, default=60)
    a = sub.add_parser("unix-lines")
    a.add_argument("path")
    a.add_argument("seconds", type=float)
    args = p.parse_args()
    {"page": page, "refused-page": refused_page, "handshake": handshake, "full": full, "commands": commands, "stall": stall,
     "unix-lines": unix_lines}[args.cmd](args)


if __name__ == "__main__":
    main()
