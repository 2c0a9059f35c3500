#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""check_text.py KIND FILE...: exit 1, naming the file and offset, unless every FILE is strict
UTF-8 without a control character a terminal would act on. KIND: text (LF and TAB allowed),
csv (also CR), html (LF, TAB, CR), json (as text, and it must parse as JSON)."""
import json
import sys

ALLOWED = {"text": "\n\t", "csv": "\n\t\r", "html": "\n\t\r", "json": "\n\t"}


def check(kind, path):
    data = open(path, "rb").read()
    try:
        text = data.decode("utf-8", "strict")
    except UnicodeDecodeError as e:
        return f"{path}: invalid UTF-8 at byte {e.start}: {data[e.start:e.start + 4]!r}"
    for i, ch in enumerate(text):
        cp = ord(ch)
        if (cp < 0x20 and ch not in ALLOWED[kind]) or 0x7F <= cp <= 0x9F:
            return f"{path}: control character U+{cp:04X} at character {i}"
        if 0x202A <= cp <= 0x202E or 0x2066 <= cp <= 0x2069:
            if kind in ("text",):
                return f"{path}: bidi control U+{cp:04X} at character {i}"
    if kind == "json":
        try:
            json.loads(text)
        except ValueError as e:
            return f"{path}: not JSON: {e}"
    return None


def main():
    kind, paths = sys.argv[1], sys.argv[2:]
    bad = [m for m in (check(kind, p) for p in paths) if m]
    for m in bad:
        print("FAIL:", m)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
