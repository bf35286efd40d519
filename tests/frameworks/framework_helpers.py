"""Reads the snippets of docs/frameworks.md, so that the tests run exactly what the page shows."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "frameworks.md"


def docs_snippet(name: str) -> str:
    """The code block right after ``<!-- snippet: name -->`` on docs/frameworks.md."""
    found = re.search(rf"<!-- snippet: {re.escape(name)} -->\n```[a-z]*\n(.*?)^```", PAGE.read_text(encoding="utf-8"),
                      re.DOTALL | re.MULTILINE)
    assert found, f"no snippet {name!r} on {PAGE.name}"
    return found.group(1)


def run_snippet(name: str) -> dict:
    """Executes the Python snippet ``name``; its globals come back for a closer look."""
    scope: dict = {"__name__": f"frameworks_{name}"}
    exec(compile(docs_snippet(name), f"docs/frameworks.md:{name}", "exec"), scope)  # noqa: S102 - our own page
    return scope
