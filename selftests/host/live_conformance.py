#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Conformance of a live protocol server (design.rst 6.3) from outside.

    live_conformance.py --server PROGRAM CASE

PROGRAM is started as a process of its own (selftests/host/live_serve:
the server code of perf gpu top --listen serving a known state; it prints
"port N", then "gen K" for each generation, the next on SIGUSR1).  CASE is
one of the cases below.  Every line read back is checked against the
grammar (the regular expression of its kind, where it may come, \\r\\n at
the end, 1024 bytes at most); after the case the server must still be
running and answer a new client, and it must exit cleanly when stopped.
Exit status 0 when all held; messages on stdout.  Python's standard
library only.
"""
import argparse
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import time

LINE_MAX = 1024
CONN_MAX = 16
OUTBUF_MAX = 1 << 20
SERVER_NAME = b"live-serve"
PDEV = "0000:00:02.0"

WORD = rb"[\x21-\x7e\x80-\xff]"
ID = rb"(0|[1-9a-f][0-9a-f]{0,15})"
TYPES = rb"(CLIENT|ENGINE|HEAP)"
RE_HELLO = re.compile(rb"HELLO [1-9][0-9]* " + WORD + rb"+")
RE_UPDATE = re.compile(rb"UPDATE")
RE_END_REPLY = re.compile(rb"END (HELLO|UPDATE)")
RE_OBJECT = re.compile(TYPES + rb" " + ID)
RE_END_OBJECT = re.compile(rb"END " + TYPES)
RE_ATTR = re.compile(rb"[\x21-\x3c\x3e-\x7e\x80-\xff]+=" + WORD + rb"*")
RE_DELETE = re.compile(rb"DELETE " + ID)
RE_ERROR = re.compile(rb"ERROR [\x20-\x7e\x80-\xff]+")


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)


def fnv1a64(text):
    h = 0xCBF29CE484222325
    for b in text.encode():
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


class Grammar:
    """Where each line may come in a server's output, and its shape."""

    def __init__(self):
        self.where = "start"        # start, top, body, object, closed
        self.reply = None           # HELLO or UPDATE
        self.type = None

    def feed(self, raw):
        check(raw.endswith(b"\r\n"), "line without \\r\\n: %r" % raw[:80])
        check(len(raw) <= LINE_MAX, "line of %d bytes" % len(raw))
        line = raw[:-2]
        check(b"\r" not in line and b"\n" not in line,
              "stray CR or LF in %r" % line[:80])

        def full(rx):
            return rx.fullmatch(line) is not None

        if self.where == "closed":
            raise Failure("a line after ERROR: %r" % line[:80])
        if self.where in ("start", "top"):
            if full(RE_ERROR):
                self.where = "closed"
            elif self.where == "start" and full(RE_HELLO):
                self.where, self.reply = "body", b"HELLO"
            elif self.where == "top" and full(RE_UPDATE):
                self.where, self.reply = "body", b"UPDATE"
            else:
                raise Failure("not a reply's first line here: %r" % line[:80])
        elif self.where == "body":
            if full(RE_END_REPLY):
                check(line == b"END " + self.reply,
                      "%r ends a %s" % (line, self.reply))
                self.where = "top"
            elif full(RE_OBJECT):
                self.where, self.type = "object", line.split(b" ")[0]
            elif full(RE_DELETE):
                check(self.reply == b"UPDATE", "DELETE in HELLO's reply")
            else:
                raise Failure("not an object, DELETE or END: %r" % line[:80])
        elif self.where == "object":
            if full(RE_END_OBJECT):
                check(line == b"END " + self.type,
                      "%r ends a %s" % (line, self.type))
                self.where = "body"
            elif not full(RE_ATTR):
                raise Failure("not KEY=VALUE in an object: %r" % line[:80])
        return line


