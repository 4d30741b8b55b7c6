"""The CLI's text escaping (docs/cli.md, "Escaping"), decoded, and what escaped text may
hold: the tests check that every field decodes back to the bytes it shows."""
import re

_TOKEN = re.compile(rb"\\(\\|t|n|r|x[0-9a-f]{2})|(\\)|([^\\]+)", re.S)
_SIMPLE = {b"\\": b"\\", b"t": b"\t", b"n": b"\n", b"r": b"\r"}
# Code points the CLI writes as \xHH although they are valid UTF-8 (invisible controls).
HIDDEN = set(range(0x80, 0xA0)) | {0x200E, 0x200F, 0x2028, 0x2029} | set(range(0x202A, 0x202F)) | set(
    range(0x2066, 0x206A))


def unescape(text):
    """The bytes an escaped field stands for; ValueError on a stray backslash."""
    out = bytearray()
    for m in _TOKEN.finditer(text):
        escape, stray, plain = m.groups()
        if stray:
            raise ValueError("a backslash that starts no escape in %r" % text)
        if plain:
            out += plain
        elif escape in _SIMPLE:
            out += _SIMPLE[escape]
        else:
            out.append(int(escape[1:], 16))
    return bytes(out)


def problems(text):
    """Why `text` is not what escaped output may be (control bytes, bytes outside UTF-8,
    hidden control characters); empty when it is fine."""
    found = []
    if any(b < 0x20 or b == 0x7F for b in text):
        found.append("a raw control byte")
    try:
        decoded = text.decode("utf-8")
    except UnicodeDecodeError:
        return found + ["bytes outside UTF-8"]
    if any(ord(c) in HIDDEN for c in decoded):
        found.append("a raw invisible control character")
    return found
