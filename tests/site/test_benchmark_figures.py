"""benchmarks/README.md stays a true reference: every command it gives runs a script or
module of the tree with flags that exist, every constant it names is defined where it
says, every pointer from the code to one of its sections finds that section, and it
tells no history (that is in git)."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ROOT / "benchmarks" / "README.md"
CODE_DIRS = ("config", "games", "lobby", "accounts", "chat", "benchmarks")

COMMAND = re.compile(r"(?:\.venv/bin/python|\bpython3?)\s+(benchmarks/\w+\.py|-m\s+[\w.]+)([^\n`|]*)")
FLAG = re.compile(r"(?<![\w-])(--[a-z][\w-]*)")
# `NAME` in path/to/file.py (a constant, function, class or Class.method)
NAMED = re.compile(r"`([A-Za-z_][\w.]*)` in ((?:[\w-]+/)+[\w-]+\.py)")
POINTER = re.compile(r'benchmarks/README\.md,? "([^"]+)"')
HISTORY = re.compile(r"\bissues?\b|\btrackers?\b|\brounds? of work\b|\breviewer\b|"
                     r"\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|"
                     r"twelfth|thirteenth|this|last|next|previous|that|my)\s+session", re.IGNORECASE)


def figures():
    return FIGURES.read_text(encoding="utf-8")


def headings(text):
    return {line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")}


def sources_of(program):
    """The files that define a command's flags."""
    if program.startswith("benchmarks/"):
        return [ROOT / program]
    module = program.split()[-1]
    path = ROOT.joinpath(*module.split("."))
    files = [path.with_suffix(".py")] if path.with_suffix(".py").is_file() else [path / "__main__.py"]
    if module == "games":
        files.append(ROOT / "games" / "ai" / "tools" / "cli.py")
    return files


def command_problems(text):
    problems = []
    for program, rest in COMMAND.findall(text):
        files = sources_of(program)
        missing = [str(f.relative_to(ROOT)) for f in files if not f.is_file()]
        if missing:
            problems.append(f"{program}: no {', '.join(missing)}")
            continue
        source = "".join(f.read_text(encoding="utf-8") for f in files)
        problems += [f"{program} {flag}" for flag in FLAG.findall(rest.split("#")[0])
                     if f'"{flag}"' not in source]
    return problems


def is_defined(name, source):
    return all(re.search(rf"^\s*(?:(?:async\s+)?def|class)\s+{re.escape(part)}\b|^\s*{re.escape(part)}\s*[:=]",
                         source, re.MULTILINE) for part in name.split("."))


def code_files():
    for folder in CODE_DIRS:
        yield from (ROOT / folder).rglob("*.py")


def test_every_command_runs_a_script_or_module_of_the_tree_with_flags_it_has():
    text = figures()
    assert len(COMMAND.findall(text)) > 20
    assert command_problems(text) == []


def test_the_top_level_readme_gives_benchmark_commands_that_exist():
    assert command_problems((ROOT / "README.md").read_text(encoding="utf-8")) == []


def test_every_named_constant_is_defined_in_the_file_named():
    named = NAMED.findall(figures())
    assert len(named) > 10
    missing = [f"{name} in {path}" for name, path in named
               if not (ROOT / path).is_file() or not is_defined(name, (ROOT / path).read_text(encoding="utf-8"))]
    assert missing == []


def test_every_subject_has_a_table_a_command_and_what_it_justifies():
    sections = re.split(r"^## ", figures(), flags=re.MULTILINE)[1:]
    assert len(sections) >= 6
    lacking = [section.splitlines()[0] for section in sections
               if "\n| " not in section or not COMMAND.search(section) or not NAMED.search(section)]
    assert lacking == []


def test_every_pointer_from_the_code_finds_its_section():
    known = headings(figures())
    pointers = []
    for path in code_files():
        text = re.sub(r"\s*\n\s*(?:#\s*)?", " ", path.read_text(encoding="utf-8"))
        pointers += [(path.relative_to(ROOT), section) for section in POINTER.findall(text)]
    assert len(pointers) >= 4
    assert [f"{path}: {section}" for path, section in pointers if section not in known] == []


def test_the_figures_tell_no_history():
    assert [m.group(0) for m in HISTORY.finditer(figures())] == []


def test_the_checks_see_what_they_look_for():
    assert command_problems("python benchmarks/roundtrip.py --tables 5 --no-such-flag") == [
        "benchmarks/roundtrip.py --no-such-flag"]
    assert command_problems("python -m games.ai.train fit") == ["-m games.ai.train: no games/ai/train/__main__.py"]
    assert not is_defined("NO_SUCH_NAME", "A = 1\n") and is_defined("GameConsumer.receive",
                                                                     "class GameConsumer:\n    async def receive(self):")
    assert POINTER.findall(re.sub(r"\s*\n\s*(?:#\s*)?", " ", 'see benchmarks/README.md,\n# "The late move"')) == [
        "The late move"]
    assert HISTORY.search("as the tenth session found") and HISTORY.search("the issue's target")
