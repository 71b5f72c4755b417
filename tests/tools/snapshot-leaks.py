#!/usr/bin/env python3
"""snapshot-leaks.py REDACTED ORIGINAL ID...: which identities (IPv4, MAC,
GUID and GID text as sysfs prints them, host names) are still in the redacted
snapshot, in any form: the text itself, inet_ntop's IPv6 form, the raw bytes
in either byte order. Each form of an ID that is longer than 4 bytes must be
in ORIGINAL (else the check would prove nothing). Prints the leaks; exit 1 if any."""
import ipaddress
import sys


def forms(ident):
    out = [ident.encode()]
    hexs = ident.replace(':', '')
    if len(hexs) in (12, 16, 32) and all(c in '0123456789abcdef' for c in hexs):
        raw = bytes.fromhex(hexs)
        out += [raw, raw[::-1]]
        if len(raw) == 16:
            out.append(str(ipaddress.IPv6Address(raw)).encode())
    if ident.count('.') == 3 and all(p.isdigit() for p in ident.split('.')):
        out.append(ipaddress.IPv4Address(ident).packed)
    return out


def main():
    red = open(sys.argv[1], 'rb').read()
    orig = open(sys.argv[2], 'rb').read()
    leaks, missing = [], []
    for ident in sys.argv[3:]:
        for f in forms(ident):
            if f in red:
                leaks.append((ident, f))
            elif f not in orig and len(f) > 4 and f != ident.encode()[::-1]:
                missing.append((ident, f))
    for ident, f in leaks:
        print('leak: %s as %r' % (ident, f))
    if not any(f in orig for i in sys.argv[3:] for f in forms(i)):
        print('none of the identities is in the original: wrong input')
        return 1
    return 1 if leaks else 0


if __name__ == '__main__':
    sys.exit(main())
