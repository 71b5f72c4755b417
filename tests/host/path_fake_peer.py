#!/usr/bin/env python3
# A fake peer for `rdmadiag path test` host tests: listens on 127.0.0.1,
# prints its port, and answers one connection the way MODE says:
#   garbage  bytes that are not the protocol
#   silent   accept and never answer
#   busy     a well-formed PP_ERROR "busy" (what a full serve says)
#   oversize a header claiming a 4 GiB payload
import socket
import struct
import sys
import time

mode = sys.argv[1]
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(4)
print(s.getsockname()[1], flush=True)
s.settimeout(30)
c, _ = s.accept()
MAGIC, VERSION, PP_ERROR = 0x52444447, 1, 3
if mode == "garbage":
    c.sendall(b"SSH-2.0-OpenSSH_9.2\r\n")
elif mode == "busy":
    text = b"busy: 4 sessions running (--max-sessions 4)".ljust(200, b"\0")
    payload = struct.pack(">I", 16) + text
    c.sendall(struct.pack(">IBBHI", MAGIC, VERSION, PP_ERROR, 0, len(payload)) + payload)
elif mode == "oversize":
    c.sendall(struct.pack(">IBBHI", MAGIC, VERSION, 2, 0, 0xFFFFFFFF))
time.sleep(10)
