"""prose.py: a sentence over the limit fails it, named by file and line; code blocks and tables are not prose."""
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

PROSE = Path(__file__).resolve().parents[1] / "prose.py"


def run(text, limit=10):
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "a.md"
        f.write_text(text)
        p = subprocess.run([sys.executable, PROSE, "--max-words", str(limit), str(f)], capture_output=True, text=True)
        return p.returncode, p.stdout


class Prose(unittest.TestCase):
    def test_short_sentences_pass_and_code_and_tables_are_not_counted(self):
        long = " ".join(["word"] * 30)
        code, out = run(f"# Title\n\nOne short line. Another `code span here` one.\n\n```\n{long}\n```\n\n| a | {long} |\n|---|---|\n")
        self.assertEqual(code, 0, out)

    def test_a_long_sentence_fails_naming_its_line(self):
        code, out = run("# Title\n\nFine here.\n\n- " + " ".join(["word"] * 11) + ".\n")
        self.assertEqual(code, 1, out)
        self.assertIn("a.md:5: 11 words, over 10", out)

    def test_a_paragraph_is_split_at_each_sentence_end(self):
        code, out = run("Five words in this one. Five words in this one. Another five words right here.\n")
        self.assertEqual(code, 0, out)


if __name__ == "__main__":
    unittest.main()
