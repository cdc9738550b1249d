"""check-no-k6.py: a k6 build, image, operator resource or command anywhere fails it; prose in Markdown does not."""
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

CHECK = Path(__file__).resolve().parents[1] / "check-no-k6.py"


def check(files):
    with tempfile.TemporaryDirectory() as d:
        subprocess.run(["git", "init", "-q", d], check=True)
        for name, text in files.items():
            (Path(d) / name).parent.mkdir(parents=True, exist_ok=True)
            (Path(d) / name).write_text(text)
        p = subprocess.run([sys.executable, CHECK, d], capture_output=True, text=True)
        return p.returncode, p.stdout


class CheckNoK6(unittest.TestCase):
    def test_a_clean_tree_passes_and_markdown_prose_may_name_k6(self):
        code, out = check({"docs/a.md": "k6 went for its licence; the k6-operator's TestRuns too.\n",
                           "scripts/a.sh": "load_runner run shortener-smoke\n"})
        self.assertEqual(code, 0, out)

    def test_each_way_back_fails(self):
        module = "go.k6.io" + "/k6"   # written in two: this file names no refused package itself
        for name, text in [("scripts/install.sh", f'go install "{module}@v1.8.1"\n'),
                           ("charts/x/values.yaml", "image: { repository: grafana/k6, tag: 1.8.1 }\n"),
                           ("charts/x/templates/run.yaml", "apiVersion: k6.io/v1alpha1\nkind: TestRun\n"),
                           ("terraform/main.tf", 'chart = "k6-operator"\n'),
                           ("scripts/load.sh", '"$K6_BIN" run x.js\n'),
                           ("scripts/b.sh", "k6 run --quiet smoke.js\n"),
                           ("docs/a.md", "Run it:\n\n```sh\nk6 run k6-tests/shortener/smoke.js\n```\n")]:
            code, out = check({name: text})
            self.assertEqual(code, 1, f"{name}: {text!r} passed:\n{out}")
            self.assertIn(f"{name}:", out)


if __name__ == "__main__":
    unittest.main()