class Conn:
    """One client connection; every line read goes through the grammar."""

    def __init__(self, port, timeout=10):
        self.sock = socket.create_connection(("127.0.0.1", port),
                                             timeout=timeout)
        self.buf = b""
        self.pos = 0
        self.eof = False
        self.grammar = Grammar()

    def close(self):
        self.sock.close()

    def send(self, data):
        self.sock.sendall(data)

    def _fill(self, timeout):
        self.sock.settimeout(timeout)
        try:
            data = self.sock.recv(65536)
        except ConnectionResetError:
            data = b""
        if not data:
            self.eof = True
        self.buf += data

    def line(self, timeout=10):
        """The next line (without \\r\\n), None at EOF."""
        deadline = time.monotonic() + timeout
        while True:
            i = self.buf.find(b"\n", self.pos)
            if i >= 0:
                raw, self.pos = self.buf[self.pos:i + 1], i + 1
                return self.grammar.feed(raw)
            # Read past lines go only now: one copy per read, not per line.
            self.buf, self.pos = self.buf[self.pos:], 0
            check(len(self.buf) < LINE_MAX, "a line over %d bytes" % LINE_MAX)
            if self.eof:
                check(not self.buf, "half a line before EOF: %r" % self.buf)
                return None
            left = deadline - time.monotonic()
            check(left > 0, "no whole line in %d s (have %r)" %
                  (timeout, self.buf[:80]))
            self._fill(left)

    def reply(self, timeout=10):
        """A whole reply, as its lines."""
        lines = []
        while True:
            line = self.line(timeout)
            check(line is not None, "EOF inside a reply after %r" % lines[-3:])
            lines.append(line)
            if self.grammar.where in ("top", "closed"):
                return lines

    def expect_eof(self, timeout=10):
        line = self.line(timeout)
        check(line is None, "a line where EOF was due: %r" % line)

    def expect_error(self, text, timeout=10):
        """ERROR <text> (a prefix of it), then the server closes."""
        line = self.line(timeout)
        check(line is not None and line.startswith(b"ERROR " + text),
              "expected ERROR %r, got %r" % (text, line))
        self.expect_eof(timeout)
        return line

    def expect_silence(self, seconds):
        check(self.pos == len(self.buf),
              "the server answered a request not yet whole: %r" %
              self.buf[self.pos:self.pos + 80])
        try:
            self.sock.settimeout(seconds)
            data = self.sock.recv(1, socket.MSG_PEEK)
        except socket.timeout:
            return
        raise Failure("the server answered a request not yet whole: %r" % data)


class Server:
    def __init__(self, program, env=None):
        self.proc = subprocess.Popen([program], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env)
        first = self.proc.stdout.readline().split()
        check(len(first) == 2 and first[0] == b"port",
              "the server printed %r, not its port" % first)
        self.port = int(first[1])
        self.gen = 0
        self._wait_gen(0)

    def _wait_gen(self, k):
        line = self.proc.stdout.readline()
        check(line == b"gen %d\n" % k, "the server printed %r" % line)

    def next_gen(self):
        """Publish the next generation and wait until it is published."""
        self.proc.send_signal(signal.SIGUSR1)
        self.gen += 1
        self._wait_gen(self.gen)

    def rss_kib(self):
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        raise Failure("no VmRSS for the server")

    def check_alive(self):
        """Still running, and a new client gets a whole HELLO reply."""
        check(self.proc.poll() is None,
              "the server died: status %s" % self.proc.returncode)
        c = Conn(self.port)
        try:
            c.send(b"HELLO 1 alive\r\n")
            lines = c.reply()
            check(lines[0] == b"HELLO 1 " + SERVER_NAME,
                  "a new client got %r" % lines[0])
            c.send(b"GOODBYE\r\n")
            c.expect_eof()
        finally:
            c.close()

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            _, err = self.proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate()
            raise Failure("the server did not stop on SIGTERM")
        check(self.proc.returncode == 0, "the server exited with %s: %s" %
              (self.proc.returncode, err.decode(errors="replace")[-3000:]))


# The state live_serve publishes (see live_serve.c), as the lines of
# HELLO's reply and of each UPDATE, written out here by hand.
RENDER = fnv1a64("ENGINE %s/render" % PDEV)
VIDEO = fnv1a64("ENGINE %s/video" % PDEV)
SYSTEM = fnv1a64("HEAP %s/system" % PDEV)


def lines_of(text):
    return [l.encode() for l in text.strip().split("\n")]


def hello_gen0():
    engines = {RENDER: "NAME=%s/render\nUTIL=2500" % PDEV,
               VIDEO: "NAME=%s/video\nUTIL=0" % PDEV}
    text = """HELLO 1 live-serve
CLIENT 10
NAME=glx_gears
PID=100
DRIVER=i915
PDEV=%s
ENGINE.render=1000000
ENGINE.video=0
UTIL.render=2500
UTIL.video=0
MEM.system=4096
END CLIENT
CLIENT 20
NAME=vkcube
PID=200
DRIVER=i915
PDEV=%s
ENGINE.render=7000000
MEM.system=8192
END CLIENT
""" % (PDEV, PDEV)
    for i in sorted(engines):
        text += "ENGINE %x\n%s\nEND ENGINE\n" % (i, engines[i])
    text += "HEAP %x\nNAME=%s/system\nSIZE=12288\nEND HEAP\nEND HELLO" % (
        SYSTEM, PDEV)
    return lines_of(text)


