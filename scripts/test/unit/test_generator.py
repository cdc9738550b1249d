"""The verdict rules of scripts/lib/generator.py on recorded samples and summaries: python3 -m unittest discover scripts/test/unit"""
import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

GENERATOR = Path(__file__).resolve().parents[2] / "lib" / "generator.py"


def summary(dropped=0, budget=(("main", 20, 100, 300),), reqs=1100, iterations=100):
    metrics = {"http_reqs": {"values": {"count": reqs}}, "iterations": {"values": {"count": iterations}},
               "vus_max": {"values": {"max": 40}}}
    if dropped:
        metrics["dropped_iterations"] = {"values": {"count": dropped}}
    vu_budget = [{"scenario": n, "peakRate": r, "maxVUs": m, "sloMs": s} for n, r, m, s in budget]
    return {"metrics": metrics, "perflab": {"vuBudget": vu_budget}}


class Verdict(unittest.TestCase):
    def verdict(self, runner_exit=0, cpu_per_s=0.1, cpus=2, **kw):
        with tempfile.TemporaryDirectory() as d:
            samples, s = Path(d, "samples"), Path(d, "summary.json")
            samples.write_text("".join(f"{t}.0 {t * cpu_per_s:.2f} 0.0\n" for t in range(21)))
            s.write_text(json.dumps(summary(**kw)))
            p = subprocess.run([sys.executable, GENERATOR, "verdict", "--samples", samples, "--summary", s,
                                "--exit", str(runner_exit), "--cpus", str(cpus), "--where", "a test"],
                               capture_output=True, text=True)
            return p.returncode, p.stdout

    def test_a_healthy_run_is_the_runs_own_verdict(self):
        self.assertEqual(self.verdict()[0], 0)
        self.assertEqual(self.verdict(runner_exit=99)[0], 99)

    def test_a_saturated_generator_is_inconclusive_whatever_the_runner_said(self):
        for runner_exit in (0, 99):
            code, out = self.verdict(runner_exit=runner_exit, cpu_per_s=1.7)
            self.assertEqual(code, 75, out)
            self.assertIn("used 85% of its CPU", out)

    def test_drops_with_a_healthy_generator_and_a_sized_budget_fail_the_system(self):
        code, out = self.verdict(dropped=7)
        self.assertEqual(code, 99, out)
        self.assertIn("7 iterations dropped with a healthy generator", out)

    def test_drops_with_a_vu_budget_below_the_slo_are_inconclusive(self):
        # 20/s x 11 requests x 0.3 s = 66 VUs needed, 40 given
        code, out = self.verdict(dropped=7, budget=(("main", 20, 40, 300),))
        self.assertEqual(code, 75, out)
        self.assertIn("maxVUs 40 < 66 needed", out)

    def test_drops_without_a_stated_budget_are_inconclusive(self):
        code, out = self.verdict(dropped=7, budget=())
        self.assertEqual(code, 75, out)

    def test_an_unfinished_run_keeps_the_runners_exit_status(self):
        code, out = self.verdict(runner_exit=107)
        self.assertEqual(code, 107, out)
        self.assertIn("verdict: none", out)


def fortio_result(sent, qps=1000, duration="5s", threads=100, codes=None):
    """What `fortio load -json` writes, the fields the verdict reads."""
    return {"RequestedQPS": str(qps), "RequestedDuration": duration, "NumThreads": threads, "Exactly": 0,
            "ActualQPS": sent / 5.1, "Version": "1.68.2", "DurationHistogram": {"Count": sent},
            "RetCodes": codes if codes is not None else {"302": sent}}


class FortioVerdict(unittest.TestCase):
    def verdict(self, cpu_per_s=0.1, cpus=2, **kw):
        with tempfile.TemporaryDirectory() as d:
            samples, r, g = Path(d, "samples"), Path(d, "result.json"), Path(d, "verdict.json")
            samples.write_text("".join(f"{t}.0 {t * cpu_per_s:.2f} 0.0\n" for t in range(21)))
            r.write_text(json.dumps(fortio_result(**kw)))
            p = subprocess.run([sys.executable, GENERATOR, "verdict", "--samples", samples, "--fortio", r,
                                "--cpus", str(cpus), "--where", "a test", "--json", g], capture_output=True, text=True)
            return p.returncode, p.stdout, json.loads(g.read_text()) if g.exists() else None

    def test_a_kept_rate_passes_though_fortios_actual_qps_counts_the_tail(self):
        # ActualQPS 980 (5,000 over 5.1 s) is below 0.98 x 1,000: the schedule, not fortio's elapsed time, is the measure
        code, out, g = self.verdict(sent=5000)
        self.assertEqual(code, 0, out)
        self.assertEqual((g["scheduled"], g["droppedIterations"]), (5000, 0))

    def test_a_generator_that_fell_behind_is_inconclusive(self):
        code, out, g = self.verdict(sent=4850)
        self.assertEqual(code, 75, out)
        self.assertIn("fell behind: 97.0% of its scheduled requests sent (below 98%), 150 not sent", out)
        self.assertEqual(g["droppedIterations"], 150)

    def test_a_few_slots_missed_within_the_tolerance_still_pass_and_are_counted(self):
        code, out, g = self.verdict(sent=4950)
        self.assertEqual(code, 0, out)
        self.assertEqual(g["droppedIterations"], 50)

    def test_a_saturated_generator_is_inconclusive_even_when_it_kept_the_rate(self):
        code, out, _ = self.verdict(sent=5000, cpu_per_s=1.7)
        self.assertEqual(code, 75, out)
        self.assertIn("used 85% of its CPU", out)

    def test_answers_outside_2xx_3xx_and_socket_errors_fail(self):
        code, out, _ = self.verdict(sent=5000, codes={"302": 4990, "503": 7, "-1": 3})
        self.assertEqual(code, 99, out)
        self.assertIn("10 answer(s) outside 2xx/3xx", out)

    def test_the_schedule_is_fortios_split_over_its_connections(self):
        # int(333 x 1.5) = 499 requests over 7 connections: 71 each, 497 scheduled
        code, out, g = self.verdict(sent=497, qps=333, duration="1.5s", threads=7)
        self.assertEqual((code, g["scheduled"]), (0, 497), out)
        code, out, g = self.verdict(sent=60000, qps=1000, duration="1m0s", threads=100)
        self.assertEqual((code, g["scheduled"]), (0, 60000), out)


if __name__ == "__main__":
    unittest.main()
