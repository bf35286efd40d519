"""Run ``python -m fcm_apps ...`` as a subprocess from the checkout, and read PNG files."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# A stop that takes longer than this is a hang, not a slow machine: the tests check only that. How fast a
# stop is (the target is 2 s) is measured by benchmarks/bench_stop.py and reported in docs/benchmarks.md.
HANG_S = 60.0


def fcm_env_vars() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def run_fcm(*args: str, stdin: str | None = None, cwd: Path | None = None, timeout: float = 120
            ) -> subprocess.CompletedProcess:
    """``fcm ARGS`` in a fresh interpreter; text output, never raises on a non-zero exit."""
    return subprocess.run(
        [sys.executable, "-m", "fcm_apps", *args], check=False, input=stdin, capture_output=True, text=True,
        cwd=cwd or ROOT, env=fcm_env_vars(), timeout=timeout,
    )


def png_chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """(tag, payload) of every chunk; checks the signature and each chunk's CRC."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature"
    chunks, pos = [], 8
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        tag = data[pos + 4:pos + 8]
        payload = data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert crc == zlib.crc32(tag + payload) & 0xFFFFFFFF, f"bad CRC in chunk {tag!r}"
        chunks.append((tag, payload))
        pos += 12 + length
    return chunks


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) from the IHDR chunk, after checking the pixel data has that size."""
    chunks = png_chunks(data)
    assert chunks[0][0] == b"IHDR" and chunks[-1][0] == b"IEND"
    width, height, depth, color, _, _, _ = struct.unpack(">IIBBBBB", chunks[0][1])
    assert (depth, color) == (8, 2), "expected 8-bit RGB"
    raw = zlib.decompress(b"".join(p for t, p in chunks if t == b"IDAT"))
    assert len(raw) == height * (1 + 3 * width)
    return width, height
