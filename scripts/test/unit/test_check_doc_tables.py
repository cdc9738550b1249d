"""check-doc-tables.py: a make target or a service port the docs state wrongly fails it, named."""
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

CHECK = Path(__file__).resolve().parents[1] / "check-doc-tables.py"

MAKEFILE = """.PHONY: help up load
help: ## list the targets
\t@true
up: ## start everything
\t@true
load: ## load through the gateway
\t@true
"""
OPERATIONS = """# Operations

## Make targets

| target | what it does |
|---|---|
| `make up` | starts everything |
| `make help` | lists the targets |
| `make load SCENARIO=<name>` | load |

## Ports

| variable | default |
|---|---|
| `PERFLAB_X` | 1 |
"""
README = """# x

| Service | What it does | Port | Folder |
|---|---|---|---|
| gateway | the entry | 8080 | `gateway/` |
| shortener | short links | 8084 | `services/shortener/` |

more text
"""


def check(**changes):
    files = {"Makefile": MAKEFILE, "docs/operations.md": OPERATIONS, "README.md": README,
             "services/shortener/service.env": "# facts\nport=8084\n",
             "scripts/lib/env.sh": 'export PERFLAB_GATEWAY_PORT="${PERFLAB_GATEWAY_PORT:-8080}"\n'}
    files.update(changes)
    with tempfile.TemporaryDirectory() as d:
        for name, text in files.items():
            (Path(d) / name).parent.mkdir(parents=True, exist_ok=True)
            (Path(d) / name).write_text(text)
        p = subprocess.run([sys.executable, CHECK, d], capture_output=True, text=True)
        return p.returncode, p.stdout


class CheckDocTables(unittest.TestCase):
    def test_tables_that_match_the_code_pass(self):
        code, out = check()
        self.assertEqual(code, 0, out)
        self.assertIn("3 make targets", out)

    def test_a_target_without_a_row_fails_naming_it(self):
        code, out = check(**{"docs/operations.md": OPERATIONS.replace("| `make help` | lists the targets |\n", "")})
        self.assertEqual(code, 1, out)
        self.assertIn("no row for `make help`", out)

    def test_a_row_that_is_no_target_fails_naming_it(self):
        code, out = check(**{"docs/operations.md": OPERATIONS.replace("| `make up` |", "| `make up` | x |\n| `make gone` |")})
        self.assertEqual(code, 1, out)
        self.assertIn("`make gone`, which the Makefile has not", out)
        code, out = check(**{"docs/operations.md": OPERATIONS.replace("| `make up` |", "| `scripts/x.sh` | x |\n| `make up` |")})
        self.assertEqual(code, 1, out)
        self.assertIn("'`scripts/x.sh`' does not name a target", out)

    def test_a_target_missing_from_phony_fails(self):
        code, out = check(Makefile=MAKEFILE.replace(".PHONY: help up load", ".PHONY: help up"))
        self.assertEqual(code, 1, out)
        self.assertIn("target load has a `## help` line but is not in .PHONY", out)

    def test_a_wrong_port_fails_naming_the_service_and_both_ports(self):
        code, out = check(**{"services/shortener/service.env": "port=8090\n"})
        self.assertEqual(code, 1, out)
        self.assertIn("gives shortener port 8084, services/shortener/service.env says 8090", out)
        code, out = check(**{"scripts/lib/env.sh": 'PERFLAB_GATEWAY_PORT="${PERFLAB_GATEWAY_PORT:-9999}"\n'})
        self.assertEqual(code, 1, out)
        self.assertIn("gives gateway port 8080, scripts/lib/env.sh says 9999", out)

    def test_a_service_without_a_row_fails(self):
        code, out = check(**{"services/route/service.env": "port=8083\n"})
        self.assertEqual(code, 1, out)
        self.assertIn("no row for route", out)


if __name__ == "__main__":
    unittest.main()