UPDATE_0_TO_1 = lines_of("""UPDATE
CLIENT 10
ENGINE.render=1500000
UTIL.render=2600
END CLIENT
ENGINE %x
UTIL=2600
END ENGINE
HEAP %x
SIZE=4096
END HEAP
DELETE 20
END UPDATE""" % (RENDER, SYSTEM))

UPDATE_1_TO_2 = lines_of("""UPDATE
CLIENT 10
ENGINE.render=2000000
UTIL.render=2700
END CLIENT
CLIENT 20
NAME=vkcube
PID=200
DRIVER=i915
PDEV=%s
ENGINE.render=7000000
MEM.system=8192
END CLIENT
ENGINE %x
UTIL=2700
END ENGINE
HEAP %x
SIZE=12288
END HEAP
END UPDATE""" % (PDEV, RENDER, SYSTEM))

# From 0 straight to 2: the heap and the second client are as they were.
UPDATE_0_TO_2 = lines_of("""UPDATE
CLIENT 10
ENGINE.render=2000000
UTIL.render=2700
END CLIENT
ENGINE %x
UTIL=2700
END ENGINE
END UPDATE""" % RENDER)

EMPTY_UPDATE = [b"UPDATE", b"END UPDATE"]


def expect_lines(got, want, what):
    if got != want:
        raise Failure("%s:\n got  %r\n want %r" % (what, got, want))


def hello(conn, version=b"1", name=b"conf"):
    conn.send(b"HELLO " + version + b" " + name + b"\r\n")
    return conn.reply()


# Cases

def case_hello(srv):
    c = Conn(srv.port)
    expect_lines(hello(c), hello_gen0(), "HELLO's reply")
    c.close()
    # A newer client is answered with our version, the lower one.
    c = Conn(srv.port)
    lines = hello(c, b"7")
    expect_lines(lines[:1], [b"HELLO 1 live-serve"], "HELLO 7's answer")
    c.close()


def case_update(srv):
    a, b = Conn(srv.port), Conn(srv.port)
    hello(a)
    hello(b)
    a.send(b"UPDATE\r\n")
    expect_lines(a.reply(), EMPTY_UPDATE, "UPDATE with nothing new")
    srv.next_gen()
    a.send(b"UPDATE\r\n")
    expect_lines(a.reply(), UPDATE_0_TO_1, "UPDATE after generation 1")
    a.send(b"UPDATE\r\n")
    expect_lines(a.reply(), EMPTY_UPDATE, "UPDATE again")
    srv.next_gen()
    a.send(b"UPDATE\r\n")
    expect_lines(a.reply(), UPDATE_1_TO_2, "UPDATE after generation 2")
    # b said nothing since HELLO: its diff is from generation 0.
    b.send(b"UPDATE\r\n")
    expect_lines(b.reply(), UPDATE_0_TO_2, "UPDATE of a slower client")
    a.close()
    b.close()


def case_goodbye(srv):
    c = Conn(srv.port)
    hello(c)
    c.send(b"GOODBYE\r\n")
    c.expect_eof()
    c.close()
    # Before HELLO too; and what follows GOODBYE is not answered.
    c = Conn(srv.port)
    c.send(b"GOODBYE\r\nHELLO 1 x\r\n")
    c.expect_eof()
    c.close()
    # A client that says HELLO and shuts its side (as nc does) still
    # gets the whole reply, then the close.
    c = Conn(srv.port)
    c.send(b"HELLO 1 halfclosed\r\n")
    c.sock.shutdown(socket.SHUT_WR)
    expect_lines(c.reply(), hello_gen0(), "HELLO before a half close")
    c.expect_eof()
    c.close()
    # Gone abruptly (a reset), with and without half a line sent.
    for data in (b"HELLO 1 x\r\nUPDATE\r\n", b"HELLO 1 x\r\nUPD"):
        c = Conn(srv.port)
        c.send(data)
        c.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                          struct.pack("ii", 1, 0))
        c.close()
        srv.check_alive()


def case_spacing(srv):
    c = Conn(srv.port)
    c.send(b"\r\n   \r\n")
    c.expect_silence(0.3)
    c.send(b"  HELLO   1    spaced   \r\n")
    expect_lines(c.reply(), hello_gen0(), "HELLO with runs of spaces")
    c.send(b"\r\nUPDATE     \r\n\r\n")
    expect_lines(c.reply(), EMPTY_UPDATE, "UPDATE with trailing spaces")
    c.send(b"   GOODBYE \r\n")
    c.expect_eof()
    c.close()


