"""The docs beside the code: a short front door, links that lead somewhere,
and the project's copies of the shared rules and card format kept equal to
their source (issue 23, part 4)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest


def _repository() -> Path:
    """The checkout's top folder: the nearest one above this file holding
    pyproject.toml (so the test keeps working wherever tests/ puts it)."""
    for folder in Path(__file__).resolve().parents:
        if (folder / "pyproject.toml").is_file():
            return folder
    raise AssertionError("no pyproject.toml above tests/: not run from a checkout")


ROOT = _repository()
DOCS = ROOT / "docs"
README = ROOT / "README.md"
# CI keeps a read-only copy of the shared texts beside the clone; the
# project's own copies in docs/ must say exactly what those say.
SHARED = ROOT.parent / "shared"
COPIES = ("rules.md", "card-format.md")
README_MOST_LINES = 250

# [text](target) and ![alt](target); the target stops at a space (a title) or ")".
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
INLINE_CODE = re.compile(r"`[^`\n]*`")


def _pages() -> list[Path]:
    return [README, *sorted(DOCS.glob("*.md"))]


def _relative_links(page: Path) -> list[str]:
    """Every link of a page that points into the repository (not a web
    address, a mail address or an anchor on the same page); code is not prose."""
    text = INLINE_CODE.sub("", FENCE.sub("", page.read_text(encoding="utf-8")))
    targets = [m.group(1) for m in LINK.finditer(text)]
    return [t for t in targets if not re.match(r"^[a-z][a-z0-9+.-]*:", t, re.IGNORECASE) and not t.startswith("#")]


def test_readme_is_a_front_door_under_250_lines() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines < README_MOST_LINES, f"README.md has {lines} lines; move detail into docs/"


@pytest.mark.parametrize("page", _pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves_to_a_file(page: Path) -> None:
    broken = []
    for target in _relative_links(page):
        path = target.split("#", 1)[0].split("?", 1)[0]
        if path and not (page.parent / path).exists():
            broken.append(target)
    assert not broken, f"{page.relative_to(ROOT)} links to missing files: {broken}"


def test_the_link_finder_sees_links_and_skips_code(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "See [the rules](docs/rules.md#calls), ![a drill](docs/images/drill.png \"title\"),\n"
        "[the site](https://example.org), [above](#top), `[not](a-link.md)`.\n"
        "```\n[nor](this.md)\n```\n",
        encoding="utf-8",
    )
    assert _relative_links(page) == ["docs/rules.md#calls", "docs/images/drill.png"]


def test_every_docs_page_is_reachable_from_the_readme() -> None:
    """A page nobody links to is a page nobody reads: each docs/*.md is
    linked from the README or from a page the README links to."""
    seen: set[Path] = set()
    waiting = [README.resolve()]
    while waiting:
        page = waiting.pop()
        if page in seen or page.suffix != ".md" or not page.is_file():
            continue
        seen.add(page)
        for target in _relative_links(page):
            waiting.append((page.parent / target.split("#", 1)[0]).resolve())
    unreached = [p.name for p in sorted(DOCS.glob("*.md")) if p.resolve() not in seen]
    assert not unreached, f"docs pages no link leads to: {unreached}"


@pytest.mark.parametrize("name", COPIES)
def test_docs_copy_equals_the_shared_text(name: str) -> None:
    if not SHARED.is_dir():
        pytest.skip(f"no shared/ folder beside the repository ({SHARED}): nothing to compare docs/{name} with")
    source = SHARED / name
    assert source.is_file(), f"{source} is missing from shared/"
    assert (DOCS / name).read_bytes() == source.read_bytes(), (
        f"docs/{name} differs from {source}: copy it again (cp {source} docs/{name})"
    )
