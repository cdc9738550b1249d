"""check-no-tokens.py: a bearer or identity token in any file the run wrote fails it, never printed whole; a file
older than the run, or one with no token, passes."""
import base64
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

CHECK = Path(__file__).resolve().parents[1] / "check-no-tokens.py"


def b64(obj):
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).rstrip(b"=").decode()


TOKEN = b64({"alg": "RS256", "typ": "JWT"}) + "." + b64({"sub": "alice", "office": "1"}) + ".c2lnbmF0dXJl"


def check(d, since):
    p = subprocess.run([sys.executable, CHECK, "--since", str(since), d], capture_output=True, text=True)
    return p.returncode, p.stdout


class CheckNoTokens(unittest.TestCase):
    def test_a_token_the_run_wrote_fails_and_is_not_printed(self):
        with tempfile.TemporaryDirectory() as d:
            since = time.time() - 1
            for name, text in [("report.md", f"IDENTITY={TOKEN}\n"), ("a/meta.json", json.dumps({"env": f"Bearer {TOKEN}"})),
                               ("logs/runner.log", f"line one\nAuthorization: Bearer {TOKEN}\n")]:
                (Path(d) / name).parent.mkdir(parents=True, exist_ok=True)
                (Path(d) / name).write_text(text)
                code, out = check(d, since)
                self.assertEqual(code, 1, f"{name} passed:\n{out}")
                self.assertIn(name, out)
                self.assertNotIn(TOKEN, out)
                (Path(d) / name).unlink()

    def test_clean_files_and_files_older_than_the_run_pass(self):
        with tempfile.TemporaryDirectory() as d:
            (Path(d) / "old.json").write_text(TOKEN)
            past = time.time() - 3600
            os.utime(Path(d) / "old.json", (past, past))
            (Path(d) / "summary.json").write_text(json.dumps({"token": "[redacted]", "eyJ": "not a token"}))
            code, out = check(d, time.time() - 60)
            self.assertEqual(code, 0, out)
            self.assertIn("no token in the 1 files", out)


if __name__ == "__main__":
    unittest.main()
