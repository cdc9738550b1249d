"""scripts/test/licences.py on license-maven-plugin's lines: python3 -m unittest discover -s scripts/test/unit"""
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
LICENCES = ROOT / "scripts" / "test" / "licences.py"

SHIPPABLE = [
    "     (The Apache Software License, Version 2.0) Jackson-core (com.fasterxml.jackson.core:jackson-core:2.21.7 - https://github.com/FasterXML/jackson-core)",
    "     (EPL-2.0) (LGPL-2.1-only) Logback Classic Module (ch.qos.logback:logback-classic:1.5.38 - http://logback.qos.ch/logback-classic)",
    "     (The GNU General Public License, v2 with Universal FOSS Exception, v1.0) MySQL Connector/J (com.mysql:mysql-connector-j:9.5.0 - http://dev.mysql.com/doc/connector-j/en/)",
    "     (Unknown license) oro (oro:oro:2.0.8 - no url defined)",
]


class Licences(unittest.TestCase):
    def run_on(self, *lines):
        with tempfile.TemporaryDirectory() as d:
            f = Path(d, "THIRD-PARTY.txt")
            f.write_text("\nLists of n third-party dependencies.\n" + "\n".join(lines) + "\n")
            p = subprocess.run([sys.executable, LICENCES, f], cwd=ROOT, capture_output=True, text=True)
            return p.returncode, p.stdout

    def test_permissive_weak_copyleft_and_checked_ones_pass(self):
        rc, out = self.run_on(*SHIPPABLE)
        self.assertEqual(rc, 0, out)
        self.assertIn("4 dependencies", out)

    def test_the_agpl_fails_naming_the_artifact(self):
        rc, out = self.run_on(*SHIPPABLE, "     (GNU Affero General Public License v3) some-engine (org.example:engine:1.0 - https://example.org)")
        self.assertEqual(rc, 1)
        self.assertIn("org.example:engine:1.0 is under GNU Affero General Public License v3", out)

    def test_a_licence_not_read_yet_fails(self):
        rc, out = self.run_on("     (Some Vendor Terms) thing (org.example:thing:2.0 - https://example.org)")
        self.assertEqual(rc, 1)
        self.assertIn("not a licence perflab may ship", out)

    def test_no_licence_passes_only_as_checked_for_that_version(self):
        rc, out = self.run_on("     (Unknown license) oro (oro:oro:2.0.9 - no url defined)")
        self.assertEqual(rc, 1)
        self.assertIn("oro:oro:2.0.9 names no licence", out)

    def test_a_refused_package_fails_whatever_its_licence(self):
        rc, out = self.run_on("     (Apache License, Version 2.0) dsl-prometheus (us.abstracta.jmeter:jmeter-java-dsl-prometheus:2.2 - https://abstracta.us)")
        self.assertEqual(rc, 1)
        self.assertIn("on the list not to use", out)

    def test_an_empty_list_is_not_a_pass(self):
        rc, out = self.run_on()
        self.assertEqual(rc, 1)
        self.assertIn("no dependency read", out)


if __name__ == "__main__":
    unittest.main()
