"""check-figures.py: a goal in docs/figures.md that its source does not hold fails it, named."""
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

CHECK = Path(__file__).resolve().parents[1] / "check-figures.py"

FIGURES = """# Figures

## Headline figures

| what was measured | figure | goal | commit |
|---|---|---|---|
| redirects | p95 8 ms | p95 ≤ 100 ms, p99 ≤ 250 ms (SLO `shortener/redirect`); p95 ≤ 300 ms (SLO `shortener/create`) | `abc1234` |
| readers | p95 466 ms | p95 ≤ 800 ms, p99 ≤ 250 ms (SLO `shortener/redirect` in `shortener/reads`) | `abc1234` |
| edge hit | 0.52 | ≥ 0.8 (bench `gateway edge hit / nginx return 302`) | `abc1234` |
| sends | 99.3/s | 11,000 requests/s (capacity target `shortener`) | `abc1234` |
| a prose goal | 1.36× | ≤ 1.1× (stated in a doc) | `abc1234` |
| no goal | 32:27 | – | `abc1234` |

## Earlier figures

| what | figure | goal |
|---|---|---|
| not read | 1 | p95 ≤ 1 ms (SLO `shortener/redirect`) |
"""
SLO = """{"endpoints": {"create": {"p95": 300},
  "redirect": {"p95": 100, "p99": 250, "scenarios": {"shortener/reads": {"p95": 800}}}}}"""
BENCH = """line "gateway edge hit / nginx return 302:" "$(ratio edge nginx302)" "(goal >= 0.8: $(verdict x 0.8 '>='))"
line "p50 added by the proxy hop:" "$(added proxy direct)" "(goal <= 1 ms: $(verdict x 1 '<='))"
"""
ENV = 'port=8084\ncapacity_target="11000 seed 004: 1,000 iterations/s"\n'


def check(**changes):
    files = {"docs/figures.md": FIGURES, "load-tests/src/main/resources/slo/shortener.json": SLO,
             "scripts/bench/bench-gateway.sh": BENCH, "services/shortener/service.env": ENV}
    files.update(changes)
    with tempfile.TemporaryDirectory() as d:
        for name, text in files.items():
            (Path(d) / name).parent.mkdir(parents=True, exist_ok=True)
            (Path(d) / name).write_text(text)
        p = subprocess.run([sys.executable, CHECK, d], capture_output=True, text=True)
        return p.returncode, p.stdout


def figures(old, new):
    return {"docs/figures.md": FIGURES.replace(old, new, 1)}


class CheckFigures(unittest.TestCase):
    def test_goals_their_sources_hold_pass_and_prose_is_counted(self):
        code, out = check()
        self.assertEqual(code, 0, out)
        self.assertIn("6 rows; 5 goals as", out)
        self.assertIn("1 stated in prose", out)

    def test_a_percentile_other_than_the_slo_fails_naming_both(self):
        code, out = check(**figures("p95 ≤ 100 ms, p99", "p95 ≤ 200 ms, p99"))
        self.assertEqual(code, 1, out)
        self.assertIn("redirects: the goal states p95 ≤ 200 ms; load-tests/src/main/resources/slo/shortener.json "
                      "holds redirect p95 ≤ 100 ms", out)

    def test_a_percentile_left_out_or_added_fails(self):
        code, out = check(**figures("p95 ≤ 100 ms, p99 ≤ 250 ms", "p95 ≤ 100 ms"))
        self.assertEqual(code, 1, out)
        self.assertIn("the goal states no p99", out)
        code, out = check(**figures("p95 ≤ 300 ms (SLO", "p95 ≤ 300 ms, p99 ≤ 900 ms (SLO"))
        self.assertEqual(code, 1, out)
        self.assertIn("holds no p99 for create", out)

    def test_a_scenario_takes_its_own_limit(self):
        code, out = check(**figures("p95 ≤ 800 ms", "p95 ≤ 100 ms"))
        self.assertEqual(code, 1, out)
        self.assertIn("holds redirect in shortener/reads p95 ≤ 800 ms", out)
        code, out = check(**figures("in `shortener/reads`", "in `shortener/gone`"))
        self.assertEqual(code, 1, out)
        self.assertIn("states nothing of redirect in shortener/gone", out)

    def test_an_unknown_service_or_endpoint_fails(self):
        code, out = check(**figures("SLO `shortener/create`", "SLO `shortener/delete`"))
        self.assertEqual(code, 1, out)
        self.assertIn("has no endpoint delete", out)
        code, out = check(**figures("SLO `shortener/create`", "SLO `links/create`"))
        self.assertEqual(code, 1, out)
        self.assertIn("there is no load-tests/src/main/resources/slo/links.json", out)

    def test_a_bench_goal_other_than_the_bench_holds_fails(self):
        code, out = check(**figures("≥ 0.8 (bench", "≥ 0.5 (bench"))
        self.assertEqual(code, 1, out)
        self.assertIn("the goal states ≥ 0.5; scripts/bench/bench-gateway.sh holds "
                      "`gateway edge hit / nginx return 302` ≥ 0.8", out)
        code, out = check(**figures("nginx return 302`)", "nginx`)"))
        self.assertEqual(code, 1, out)
        self.assertIn("holds no goal for `gateway edge hit / nginx`", out)

    def test_a_capacity_target_other_than_service_env_fails(self):
        code, out = check(**figures("11,000 requests/s", "10,000 requests/s"))
        self.assertEqual(code, 1, out)
        self.assertIn("the goal states 10,000; services/shortener/service.env's capacity_target is 11000", out)

    def test_no_table_fails(self):
        code, out = check(**figures("## Headline figures", "## Figures"))
        self.assertEqual(code, 1, out)
        self.assertIn("no table with a goal column", out)


if __name__ == "__main__":
    unittest.main()
