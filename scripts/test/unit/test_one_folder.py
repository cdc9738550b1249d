"""A service is one folder: adding one in a copy of the repository shows every list that names services picks it up.

    python3 -m unittest scripts/test/unit/test_one_folder.py      (from the repository root; helm from scripts/k8s/k8s-tools.sh)

The copy gets a throwaway service `zzprobe` the way a new service is made: `make new-service` (scripts/stack/new-service.py
from scaffold/service), which writes its folder (service.env, pom.xml, README, its code), its gateway route file, its
dashboard's own panels (charts/perflab/files/dashboards/<name>.json), its values block in charts/perflab/values.yaml,
its module line in the root pom and its README row; a smoke line is added to its service.env as a service's own
scenarios would. Then each list is derived for real, by the code that uses it: scripts/lib/env.sh, stack.sh, load.sh
(its smokes, with a stand-in load runner that records what it was asked to run), jwt.sh, reliability.sh, the services
workflow's matrix step, the chart (helm template) and the chart tests' loops. A list typed by hand anywhere on those
paths leaves zzprobe out and fails here; a line naming three services in the files that hold such lists fails the
last test, for the lists no run here reaches (check-dashboards.sh needs Prometheus, images.sh builds images).
scripts/test/new-service.sh (make test) builds, starts and calls such a service for real.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
NEW = "zzprobe"
PORT = 8099


def sh(script, cwd, env, *args):
    """Runs bash SCRIPT in CWD; its output, or the test fails with what it said."""
    p = subprocess.run(["bash", "-c", script, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        raise AssertionError(f"`{script}` exited {p.returncode}:\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
    return p.stdout


def helm():
    """$HELM, else the pinned helm of scripts/k8s/k8s-tools.sh."""
    path = os.environ.get("HELM") or sh('source scripts/lib/env.sh >/dev/null && source scripts/k8s/k8s-tools.sh >/dev/null && '
                                        'echo "$HELM"', ROOT, os.environ).strip().splitlines()[-1]
    if not os.access(path, os.X_OK):
        raise AssertionError(f"no helm at {path}: build the pinned tools first (scripts/k8s/k8s-tools.sh)")
    return path


class ANewServiceFolder(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="perflab-one-folder-"))
        cls.repo = cls.tmp / "repo"
        files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.split("\0")
        for f in filter(None, files):
            src, dst = ROOT / f, cls.repo / f
            if not src.is_symlink() and not src.exists():
                continue  # deleted in the working tree
            dst.parent.mkdir(parents=True, exist_ok=True)
            if src.is_symlink():
                os.symlink(os.readlink(src), dst)
            else:
                shutil.copy2(src, dst)
        cls.add_service(cls.repo)
        # the scripts' settings from the copy alone: none inherited from a shell that sourced the real env.sh
        cls.env = {k: v for k, v in os.environ.items() if not k.startswith(("PERFLAB_", "GREENMAIL_", "FORTIO_"))}
        cls.env.update(PERFLAB_RUN=str(cls.tmp / "run"), PERFLAB_CACHE=str(cls.tmp / "cache"),
                       PERFLAB_PROMETHEUS_PORT="9")  # no Prometheus: no run writes anywhere

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    @staticmethod
    def add_service(repo):
        p = subprocess.run([sys.executable, "scripts/stack/new-service.py", NEW, "--port", str(PORT), "--root", str(repo)],
                           cwd=repo, capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            raise AssertionError(f"make new-service failed:\n{p.stdout}\n{p.stderr}")
        env = repo / "services" / NEW / "service.env"
        env.write_text(env.read_text().replace('smoke=""', f'smoke="{NEW}-smoke alice"'))

    def test_env_sh_lists_it_with_its_port_databases_and_gateway_address(self):
        out = sh(f'source scripts/lib/env.sh; printf "%s\\n" "${{PERFLAB_SERVICES[@]}}"; '
                 f'echo "port=$PERFLAB_{NEW.upper()}_PORT gateway=$PERFLAB_GATEWAY_SERVICES_{NEW.upper()}"; '
                 f'echo "databases=$(service_conf {NEW} databases)"', self.repo, self.env)
        self.assertIn(NEW, out.splitlines())
        self.assertIn(f"port={PORT} gateway=http://127.0.0.1:{PORT}", out)
        self.assertIn(f"databases=perflab_{NEW} perflab_{NEW}_test", out)

    def test_the_stack_starts_and_scrapes_it(self):
        # stack.sh's apps (what `up` starts, `down` stops and Prometheus scrapes), read once `status` has run
        out = sh('trap \'printf "%s\\n" "${APPS[@]}"\' EXIT; source scripts/stack/stack.sh status', self.repo, self.env,
                 "scripts/stack/stack.sh")
        self.assertIn(f"{NEW}:services/{NEW}:{PORT}", out.splitlines())

    def test_make_load_runs_its_smoke_and_jwt_sh_makes_its_identity_key(self):
        # a stand-in load runner (PERFLAB_LOAD_JAR: a jar of one class) records the scenario it was asked to run
        calls, standin = self.tmp / "runner-calls", self.tmp / "standin"
        standin.mkdir(exist_ok=True)
        (standin / "Main.java").write_text(
            "public class Main { public static void main(String[] a) throws Exception {"
            f" java.nio.file.Files.writeString(java.nio.file.Path.of(\"{calls}\"), String.join(\" \", a) + \"\\n\","
            " java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND); } }\n")
        jdk = Path(sh("scripts/lib/jdk.sh", self.repo, self.env).strip())
        subprocess.run([jdk / "bin" / "javac", "-d", standin / "classes", standin / "Main.java"], check=True)
        subprocess.run([jdk / "bin" / "jar", "--create", "--file", standin / "runner.jar", "--main-class", "Main",
                        "-C", standin / "classes", "."], check=True)
        cache = Path(self.env["PERFLAB_CACHE"])
        version = sh("source scripts/lib/env.sh; echo \"$GREENMAIL_VERSION\"", self.repo, self.env).strip()
        jar = cache / "jars" / f"greenmail-standalone-{version}.jar"   # install.sh's tools, present: nothing is built
        jar.parent.mkdir(parents=True, exist_ok=True)
        jar.touch()
        p = subprocess.run(["scripts/load/load.sh", "smoke"], cwd=self.repo, env=self.env | {"PERFLAB_LOAD_JAR": str(standin / "runner.jar")},
                           capture_output=True, text=True, timeout=120)
        ran = [line.split()[1] for line in calls.read_text().splitlines() if line.startswith("run ")] if calls.exists() else []
        self.assertIn(f"{NEW}-smoke", ran, f"load.sh smoke ran {ran}:\n{p.stderr[-2000:]}")
        self.assertTrue((Path(self.env["PERFLAB_RUN"]) / "jwt" / "identity" / f"{NEW}.key").exists(),
                        "jwt.sh keys made no identity key for the new service")

    def test_make_reliability_kills_and_stops_it(self):
        cases = sh("scripts/test/reliability.sh --list", self.repo, self.env).split()
        self.assertIn(f"kill:{NEW}", cases)
        self.assertIn(f"term:{NEW}", cases)

    def test_the_services_workflow_verifies_its_module(self):
        import yaml
        workflow = yaml.safe_load((self.repo / ".github" / "workflows" / "services.yml").read_text())
        step, = [s for s in workflow["jobs"]["modules"]["steps"] if s.get("id") == "list"]
        output = self.tmp / "github-output"
        subprocess.run([sys.executable, "-c", step["run"]], cwd=self.repo, env=dict(self.env, GITHUB_OUTPUT=str(output)),
                       check=True, capture_output=True)
        self.assertIn(f'"services/{NEW}"', output.read_text())

    def test_the_chart_deploys_exposes_guards_routes_watches_and_alerts_on_it(self):
        chart = self.repo / "charts" / "perflab"
        p = subprocess.run([helm(), "template", "t", str(chart), "--namespace", "lab",
                            "-f", str(chart / "ci" / "default-values.yaml"), "-f", str(chart / "ci" / "monitoring-values.yaml"),
                            "--set", f"services.{NEW}.enabled=true"], capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        docs = {}
        for doc in re.split(r"(?m)^---\s*$", p.stdout):
            kind = re.search(r"(?m)^kind: (\S+)", doc)
            name = re.search(r"(?m)^metadata:\n(?:  .*\n)*?  name: (\S+)", doc)
            if kind and name:
                docs[(kind.group(1), name.group(1))] = doc
        full = f"t-perflab-{NEW}"
        for kind, name in [("Deployment", full), ("Service", full), ("NetworkPolicy", full), ("ServiceMonitor", full),
                           ("ConfigMap", f"{full}-dashboard")]:
            self.assertIn((kind, name), docs, f"no {kind}/{name} rendered")
        board = docs[("ConfigMap", f"{full}-dashboard")]
        self.assertIn(f"perflab-{NEW}.json", board)
        # the shared panels, then its own (files/dashboards/<name>.json), then its MySQL pool's (parts/mysql.json)
        boards = self.repo / "charts" / "perflab" / "files" / "dashboards"
        titles = [json.loads((boards / f).read_text())["panels"][0]["title"]
                  for f in ("service.json", f"{NEW}.json", "parts/mysql.json")]
        at = [board.find(f'"title": {json.dumps(t)}') for t in titles]
        self.assertTrue(-1 < at[0] < at[1] < at[2], f"dashboard panels {titles} at {at}")
        rules, = [d for (k, _), d in docs.items() if k == "PrometheusRule"]
        self.assertRegex(rules, rf"(?m)^\s*- name: perflab\.{NEW}$", "no alert rule group")
        routes = docs[("ConfigMap", "t-perflab-gateway-routes")]
        self.assertRegex(routes, rf"(?m)^  {NEW}\.yaml: ", "the gateway has no routes of it")
        self.assertIn(f"perflab_{NEW}", docs[("ConfigMap", "t-perflab-mysql-initdb")], "no MySQL database of its own")
        self.assertIn(f"/v1/{NEW}/", routes)

    def test_the_chart_suites_and_the_defaults_check_pass_with_it(self):
        # helm-unittest's suites over the copy: a count of Deployments or a test of every service by name fails here
        tools = sh('source scripts/lib/env.sh >/dev/null && source scripts/k8s/k8s-tools.sh >/dev/null && '
                   'echo "$HELM_UNITTEST_PLUGINS $K8S_TOOLS_PYTHON"', ROOT, os.environ).split()
        p = subprocess.run([helm(), "unittest", "--strict", "charts/perflab"], cwd=self.repo, capture_output=True, text=True,
                           env=dict(os.environ, HELM_PLUGINS=tools[-2]), timeout=600)
        self.assertEqual(p.returncode, 0, p.stdout[-3000:] + p.stderr[-1000:])
        p = subprocess.run([tools[-1], "charts/tests/defaults_once.py", "charts/perflab"], cwd=self.repo, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)

    def test_the_chart_tests_loop_over_it(self):
        out = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, 'charts/tests'); import test_chart, test_dashboards; "
                              "print(*test_chart.SERVICES); print(*test_dashboards.EVERY)"],
                             cwd=self.repo, env=self.env, capture_output=True, text=True, check=True).stdout.splitlines()
        self.assertIn(NEW, out[0].split())
        self.assertIn(f"services.{NEW}.enabled=true", out[1].split())


# Where lists of services would be typed: the scripts and the code and tests that run over every service. Named
# exceptions, each a scenario or assertion about particular services rather than a list of all of them.
LISTS_LIVE_IN = ("Makefile", "scripts/", "scaffold/", ".github/workflows/", "load-tests/src/", "e2e/src/",
                 "charts/perflab/templates/", "charts/tests/", "charts/perflab/tests/", "charts/perflab/files/dashboards/", "tools/")
NOT_LISTS = [  # (path, a text of the line, why it is no list of every service to derive here)
    ("scripts/test/test.sh", "scripts/test/reliability.sh mariadb", "the reliability cases make test picks, a subset by choice"),
    ("scripts/test/test.sh", 'log "store outages and crashes', "prose: what those picked cases do"),
    ("scripts/test/test-node.sh", "send's job endpoint answers mail, refuses route", "prose: a step's name"),
    ("scripts/test/cluster-check.sh", "send's job endpoint answers mail, refuses route", "prose: a step's name"),
    ("charts/tests/test_chart.py", 'want["mail"] >= by_alert["outbox"]', "an assertion about particular services' alert sets"),
    ("load-tests/src/main/java/dev/perflab/load/office/OfficeDay.java", ".failures(mail, notifier, route, shortener)",
     "the office day: particular services' requests"),
    ("load-tests/src/main/java/dev/perflab/load/reliability/ReliabilityCrash.java", "PROBES = Map.of(",
     "each service's crash requests, written out per service"),
]
COMMENT = re.compile(r"\s*(#|//|/?\*)")


class NoHandWrittenList(unittest.TestCase):
    def test_the_places_a_new_service_is_stated_name_every_service_folder(self):
        # the root pom's <modules> (Maven finds no module by itself) and the README's one row, with the folder's port
        services = {p.parent.name: re.search(r"(?m)^port=(\d+)", p.read_text()).group(1)
                    for p in (ROOT / "services").glob("*/service.env")}
        pom, readme = (ROOT / "pom.xml").read_text(), (ROOT / "README.md").read_text()
        for name, port in services.items():
            self.assertIn(f"<module>services/{name}</module>", pom, f"services/{name} is no module of the root pom")
            self.assertRegex(readme, rf"(?m)^\| {re.escape(name)} \|.*\| {port} \| \[`services/{name}/`\]",
                             f"README.md has no row for services/{name} on port {port}")

    def test_no_line_names_three_services(self):
        services = sorted(p.parent.name for p in (ROOT / "services").glob("*/service.env"))
        self.assertGreaterEqual(len(services), 3)
        word = re.compile(rf"(?<![A-Za-z0-9-])({'|'.join(map(re.escape, services))})(?![A-Za-z0-9-])")
        files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", *LISTS_LIVE_IN],
                               cwd=ROOT, capture_output=True, text=True, check=True).stdout.split("\0")
        services_own = tuple(f"load-tests/src/main/java/dev/perflab/load/{s}/" for s in services)
        found, excused = [], set()
        for f in filter(None, files):
            if f == "scripts/test/unit/test_one_folder.py" or f.startswith(services_own) or not (ROOT / f).is_file():
                continue
            try:
                lines = (ROOT / f).read_text().splitlines()
            except UnicodeDecodeError:
                continue
            for i, line in enumerate(lines, 1):
                if len(set(word.findall(line))) < 3 or COMMENT.match(line):
                    continue
                excuse = [(path, text) for path, text, _ in NOT_LISTS if f == path and text in line]
                if excuse:
                    excused.update(excuse)
                else:
                    found.append(f"{f}:{i}: {line.strip()[:120]}")
        self.assertEqual(found, [], "service lists typed by hand (derive them from services/*/service.env, the "
                                    "values blocks or the root pom):\n" + "\n".join(found))
        stale = [f"{path}: {text}" for path, text, _ in NOT_LISTS if (path, text) not in excused]
        self.assertEqual(stale, [], "exceptions that match no line any more: drop them")


if __name__ == "__main__":
    unittest.main()
