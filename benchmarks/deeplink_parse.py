#!/usr/bin/env python3
"""The peer of `shieldbridge link parse --json`: the same strict validation of
shieldbridge:// links with urllib.parse, one JSON object per stdin line.

Used by benchmarks/suites/deeplink; the output of a valid link is byte for
byte what shieldbridge prints, errors carry the same codes where the checks
line up (offsets and messages are not compared).
"""
import json
import re
import sys
from urllib.parse import parse_qsl, urlsplit

SCHEME = "shieldbridge"
KEY = re.compile(r"[a-z][a-z0-9-]*\Z")
VALUE = re.compile(r"(?:[A-Za-z0-9._~-]|%[0-9A-Fa-f]{2})*\Z")
ROUTE = re.compile(r"[A-Za-z][A-Za-z0-9-]*\Z")
IDENTIFIER = re.compile(r"[A-Za-z0-9._-]{1,64}\Z")
VIEW = re.compile(r"[a-z0-9-]{1,32}\Z")
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
DIGITS = re.compile(r"[0-9]{1,18}\Z")


class LinkError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def resolve(line):
    if len(line.encode("utf-8", "surrogateescape")) > 2048:
        raise LinkError("too-long", "the link is longer than 2048 bytes")
    parts = urlsplit(line)
    if parts.scheme.lower() != SCHEME or not line[: len(SCHEME) + 3].lower() == SCHEME + "://":
        raise LinkError("bad-scheme", "the scheme must be " + SCHEME)
    route = parts.netloc
    if parts.path or parts.fragment or not ROUTE.match(route):
        raise LinkError("unknown-route", "not a route name")
    route = route.lower()
    if route not in ("puzzle", "view"):
        raise LinkError("unknown-route", "not a route")
    values = {}
    ignored = []
    if "?" in line:
        items = parts.query.split("&")
        for item in items:
            key, equals, value = item.partition("=")
            if not equals or not KEY.match(key):
                raise LinkError("malformed-parameter", "not key=value")
            if not VALUE.match(value):
                code = "bad-percent-escape" if "%" in value else "unencoded-character"
                raise LinkError(code, "not a percent-encoded value")
            try:
                ((_, text),) = parse_qsl(item, keep_blank_values=True, strict_parsing=True, errors="strict")
            except UnicodeDecodeError:
                raise LinkError("invalid-utf8", "not UTF-8") from None
            if CONTROL.search(text):
                raise LinkError("control-character", "a control character")
            if key in values or key in ignored:
                raise LinkError("duplicate-parameter", "given twice")
            if key in ("app", "grant", "id") or (route == "view" and key == "view"):
                values[key] = text
            else:
                ignored.append(key)
    app = values.get("app") or None
    identifier = values.get("id", "shield-open")
    if not IDENTIFIER.match(identifier):
        raise LinkError("invalid-value", "id")
    if route == "puzzle":
        grant = values.get("grant", "5")
        if not DIGITS.match(grant) or not 1 <= int(grant) <= 120:
            raise LinkError("invalid-value", "grant")
        fields = [("app", app), ("grant", int(grant)), ("id", identifier)]
    else:
        view = values.get("view", "home")
        if not VIEW.match(view):
            raise LinkError("invalid-value", "view")
        if app is None:
            raise LinkError("missing-parameter", "app")
        fields = [("app", app), ("view", view), ("id", identifier)]
    result = {"ok": True, "action": route, "scheme": SCHEME}
    result.update(fields)
    result["ignored"] = ignored
    return result


def main():
    bad = False
    write = sys.stdout.write
    for line in sys.stdin.buffer:
        line = line.rstrip(b"\n").decode("utf-8", "surrogateescape")
        try:
            answer = resolve(line)
        except LinkError as error:
            bad = True
            answer = {"ok": False, "error": error.code, "offset": 0, "message": str(error)}
        write(json.dumps(answer, ensure_ascii=False, separators=(",", ":")) + "\n")
    sys.stdout.flush()
    return 65 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
