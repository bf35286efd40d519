"""The repository stands on its own: every cited rule id is defined in docs, no reference points outside.

Rule ids (docs/rules-reference.md): ``C1``... clarifications and ``R01``... FAQ rulings are defined
in docs/rules-reference.md, ``D1``... decisions in docs/rules-decisions.md. A citation is any such id
in a .py, .md or .ipynb file; a range such as ``R22-R28`` cites every id in it. Not citations: tile
layouts (a tile letter A-T plus quarter turns 0-3, as in ``"A0 B1 / C2 D3"`` or ``["K2", "I2"]``),
single-digit ``R`` (the rulings have two digits) and ``C0`` / ``D0``.
"""

from __future__ import annotations

import functools
import json
import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
REFERENCE = DOCS / "rules-reference.md"
DECISIONS = DOCS / "rules-decisions.md"

SKIP_DIRS = {"build", "dist", "runs", "node_modules", "__pycache__"}
KEEP_DOT_DIRS = {".ci", ".github"}
CITING = (".py", ".md", ".ipynb")
TEXT = CITING + (".toml", ".yaml", ".yml", ".txt", ".cfg", ".ini")

# Two or more tile specs in a row (layout strings and lists), or one quoted tile spec.
TILE_LAYOUT = re.compile(r"""\b[A-T][0-3]\b(?:[\s"'\\,/\[\]]+[A-T][0-3]\b)+|(["'])[A-T][0-3]\1""")
RULE_ID = re.compile(r"\b([CDR])(\d{1,3})\b(?:[ \t]*[-–][ \t]*\1?(\d{1,3})\b)?")
DEFINITION = re.compile(r"^\| *([CDR]\d+) *\|", re.MULTILINE)
# References to the maintainers' notes outside the repository (written so this file does not match).
OUTSIDE = re.compile(r"\b(?:design|style|rulebook|clarifications)\.md\b|\.\./shared\b|/work/share[d]\b")
MD_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


@functools.cache
def repo_files(suffixes: tuple[str, ...]) -> tuple[Path, ...]:
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [
            d
            for d in dirs
            if d not in SKIP_DIRS
            and not d.endswith(".egg-info")
            and (not d.startswith(".") or d in KEEP_DOT_DIRS)
        ]
        found.extend(Path(folder, f) for f in files if f.endswith(suffixes))
    return tuple(sorted(found))


@functools.cache
def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def cited_ids(text: str) -> set[str]:
    """Every rule id cited in ``text`` (ranges expanded, tile layouts left out)."""
    found = set()
    for m in RULE_ID.finditer(TILE_LAYOUT.sub(" ", text)):
        kind, first, last = m.group(1), m.group(2), m.group(3)
        if kind == "R" and len(first) != 2 or kind != "R" and first.startswith("0"):
            continue
        lo = int(first)
        hi = int(last) if last and 0 < int(last) - lo <= 60 else lo
        for n in range(lo, hi + 1):
            found.add(f"R{n:02d}" if kind == "R" else f"{kind}{n}")
    return found


def citations() -> dict[str, set[str]]:
    """Rule id -> repository files (relative) that cite it."""
    where: dict[str, set[str]] = {}
    for path in repo_files(CITING):
        for rule in cited_ids(read(path)):
            where.setdefault(rule, set()).add(str(path.relative_to(ROOT)))
    return where


def definitions(path: Path) -> list[str]:
    return DEFINITION.findall(read(path))


def test_the_extractor_skips_tile_layouts_and_expands_ranges():
    text = 'rules: Payday; C30, R22-R24, D8. Board.from_tiles("A0 B1 / C2 D3"), ["K2", "D1"], "C1"; R2, C0'
    assert cited_ids(text) == {"C30", "R22", "R23", "R24", "D8"}
    assert cited_ids("C18-C20 and R05 (D53)") == {"C18", "C19", "C20", "R05", "D53"}


def test_every_cited_rule_id_is_defined_in_the_docs():
    defined = set(definitions(REFERENCE)) | set(definitions(DECISIONS))
    cited = citations()
    # the scan itself works: it sees ids cited in code, in tests and in docs
    assert {"C31", "R49", "D53"} <= cited.keys()
    assert any(f.startswith("fcm_env/") for f in cited["C31"])
    assert any(f.startswith("tests/") for f in cited["R49"])
    missing = {rule: sorted(files) for rule, files in cited.items() if rule not in defined}
    assert not missing, f"rule ids cited but defined in neither docs page: {missing}"


def test_each_rule_id_is_defined_once_and_in_its_own_page():
    reference, decisions = definitions(REFERENCE), definitions(DECISIONS)
    assert len(reference) == len(set(reference)) and len(decisions) == len(set(decisions))
    assert all(rule[0] in "CR" for rule in reference), "D ids belong in rules-decisions.md"
    assert all(rule[0] == "D" for rule in decisions), "C and R ids belong in rules-reference.md"


def test_the_reference_lists_every_faq_ruling_of_the_shipped_data():
    rulings = json.loads(read(ROOT / "fcm_env" / "data" / "faq_rulings.json"))["rulings"]
    listed = [rule for rule in definitions(REFERENCE) if rule.startswith("R")]
    assert listed == [r["id"] for r in rulings]


def test_no_file_points_outside_the_repository():
    bad = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in repo_files(TEXT)
        for n, line in enumerate(read(path).splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert not bad, "references to notes outside the repository:\n" + "\n".join(bad)


def _anchors(markdown: str) -> set[str]:
    """GitHub heading anchors: lower case, punctuation dropped, spaces to hyphens."""
    headings = re.findall(r"^#{1,6}\s+(.+?)\s*$", markdown, re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in headings}


def _without_code(markdown: str) -> str:
    return re.sub(r"`[^`\n]*`", "", re.sub(r"^```.*?^```", "", markdown, flags=re.MULTILINE | re.DOTALL))


def test_every_relative_markdown_link_resolves():
    pages = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
    assert REFERENCE in pages
    broken = []
    for page in pages:
        for target in MD_LINK.findall(_without_code(read(page))):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                continue
            file_part, _, anchor = target.partition("#")
            dest = (page.parent / file_part).resolve() if file_part else page
            if not dest.exists():
                broken.append(f"{page.relative_to(ROOT)} -> {target}")
            elif anchor and dest.suffix == ".md" and anchor not in _anchors(read(dest)):
                broken.append(f"{page.relative_to(ROOT)} -> {target} (no such heading)")
    assert not broken, "broken links:\n" + "\n".join(broken)