def case_half_lines(srv):
    c = Conn(srv.port)
    for piece in (b"H", b"EL", b"LO 1", b" halves", b"\r"):
        c.send(piece)
        time.sleep(0.05)
    c.expect_silence(0.3)
    c.send(b"\n")
    expect_lines(c.reply(), hello_gen0(), "HELLO sent in pieces")
    # Pipelined requests with a half one at the end.
    c.send(b"UPDATE\r\nUPDATE\r\nUPD")
    expect_lines(c.reply(), EMPTY_UPDATE, "first pipelined UPDATE")
    expect_lines(c.reply(), EMPTY_UPDATE, "second pipelined UPDATE")
    c.expect_silence(0.3)
    srv.next_gen()
    c.send(b"ATE\r\n")
    expect_lines(c.reply(), UPDATE_0_TO_1, "UPDATE completed later")
    c.close()


def case_long_lines(srv):
    c = Conn(srv.port)
    # 1024 bytes with the \r\n: allowed, in a HELLO and an UPDATE.
    name = b"n" * (LINE_MAX - len(b"HELLO 1 \r\n"))
    lines = hello(c, b"1", name)
    check(lines[0] == b"HELLO 1 live-serve", "1024-byte HELLO: %r" % lines[0])
    c.send(b"UPDATE" + b" " * (LINE_MAX - 8) + b"\r\n")
    expect_lines(c.reply(), EMPTY_UPDATE, "1024-byte UPDATE")
    # 1025 bytes: refused.
    c.send(b"UPDATE" + b" " * (LINE_MAX - 7) + b"\r\n")
    c.expect_error(b"line too long")
    c.close()
    srv.check_alive()
    # No newline at all: refused once 1024 bytes are in, not waiting
    # for an end that never comes.
    c = Conn(srv.port)
    c.send(b"A" * (LINE_MAX + 1))
    c.expect_error(b"line too long")
    c.close()
    srv.check_alive()
    # A megabyte of it: still one ERROR, then the close.
    c = Conn(srv.port)
    try:
        c.send(b"x" * (1 << 20))
    except (BrokenPipeError, ConnectionResetError):
        pass
    c.expect_error(b"line too long")
    c.close()


# (what is sent, the ERROR text expected): each on a new connection.
JUNK = [
    (b"FOO\r\n", b"unknown command FOO"),
    (b"hello 1 x\r\n", b"unknown command hello"),
    (b"ERROR x\r\n", b"unknown command ERROR"),
    (b"END HELLO\r\n", b"unknown command END"),
    (b"HELLO\r\n", b"HELLO needs VERSION NAME"),
    (b"HELLO 1\r\n", b"HELLO needs VERSION NAME"),
    (b"HELLO 1 a b\r\n", b"HELLO needs VERSION NAME"),
    (b"HELLO 0 x\r\n", b"bad version"),
    (b"HELLO x x\r\n", b"bad version"),
    (b"HELLO -1 x\r\n", b"bad version"),
    (b"HELLO 1.0 x\r\n", b"bad version"),
    (b"HELLO 99999999999 x\r\n", b"bad version"),
    (b"UPDATE\r\n", b"UPDATE before HELLO"),
    (b"GOODBYE now\r\n", b"GOODBYE takes no arguments"),
    (b"HELLO 1 x\n", b"line does not end in CRLF"),
    (b"\n", b"line does not end in CRLF"),
    (b"HELLO\t1 x\r\n", b"line is not text"),
    (b"\x01\x02\x03\r\n", b"line is not text"),
    (b"HEL\x00LO 1 x\r\n", b"line is not text"),
    (b"HELLO 1 x\r\r\n", b"line is not text"),
    (b"\x7f\r\n", b"line is not text"),
    # What follows the bad line in the same packet is not answered.
    (b"FOO\r\nHELLO 1 x\r\n", b"unknown command FOO"),
    (b"X" * 200 + b"\r\n", b"unknown command " + b"X" * 32),
]

# After a good HELLO: (what is sent, the ERROR expected after its reply).
JUNK_AFTER_HELLO = [
    (b"HELLO 1 again\r\n", b"HELLO was said already"),
    (b"UPDATE now\r\n", b"UPDATE takes no arguments"),
    (b"DELETE 10\r\n", b"unknown command DELETE"),
]


