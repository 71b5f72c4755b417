#!/usr/bin/env python3
# Hostile clients of `rdmadiag path serve` for tests/lab/two-host/70-serve-hostile.bats.
#
#   hostile_client.py HOST PORT ATTACK [N]
#
# One line per session on stdout: "ATTACK port=LOCALPORT answer=WHAT after=SECONDS",
# where WHAT is "error:TEXT" (a PP_ERROR from serve), "closed" (serve closed
# without a message), "reset", or "none" (nothing within the wait). LOCALPORT
# lets the test find serve's log line of that session.
#
# Attacks (each one session unless said):
#   garbage      bytes that are not the protocol (an HTTP request)
#   random       4 KiB of random bytes
#   oversize     a HELLO header claiming a 4 GiB payload
#   short-len    a HELLO header whose length is not the HELLO's (15)
#   version      a HELLO with protocol version 9
#   type-zero    message type 0
#   type-unknown message type 200
#   wrong-type   HELLO_OK (a serve-to-tester type) instead of HELLO
#   out-of-order CONFIG before HELLO
#   huge-size    a well-formed HELLO asking for 4 GiB messages
#   zero-size    a well-formed HELLO asking for 0-byte messages
#   bad-string   a HELLO then a CONFIG whose strings are unterminated escape sequences
#   stall-header half a header, then silence (serve's idle timeout must end it)
#   stall-hello  a good HELLO, then silence before CONFIG
#   vanish       a good HELLO, then a TCP reset (SO_LINGER 0)
#   half-open    a good HELLO, then shutdown(SHUT_WR) without reading
#   flood N      N connections at once, each sending garbage; one line each
#   hold N       N connections at once that send nothing; one line each
import os
import select
import socket
import struct
import sys
import time

MAGIC, VERSION = 0x52444447, 1
HELLO, HELLO_OK, ERROR, CONFIG = 1, 2, 3, 4


def header(mtype, length, version=VERSION, magic=MAGIC):
    return struct.pack(">IBBHI", magic, version, mtype, 0, length)


def hello(size=65536, lat=8):
    return header(HELLO, 16) + struct.pack(">IIII", 0, size, lat, size)


def config(dev=b"rxe0", netdev=b"eth0", addr=b"1.2.3.4"):
    body = dev.ljust(64, b"\0")[:64] + netdev.ljust(32, b"\0")[:32] + addr.ljust(64, b"\0")[:64]
    body += struct.pack(">9I", 1, 2, 1024, 4096, 1500, 1, 2, 0, 0)[:28]
    body += b"\0" * 16 + struct.pack(">II", 0, 0)
    return header(CONFIG, len(body)) + body


def read_answer(s, wait):
    """What serve answers within wait seconds: error text, closed, reset or none."""
    end = time.monotonic() + wait
    data = b""
    while time.monotonic() < end:
        r, _, _ = select.select([s], [], [], max(0.0, end - time.monotonic()))
        if not r:
            break
        try:
            chunk = s.recv(4096)
        except ConnectionResetError:
            return "reset" if not data else describe(data)
        if not chunk:
            return describe(data) if data else "closed"
        data += chunk
        if len(data) >= 12:
            n = struct.unpack(">I", data[8:12])[0]
            if len(data) >= 12 + n:
                # a complete message; keep reading until serve closes (or the wait ends)
                continue
    return describe(data) if data else "none"


def describe(data):
    if len(data) >= 12 + 4 and data[5] == ERROR:
        text = data[16:16 + 200].split(b"\0")[0].decode("ascii", "replace")
        return "error:" + text
    if len(data) >= 12 and data[5] == HELLO_OK:
        return "hello_ok"
    return "bytes:%d" % len(data)


PAYLOADS = {
    "garbage": lambda: b"GET / HTTP/1.0\r\n\r\n",
    "random": lambda: os.urandom(4096),
    "oversize": lambda: header(HELLO, 0xFFFFFFFF),
    "short-len": lambda: header(HELLO, 15) + b"\0" * 15,
    "version": lambda: header(HELLO, 16, version=9) + b"\0" * 16,
    "type-zero": lambda: header(0, 0),
    "type-unknown": lambda: header(200, 0),
    "wrong-type": lambda: header(HELLO_OK, 8) + b"\0" * 8,
    "out-of-order": lambda: config(),
    "huge-size": lambda: hello(size=0xFFFFFFFF),
    "zero-size": lambda: hello(size=0),
    "bad-string": lambda: hello() + config(dev=b"\x1b[2J\x1b]0;pwn\x07" * 8, netdev=b"\xff" * 32),
    "stall-header": lambda: header(HELLO, 16)[:6],
    "stall-hello": lambda: hello(),
}


def connect(host, port):
    s = socket.create_connection((host, port), timeout=10)
    return s, s.getsockname()[1]


def one(host, port, attack, wait):
    t0 = time.monotonic()
    s, lport = connect(host, port)
    if attack in PAYLOADS:
        try:
            s.sendall(PAYLOADS[attack]())
        except OSError:
            pass
        answer = read_answer(s, wait)
    elif attack == "vanish":
        s.sendall(hello())
        read_answer(s, 1)  # the HELLO_OK
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.close()
        answer = "vanished"
    elif attack == "half-open":
        s.sendall(hello())
        s.shutdown(socket.SHUT_WR)
        answer = read_answer(s, wait)
    else:
        sys.exit("unknown attack " + attack)
    print("%s port=%d answer=%s after=%.2f" % (attack, lport, answer, time.monotonic() - t0), flush=True)
    s.close()


def many(host, port, attack, n, wait):
    socks = []
    t0 = time.monotonic()
    for _ in range(n):
        s, lport = connect(host, port)
        if attack == "flood":
            s.sendall(b"\x00garbage\xff" * 4)
        socks.append((s, lport))
    for s, lport in socks:
        answer = read_answer(s, max(0.1, wait - (time.monotonic() - t0)))
        print("%s port=%d answer=%s after=%.2f" % (attack, lport, answer, time.monotonic() - t0), flush=True)
    for s, _ in socks:
        s.close()


def main():
    host, port, attack = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    wait = float(os.environ.get("HOSTILE_WAIT", "10"))
    if attack in ("flood", "hold"):
        many(host, port, attack, int(sys.argv[4]), wait)
    else:
        one(host, port, attack, wait)


if __name__ == "__main__":
    main()
