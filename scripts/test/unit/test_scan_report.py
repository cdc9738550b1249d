"""scan-report.py and scan-tf-modules.py: a finding fails unless a skip with its reason names it; a skip without a
reason is refused; registry modules are pointed at local copies of their exact versions, nested ones too."""
import json
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def report(scanner, result, skips):
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "r.json").write_text(json.dumps(result))
        (Path(d) / "skips.txt").write_text(skips)
        p = subprocess.run([sys.executable, HERE / "scan-report.py", scanner, "t", Path(d) / "r.json",
                            Path(d) / "skips.txt"], capture_output=True, text=True)
        return p.returncode, p.stdout


CHECKOV = {"check_type": "kubernetes", "summary": {"passed": 5, "failed": 2, "skipped": 1},
           "results": {"failed_checks": [
               {"check_id": "CKV_K8S_21", "resource": "Deployment.default.a", "check_name": "ns",
                "file_path": "/x.yaml", "file_line_range": [1, 9]},
               {"check_id": "CKV_K8S_43", "resource": "Deployment.default.a", "check_name": "digest",
                "file_path": "/x.yaml", "file_line_range": [1, 9]}]}}
KUBE_SCORE = [{"type_meta": {"kind": "Deployment"}, "object_meta": {"name": "a"}, "file_name": "d.yaml", "checks": [
    {"check": {"id": "ok-check"}, "grade": 10, "skipped": False, "comments": None},
    {"check": {"id": "n-a"}, "grade": 0, "skipped": True, "comments": None},
    {"check": {"id": "low-uid"}, "grade": 1, "skipped": False, "comments": [{"path": "c", "summary": "low"}]}]}]


class ScanReport(unittest.TestCase):
    def test_a_finding_fails_unless_skipped_with_its_reason(self):
        code, out = report("checkov", CHECKOV, "CKV_K8S_21 *  # noise: helm -n\n")
        self.assertEqual(code, 1, out)
        self.assertIn("FINDING CKV_K8S_43 Deployment.default.a", out)
        self.assertIn("checkov t: 5 passed, 1 failed, 2 skipped", out)
        code, out = report("checkov", CHECKOV, "CKV_K8S_21 *  # noise\nCKV_K8S_43 Deployment.*.a  # noise\n")
        self.assertEqual(code, 0, out)

    def test_a_skip_without_its_reason_is_refused(self):
        code, out = report("checkov", CHECKOV, "CKV_K8S_21 *\nCKV_K8S_43 *  #   \n")
        self.assertEqual(code, 2, out)
        self.assertEqual(out.count("want `CHECK RESOURCE  # reason`"), 2, out)

    def test_kube_score_counts_grades_and_not_applicable(self):
        code, out = report("kube-score", KUBE_SCORE, "# none\n")
        self.assertEqual(code, 1, out)
        self.assertIn("FINDING low-uid Deployment/a: CRITICAL c: low", out)
        self.assertIn("kube-score t: 1 passed, 1 failed, 0 skipped, 1 n/a", out)
        code, out = report("kube-score", KUBE_SCORE, "low-uid Deployment/*  # noise: test\n")
        self.assertEqual((code, out.strip().splitlines()[-1]), (0, "kube-score t: 1 passed, 0 failed, 1 skipped, 1 n/a"))


class ScanTfModules(unittest.TestCase):
    def run_it(self, d):
        p = subprocess.run([sys.executable, HERE / "scan-tf-modules.py", d / "tree", d / "cache", d / "modules"],
                           capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr

    def test_registry_modules_and_nested_ones_point_at_local_copies(self):
        with tempfile.TemporaryDirectory() as t:
            d = Path(t)
            (d / "tree/env").mkdir(parents=True)
            (d / "tree/env/main.tf").write_text(
                'module "a" {\n  source  = "ns/a/aws"\n  version = "1.2.3"\n}\nmodule "l" {\n  source = "../x"\n}\n')
            (d / "cache/ns/a/aws/1.2.3/examples").mkdir(parents=True)
            (d / "cache/ns/a/aws/1.2.3/main.tf").write_text('module "b" {\n  source  = "ns/b/aws"\n  version = "4.0.0"\n}\n')
            (d / "cache/ns/a/aws/1.2.3/examples/main.tf").write_text('module "c" {\n  source = "ns/c/aws"\n}\n')
            code, out = self.run_it(d)
            self.assertEqual((code, out), (3, "missing ns/b/aws 4.0.0\n"))
            (d / "cache/ns/b/aws/4.0.0").mkdir(parents=True)
            (d / "cache/ns/b/aws/4.0.0/main.tf").write_text("")
            (d / "tree/env/main.tf").write_text(  # scan.sh copies terraform/ afresh for each try
                'module "a" {\n  source  = "ns/a/aws"\n  version = "1.2.3"\n}\nmodule "l" {\n  source = "../x"\n}\n')
            shutil.rmtree(d / "modules")
            code, out = self.run_it(d)
            self.assertEqual(code, 0, out)
            main = (d / "tree/env/main.tf").read_text()
            self.assertIn('source = "../../modules/ns/a/aws/1.2.3"', main)
            self.assertNotIn("version", main)
            self.assertIn('source = "../x"', main)
            self.assertIn('source = "../../../../../modules/ns/b/aws/4.0.0"',
                          (d / "modules/ns/a/aws/1.2.3/main.tf").read_text())
            self.assertFalse((d / "modules/ns/a/aws/1.2.3/examples").exists())

    def test_a_version_range_is_refused(self):
        with tempfile.TemporaryDirectory() as t:
            d = Path(t)
            (d / "tree").mkdir()
            (d / "tree/main.tf").write_text('module "a" {\n  source  = "ns/a/aws"\n  version = "~> 1.2"\n}\n')
            code, out = self.run_it(d)
            self.assertEqual(code, 2, out)
            self.assertIn("not at an exact version (~> 1.2)", out)


if __name__ == "__main__":
    unittest.main()
