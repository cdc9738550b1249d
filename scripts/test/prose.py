#!/usr/bin/env python3
"""Sentence length of Markdown prose: a report, and a gate on the longest sentence.

  prose.py [--max-words N] FILE...

Reads each file's paragraphs and list items; code blocks, headings and HTML comments are skipped, and table cells are
reference, not prose: they are measured apart (the longest is printed, never gated). Inline code counts as one word,
a link as its text. A sentence ends at `.`, `!` or `?` followed by a space and a capital,
a digit, a backtick or a bracket, or at the end of its paragraph, item or cell. Prints per file the sentences, their
average and longest length in words and the start of the longest. With --max-words, exits 1 when a sentence is
longer, naming the file, its line and the sentence's start.
"""
import argparse
import re
import sys

FENCE = re.compile(r"^\s*(```|~~~)")
CODE = re.compile(r"`[^`]*`")
LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
END = re.compile(r"(?<=[.!?])[*_)]*\s+(?=[A-Z0-9`(\[*_])")


def blocks(text):
    """(first line number, text, is a table cell) of each paragraph, list item and table cell."""
    out, cur, start, inside = [], [], 0, False

    def flush():
        if cur:
            out.append((start, " ".join(cur), False))
            cur.clear()

    for n, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if FENCE.match(line):
            flush()
            inside = not inside
            continue
        if inside or s.startswith("<!--") or s.startswith("#"):
            flush()
            continue
        if not s:
            flush()
            continue
        if s.startswith("|"):
            flush()
            if not re.fullmatch(r"\|[\s:|-]*\|?", s):
                cells = re.split(r"(?<!\\)\|", s.strip("|"))
                out.extend((n, c, True) for c in cells if c.strip())
            continue
        if re.match(r"([-*+]|\d+\.)\s", s):
            flush()
            s = re.sub(r"^([-*+]|\d+\.)\s+", "", s)
        if not cur:
            start = n
        cur.append(s)
    flush()
    return out


def sentences(text, cells=False):
    """(line, words, text) of every sentence of the prose, or of the table cells."""
    result = []
    for n, block, cell in blocks(text):
        if cell != cells:
            continue
        plain = LINK.sub(r"\1", CODE.sub("CODE", block))
        for s in END.split(plain):
            words = s.split()
            if words:
                result.append((n, len(words), s))
    return result


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-words", type=int)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args(argv)
    too_long = []
    print(f"{'file':<24} {'sentences':>9} {'average':>7} {'longest':>7} {'cell':>5}  longest sentence")
    for f in args.files:
        with open(f, encoding="utf-8") as fh:
            text = fh.read()
        found = sentences(text)
        cell = max((w for _, w, _ in sentences(text, cells=True)), default=0)
        if not found:
            print(f"{f:<24} {0:>9} {'-':>7} {'-':>7} {cell:>5}")
            continue
        avg = sum(w for _, w, _ in found) / len(found)
        line, most, start = max(found, key=lambda t: t[1])
        print(f"{f:<24} {len(found):>9} {avg:>7.1f} {most:>7} {cell:>5}  line {line}: {start[:50]}...")
        if args.max_words:
            too_long += [f"{f}:{n}: {w} words, over {args.max_words}: {t[:80]}..."
                         for n, w, t in found if w > args.max_words]
    for line in too_long:
        print(line)
    return 1 if too_long else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
