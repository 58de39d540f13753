"""JSON numbers as Hugging Face ``tokenizers`` (and the engine) read them (spec section 14).

Both parse JSON with Rust's ``serde_json`` without its ``float_roundtrip`` feature: a number with a
fraction or an exponent is read as its digits (as an integer of at most 64 bits; digits past that
are dropped) converted to a double, then multiplied or divided by a power of ten. Two roundings, so
about one number in ten comes out one unit in the last place away from Python's ``float(text)``.
A Unigram model's scores are read this way, so that a file gives the scores (and, on ties, the
segmentations) Hugging Face's model has.
"""

from __future__ import annotations

_U64 = 2**64 - 1
_I32 = 2**31 - 1
#: serde_json's table of powers of ten: 1e0 to 1e308, each the double nearest to it.
_POW10 = [float(f"1e{i}") for i in range(309)]


def read_float(text: str) -> float:
    """The double ``serde_json`` reads for the JSON number ``text`` (one with a fraction or an
    exponent, as ``json.loads`` hands to ``parse_float``). ValueError when it is out of range."""
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
        digits = exponent_text.lstrip("+-")
        value = 0
        for digit in digits:
            value = value * 10 + int(digit)
            if value > _I32:
                if significand != 0 and sign > 0:
                    raise ValueError("number out of range")
                return -0.0 if negative else 0.0
        exponent = max(-(2**31), min(_I32, exponent + sign * value))
    result = _from_parts(significand, exponent)
    return -result if negative else result


def _from_parts(significand: int, exponent: int) -> float:
    f = float(significand)
    while True:
        if abs(exponent) < len(_POW10):
            if exponent >= 0:
                f *= _POW10[exponent]
                if f == float("inf"):
                    raise ValueError("number out of range")
            else:
                f /= _POW10[-exponent]
            return f
        if f == 0.0:
            return f
        if exponent >= 0:
            raise ValueError("number out of range")
        f /= 1e308
        exponent += 308


#: How many times ``as_read_back`` writes and reads a score at most.
READ_BACK_ROUNDS = 4


def as_read_back(x: float) -> float:
    """``x`` written as the shortest JSON number that reads back as it (Python's ``repr``, Rust's
    ``ryu``) and read as Hugging Face reads it, until that changes nothing (at most
    ``READ_BACK_ROUNDS`` times): a trained score a saved file gives back bit for bit."""
    for _ in range(READ_BACK_ROUNDS):
        y = read_float(repr(x))
        if y == x:
            break
        x = y
    return x