def case_junk(srv):
    for data, error in JUNK:
        c = Conn(srv.port)
        c.send(data)
        c.expect_error(error)
        c.close()
        srv.check_alive()
    for data, error in JUNK_AFTER_HELLO:
        c = Conn(srv.port)
        hello(c)
        c.send(data)
        c.expect_error(error)
        c.close()
        srv.check_alive()
    # Binary noise, the same each run.
    seed = 12345
    for _ in range(20):
        noise = bytearray()
        for _ in range(300):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            noise.append(seed >> 16 & 0xFF)
        c = Conn(srv.port)
        c.send(bytes(noise) + b"\r\n")
        line = c.line()
        check(line is not None and line.startswith(b"ERROR "),
              "noise answered with %r" % line)
        c.expect_eof()
        c.close()
    srv.check_alive()


def no_quarantine():
    """The environment for a server whose memory is measured.

    ASan keeps freed blocks in a quarantine (256 MB by default) to catch
    uses after free; an output buffer that grows and is given back as the
    kernel's buffers drain would count there many times over.  Without
    it, RSS shows what the server holds.
    """
    env = dict(os.environ)
    opts = env.get("ASAN_OPTIONS", "")
    env["ASAN_OPTIONS"] = (opts + ":" if opts else "") + "quarantine_size_mb=0"
    return env


def case_no_reader(srv):
    """A client that sends UPDATE after UPDATE and never reads."""
    c = Conn(srv.port)
    hello(c)
    base = srv.rss_kib()
    peak = base
    chunk = b"UPDATE\r\n" * 8192
    # 16 MiB of requests: 2 M replies, 44 MB that a server without a
    # bound would hold (the kernel's buffers take a few MB at most).
    sent = 0
    c.sock.settimeout(10)
    try:
        for _ in range(256):
            c.sock.sendall(chunk)
            sent += 1
            peak = max(peak, srv.rss_kib())
    except (BrokenPipeError, ConnectionResetError, socket.timeout):
        pass
    peak = max(peak, srv.rss_kib())
    grown = peak - base
    print("# no_reader: %d KiB of requests sent, server RSS %d -> %d KiB" %
          (sent * len(chunk) // 1024, base, peak))
    # The bound is per connection; allow it twice over, and slack.
    check(grown < 2 * OUTBUF_MAX // 1024 + 4096,
          "the server grew by %d KiB for one silent client" % grown)
    # Now read: whole replies, then ERROR MEMORY, then the close.
    replies = 0
    while True:
        line = c.line(timeout=20)
        check(line is not None, "EOF without ERROR MEMORY after %d replies"
              % replies)
        if line == b"UPDATE":
            check(c.line() == b"END UPDATE", "an UPDATE reply not whole")
            replies += 1
            continue
        check(line == b"ERROR MEMORY", "%r after %d replies" % (line, replies))
        break
    c.expect_eof()
    print("# no_reader: %d replies, then ERROR MEMORY" % replies)
    check(replies < len(chunk) // 8 * 256, "every request was answered")
    c.close()


def case_connections(srv):
    conns = [Conn(srv.port) for _ in range(CONN_MAX)]
    for c in conns:
        hello(c)
    extra = Conn(srv.port)
    extra.expect_error(b"too many connections")
    extra.close()
    # Those served are unaffected.
    conns[0].send(b"UPDATE\r\n")
    expect_lines(conns[0].reply(), EMPTY_UPDATE, "UPDATE at the limit")
    # One leaves (GOODBYE, the server closes, so do we): room for the
    # next.
    leaving = conns.pop()
    leaving.send(b"GOODBYE\r\n")
    leaving.expect_eof()
    leaving.close()
    time.sleep(0.2)
    again = Conn(srv.port)
    expect_lines(hello(again), hello_gen0(), "HELLO after one left")
    again.close()
    for c in conns:
        c.close()


CASES = {
    "hello": case_hello,
    "update": case_update,
    "goodbye": case_goodbye,
    "spacing": case_spacing,
    "half_lines": case_half_lines,
    "long_lines": case_long_lines,
    "junk": case_junk,
    "no_reader": case_no_reader,
    "connections": case_connections,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--server", required=True, help="the server program")
    ap.add_argument("case", choices=sorted(CASES))
    args = ap.parse_args()
    check(fnv1a64("ENGINE %s/render" % PDEV) == 0xD44D449C0ED0CAEA,
          "FNV-1a 64 is off")
    srv = Server(args.server, no_quarantine() if args.case == "no_reader"
                 else None)
    try:
        CASES[args.case](srv)
        srv.check_alive()
    except Failure as e:
        print("FAIL %s: %s" % (args.case, e))
        srv.proc.kill()
        _, err = srv.proc.communicate()
        sys.stdout.write(err.decode(errors="replace")[-3000:])
        return 1
    try:
        srv.stop()
    except Failure as e:
        print("FAIL %s: %s" % (args.case, e))
        return 1
    print("ok %s" % args.case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
