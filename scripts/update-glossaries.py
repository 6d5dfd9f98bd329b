#!/usr/bin/env python3
"""Writes the game's words of each language's glossary (docs/glossary/<language>.md) from its
catalog: every entry of bot/i18n/po/<language>.po with a context (a seat, a piece, a spell, how a
game ends...) is a word the replies put into their sentences, so the glossary lists exactly what
players read. The hand-written part of a glossary (its title, introduction and "Terms") is kept;
everything from the first section below it is written anew.

    scripts/update-glossaries.py           rewrite the glossaries
    scripts/update-glossaries.py --check   exit 1 and name each glossary that is out of date
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PO = ROOT / "bot/i18n/po"
DOCS = ROOT / "docs/glossary"

# The contexts in the order a glossary shows them, each with its heading.
SECTIONS = [
    ("seat", "The seats"),
    ("side", "The sides"),
    ("variant", "The games"),
    ("piece", "The pieces"),
    ("pieces", "Pieces, counted"),
    ("special", "Ghost Chess's special moves"),
    ("nexus", "Ghost Chess's nexuses"),
    ("spell", "Gnostic Chess's spells"),
    ("track", "Gnostic Chess's track"),
    ("decision", "What a player must do"),
    ("reason", "How a game ends"),
]
NAMES = {"de": "German", "fr": "French", "es": "Spanish", "ru": "Russian",
         "pt_BR": "Brazilian Portuguese", "zh_CN": "Simplified Chinese"}


def unescape(s):
    return re.sub(r'\\(.)', lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), s)


def words(language):
    """{context: [(english, translation)]} of the catalog's entries with a context."""
    out = {}
    for block in (PO / f"{language}.po").read_text(encoding="utf-8").split("\n\n"):
        lines = block.split("\n")
        if any(line.startswith("#~") or (line.startswith("#,") and "fuzzy" in line)
               for line in lines):
            continue  # an obsolete entry, or one whose translation is a guess
        fields = {}
        for key in ("msgctxt", "msgid", "msgstr"):
            for line in lines:
                if line.startswith(key + ' "'):
                    fields[key] = unescape(line[len(key) + 2:-1])
        if "msgctxt" in fields and fields.get("msgstr"):
            out.setdefault(fields["msgctxt"], []).append((fields["msgid"], fields["msgstr"]))
    return out


def cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


def glossary(language, kept):
    by_context = words(language)
    name = NAMES.get(language, language)
    text = kept.rstrip("\n") + "\n"
    for context, heading in SECTIONS:
        rows = sorted(by_context.get(context, []), key=lambda r: r[0].lower())
        if not rows:
            continue
        text += f"\n## {heading}\n\n| English | {name} |\n|---|---|\n"
        text += "".join(f"| {cell(e)} | {cell(t)} |\n" for e, t in rows)
    return text


def main():
    check = "--check" in sys.argv[1:]
    stale = []
    for po in sorted(PO.glob("*.po")):
        language = po.stem
        path = DOCS / f"{language}.md"
        current = path.read_text(encoding="utf-8") if path.exists() else f"# {language}\n"
        first = re.search(r"^## (?!Terms$)", current, re.M)
        kept = current[: first.start()] if first else current
        fresh = glossary(language, kept)
        if fresh != current:
            stale.append(str(path.relative_to(ROOT)))
            if not check:
                path.write_text(fresh, encoding="utf-8")
    if check and stale:
        print("out of date (run scripts/update-glossaries.py): " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
