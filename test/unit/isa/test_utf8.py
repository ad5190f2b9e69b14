"""The one UTF-8 decoding of a text input (``pipeline_mlir/isa/utf8.py``); each entry point's
own message: test_driver_robustness.py, test_launchfile.py, lit/errors/input-encoding.mlir."""

from __future__ import annotations

import pytest

from pipeline_mlir.isa.utf8 import NotUtf8, line_col, utf8_text


def test_text_is_decoded_and_newlines_translated_when_asked():
    data = "a\r\nb\rcé\n".encode()
    assert utf8_text(data) == "a\r\nb\rcé\n"
    assert utf8_text(data, newlines=True) == "a\nb\ncé\n"


def test_the_first_byte_that_is_not_utf8_is_located():
    with pytest.raises(NotUtf8) as err:
        utf8_text(b"ok\n\xc3\xa9 caf\xe9 \xff\n")
    e = err.value
    assert (e.line, e.col, e.byte) == (2, 7, 0xE9)      # the column counts bytes
    assert str(e) == "byte 0xe9 is not UTF-8 text" and e.at("in.s") == "in.s:2:7"


def test_line_col_counts_from_one():
    assert line_col("ab\ncd", 0) == (1, 1) and line_col("ab\ncd", 4) == (2, 2)
    assert line_col(b"ab\ncd", 3) == (2, 1)
