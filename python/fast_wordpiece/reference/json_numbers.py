"""JSON numbers as Hugging Face ``tokenizers`` (and the engine) read them (spec section 14).

Both parse JSON with Rust's ``serde_json`` without its ``float_roundtrip`` feature: a number with a
fraction or an exponent is read as its digits (as an integer of at most 64 bits; digits past that
are dropped) converted to a double, then multiplied or divided by a power of ten. Two roundings, so
about one number in ten comes out one unit in the last place away from Python's ``float(text)``.
A Unigram model's scores are read this way, so that a file gives the scores (and, on ties, the
segmentations) Hugging Face's model has.
"""

from __future__ import annotations

import math
import struct

_U64 = 2**64 - 1
_I32 = 2**31 - 1
#: serde_json's table of powers of ten: 1e0 to 1e308, each the double nearest to it.
_POW10 = [float(f"1e{i}") for i in range(309)]


def read_float(text: str) -> float:
    """The double ``serde_json`` reads for the JSON number ``text`` (one with a fraction or an
    exponent, as ``json.loads`` hands to ``parse_float``, or an integer too large for 64 bits). A
    number too large for a double, which the engine refuses where it reads one, is an infinity
    here (as Python's ``float`` gives), for the caller's check of finite numbers to refuse."""
    negative = text.startswith("-")
    body = text[1:] if negative else text
    mantissa, _, exponent_text = body.replace("E", "e").partition("e")
    whole, _, fraction = mantissa.partition(".")
    significand, exponent = 0, 0
    for i, digit in enumerate(whole):
        grown = significand * 10 + int(digit)
        if grown > _U64:
            exponent += len(whole) - i  # the rest of the integer part is dropped, but counted
            break
        significand = grown
    for digit in fraction:
        grown = significand * 10 + int(digit)
        if grown > _U64:
            break  # the rest of the fraction is dropped
        significand, exponent = grown, exponent - 1
    if exponent_text:
        sign = -1 if exponent_text.startswith("-") else 1
        value = 0
        for digit in exponent_text.lstrip("+-"):
            value = value * 10 + int(digit)
            if value > _I32:
                result = math.inf if significand != 0 and sign > 0 else 0.0
                return -result if negative else result
        exponent = max(-(2**31), min(_I32, exponent + sign * value))
    result = _from_parts(significand, exponent)
    return -result if negative else result


def read_int(text: str) -> int | float:
    """What ``serde_json`` reads for the JSON integer ``text``: the integer, but ``-0`` is the
    double ``-0.0`` and an integer beyond 64 bits a double read as ``read_float`` reads it."""
    if text == "-0":
        return -0.0
    value = int(text)
    if abs(value) > _U64:
        return read_float(text)
    return value


def _from_parts(significand: int, exponent: int) -> float:
    f = float(significand)
    while True:
        if abs(exponent) < len(_POW10):
            if exponent >= 0:
                f *= _POW10[exponent]
            else:
                f /= _POW10[-exponent]
            return f
        if f == 0.0:
            return f
        if exponent >= 0:
            return math.inf
        f /= 1e308
        exponent += 308


#: How many doubles on each side of a score ``as_read_back`` tries at most.
NEIGHBOURS = 64


def _read_back(x: float) -> float:
    """``x`` written as the shortest number that reads back as it (Python's ``repr``, Rust's
    ``ryu``), read as Hugging Face reads it."""
    return read_float(repr(x))


def as_read_back(x: float) -> float:
    """The score a saved file gives back bit for bit, to us and to Hugging Face, nearest ``x``:
    ``x`` itself if written and read back it stays; else what it reads back as, if that stays;
    else the first double that stays among those 1, 2, ... ``NEIGHBOURS`` places from ``x``
    (below it in bits first); else ``x``."""

    def stays(y: float) -> bool:
        return math.isfinite(y) and _read_back(y) == y

    if not math.isfinite(x) or stays(x):
        return x
    if stays(y := _read_back(x)):
        return y
    bits = struct.unpack("<Q", struct.pack("<d", x))[0]
    for d in range(1, NEIGHBOURS + 1):
        for near in (bits - d, bits + d):
            candidate: float = struct.unpack("<d", struct.pack("<Q", near % 2**64))[0]
            if stays(candidate):
                return candidate
    return x
