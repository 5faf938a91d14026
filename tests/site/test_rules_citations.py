"""Every section of docs/rules.md that the code, templates and README cite exists."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES_DOC = ROOT / "docs" / "rules.md"
SKIPPED_DIRS = {".git", ".venv", "node_modules", "staticfiles", "__pycache__"}
SUFFIXES = {".py", ".html", ".js", ".txt", ".md", ".c"}
SECTION = re.compile(r"§(\d+(?:\.\d+)?)(?:\s*[-–]\s*§(\d+(?:\.\d+)?))?")
HEADING = re.compile(r"^#+ §(\d+(?:\.\d+)?)[. ]", re.MULTILINE)
CITATION = re.compile(r"docs/rules\.md §\d")
# Spelt with a character class so that the mechanical citation rewrite leaves it alone.
OLD_CITATION = re.compile(r"\bRULE[S](?:\.md\b| [§{])")


def sources():
    for path in ROOT.rglob("*"):
        if path.suffix in SUFFIXES and path.is_file() and path != RULES_DOC \
                and not SKIPPED_DIRS.intersection(path.relative_to(ROOT).parts):
            yield path


def sections():
    return set(HEADING.findall(RULES_DOC.read_text(encoding="utf-8")))


def cited(text):
    """The sections a text names, ranges such as §2-§5 expanded."""
    for start, end in SECTION.findall(text):
        if end and "." not in start + end:
            yield from (str(n) for n in range(int(start), int(end) + 1))
        else:
            yield from filter(None, (start, end))


def test_the_rules_document_numbers_its_sections_in_order():
    numbers = HEADING.findall(RULES_DOC.read_text(encoding="utf-8"))
    top = [int(n) for n in numbers if "." not in n]
    assert top == list(range(1, len(top) + 1)) and len(set(numbers)) == len(numbers)


def test_every_cited_section_exists():
    known = sections()
    missing = [f"{path.relative_to(ROOT)}: §{number}"
               for path in sources() for number in cited(path.read_text(encoding="utf-8", errors="replace"))
               if number not in known]
    assert missing == []


def test_the_code_cites_the_rules_document_in_the_repository():
    texts = {path: path.read_text(encoding="utf-8", errors="replace") for path in sources()}
    assert sum(len(CITATION.findall(text)) for text in texts.values()) > 50
    assert [str(path.relative_to(ROOT)) for path, text in texts.items() if OLD_CITATION.search(text)] == []


def test_the_check_sees_a_missing_section():
    assert "12" not in sections() and list(cited("docs/rules.md §2-§4, §11.3")) == ["2", "3", "4", "11.3"]
