"""The reference side of the JSON scanner's differential test: Python's own json module.

Reads one document per line on standard input, as hex, and writes one line per document:
"<grammar> <value>". <grammar> is the depth of the document's nesting when it is JSON by
the grammar alone (surrogates paired, no NaN) and "bad" when not; <value> is "REJECT" when a remindc reader must refuse it, or the value in
the canonical form that the Swift side writes too (see JSONScannerDifferentialTests).

Python's json is looser than RFC 8259 in three places, and remindc stricter in three;
each is closed here, the same way for every document:
- Python reads NaN and Infinity: refused (parse_constant).
- Python keeps lone surrogates from \\u escapes: refused (the text must encode as UTF-8).
- Python keeps the last of duplicate keys: refused for the value (remindc reports them),
  fine for the grammar.
- remindc nests at most 64 levels: refused beyond (Python's recursion limit is higher).
- remindc's integers are 64-bit and its reals finite: refused beyond, for the value only.
- remindc skips a UTF-8 byte order mark: one is removed before Python reads.
"""
import json
import struct
import sys

MAXIMUM_DEPTH = 64


class Members(list):
    """An object's members in document order."""


def refuse(_text):
    raise ValueError("not JSON")


def integer(text):
    value = int(text)
    if not -(2 ** 63) <= value < 2 ** 63:
        raise ValueError("outside 64 bits")
    return value


def real(text):
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError("not finite")
    return value


def unique(pairs):
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError("duplicate key")
    return Members(pairs)


def depth(value):
    if isinstance(value, Members):
        return 1 + max((depth(member) for _, member in value), default=0)
    if isinstance(value, list):
        return 1 + max((depth(item) for item in value), default=0)
    return 0


def text(value):
    return value.encode("utf-8").hex()


def canonical(value):
    if isinstance(value, Members):
        return "{" + ",".join(text(key) + ":" + canonical(member) for key, member in value) + "}"
    if isinstance(value, list):
        return "[" + ",".join(canonical(item) for item in value) + "]"
    if value is None:
        return "N"
    if value is True:
        return "T"
    if value is False:
        return "F"
    if isinstance(value, int):
        return "i" + str(value)
    if isinstance(value, float):
        return "r" + struct.pack(">d", value).hex()
    return "s" + text(value)


def strings_encode(value):
    """Raises when a string holds a lone surrogate (keys included)."""
    if isinstance(value, Members):
        for key, member in value:
            text(key)
            strings_encode(member)
    elif isinstance(value, list):
        for item in value:
            strings_encode(item)
    elif isinstance(value, str):
        text(value)


def read(document, **hooks):
    if document.startswith(b"\xef\xbb\xbf"):
        document = document[3:]
    value = json.loads(document.decode("utf-8"), parse_constant=refuse, **hooks)
    strings_encode(value)
    return value


def verdicts(document):
    try:
        grammar = str(depth(read(document, object_pairs_hook=Members)))
    except (ValueError, UnicodeError, RecursionError):
        grammar = "bad"
    try:
        value = read(document, parse_int=integer, parse_float=real, object_pairs_hook=unique)
        value = canonical(value) if depth(value) <= MAXIMUM_DEPTH else "REJECT"
    except (ValueError, UnicodeError, RecursionError):
        value = "REJECT"
    return grammar + " " + value


for line in sys.stdin:
    print(verdicts(bytes.fromhex(line.strip())))
