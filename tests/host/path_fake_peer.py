#!/usr/bin/env python3
# A fake peer for `rdmadiag path test` host tests: listens on 127.0.0.1,
# prints its port, and answers one connection the way MODE says:
#   garbage  bytes that are not the protocol
#   silent   accept and never answer
#   busy     a well-formed PP_ERROR "busy" (what a full serve says)
#   oversize a header claiming a 4 GiB payload
#   partial  half a message header, then nothing (a peer stalled mid-message)
#   drip     a valid HELLO_OK, one byte every 0.5 s (never completes in time)
#   closing  reads the HELLO, then closes (a peer that vanishes mid-session)
#   idle5    a HELLO_OK announcing a 5 s idle timeout (answers each connection)
#   backlog  never accepts, its listen queue full: a SYN gets no answer
#   hello    accepts the session (HELLO_OK), then says nothing more
import socket
import struct
import sys
import time

mode = sys.argv[1]
s = socket.socket()
s.bind(("127.0.0.1", 0))
if mode == "backlog":
    # backlog 0 holds one connection; fill it so later SYNs are dropped
    s.listen(0)
    fillers = [socket.create_connection(s.getsockname())]
    extra = socket.socket()
    extra.setblocking(False)
    extra.connect_ex(s.getsockname())  # its SYN is dropped: the queue is full
    fillers.append(extra)
    print(s.getsockname()[1], flush=True)
    time.sleep(30)
    sys.exit(0)
s.listen(4)
print(s.getsockname()[1], flush=True)
s.settimeout(30)
MAGIC, VERSION, PP_ERROR = 0x52444447, 1, 3
if mode == "idle5":
    while True:
        c, _ = s.accept()
        c.recv(12 + 16)
        c.sendall(struct.pack(">IBBHIII", MAGIC, VERSION, 2, 0, 8, 8 << 20, 5000))
        time.sleep(0.5)
        c.close()
c, _ = s.accept()
if mode == "garbage":
    c.sendall(b"SSH-2.0-OpenSSH_9.2\r\n")
elif mode == "busy":
    text = b"busy: 4 sessions running (--max-sessions 4)".ljust(200, b"\0")
    payload = struct.pack(">I", 16) + text
    c.sendall(struct.pack(">IBBHI", MAGIC, VERSION, PP_ERROR, 0, len(payload)) + payload)
elif mode == "hello":
    c.recv(4096)  # the tester's HELLO; its content does not matter here
    payload = struct.pack(">II", 1 << 20, 10000)
    c.sendall(struct.pack(">IBBHI", MAGIC, VERSION, 2, 0, len(payload)) + payload)
elif mode == "oversize":
    c.sendall(struct.pack(">IBBHI", MAGIC, VERSION, 2, 0, 0xFFFFFFFF))
elif mode == "partial":
    c.sendall(struct.pack(">IB", MAGIC, VERSION))
elif mode == "drip":
    try:
        for b in struct.pack(">IBBHIII", MAGIC, VERSION, 2, 0, 8, 8 << 20, 30000):
            c.sendall(bytes([b]))
            time.sleep(0.5)
    except OSError:
        pass  # the tester gave up first, as it should
elif mode == "closing":
    c.recv(12 + 16)
    c.close()
time.sleep(10)
