"""Chart tests of the Grafana dashboards: render with `helm template` and assert on the ConfigMaps (test_chart.py's helpers).

    HELM=/path/to/helm python -m pytest charts/tests/test_dashboards.py [-k name]

Whether each query is answered by a real Prometheus is scripts/test/check-dashboards.sh's job; this file checks what a
rendering can tell: labels, JSON, variables, the testid annotation, and that no service's dashboard asks another
service's metrics.
"""
import json
import re
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_chart import CHART, ROOT, RenderError, one, render  # noqa: E402

MONITORING = (str(CHART / "ci" / "monitoring-values.yaml"),)
ROUTE_ON = "services.route.enabled=true"
# a service that exists as a values block only, with no dashboard file of its own
DEMO = '--set-json services.demo={"enabled":true,"port":8090,"image":{"repository":"perflab/demo"},' \
       '"resources":{"limits":{"cpu":"1","memory":"1536Mi"}},"stores":["mysql"]}'
SYSTEM = ["overview", "jvm", "hikaricp"]
VALUES = yaml.safe_load((CHART / "values.yaml").read_text())
# every service of the chart (its values blocks), those off by default too
EVERY = tuple(f"services.{s}.enabled=true" for s in VALUES["services"])
# Grafana's own variables; every other __NAME__ is a chart placeholder that must have been filled
GRAFANA = re.compile(r"\$__(rate_interval|interval|range)\b")

def dashboards(docs):
    """{ConfigMap name: (ConfigMap, dashboard)} of every ConfigMap the Grafana sidecar picks up."""
    out = {}
    for d in docs:
        if d["kind"] == "ConfigMap" and d["metadata"].get("labels", {}).get("grafana_dashboard") == "1":
            (key, text), = d["data"].items()
            assert key.endswith(".json"), key
            out[d["metadata"]["name"]] = (d, json.loads(text))
    return out


def panels(items):
    for p in items:
        yield p
        yield from panels(p.get("panels", []))


def targets(board):
    return [(p["title"], t) for p in panels(board["panels"]) for t in p.get("targets", [])]


def exprs(board):
    return [t["expr"] for _, t in targets(board)]


SELECTOR = re.compile(r"\b([a-zA-Z_:][a-zA-Z0-9_:]*)\{([^}]*)\}")


def selectors(expr):
    return [(name, m) for name, m in SELECTOR.findall(expr) if name not in ("by", "without")]


def variables(board):
    return {v["name"]: v for v in board["templating"]["list"]}


def test_every_dashboard_is_a_labelled_configmap_of_json_with_its_placeholders_filled():
    boards = dashboards(render(ROUTE_ON, *EVERY, values=MONITORING))
    services = list(VALUES["services"])
    want = {f"t-perflab-{s}-dashboard" for s in services} | {f"t-perflab-dashboard-{b}" for b in SYSTEM}
    assert set(boards) == want, sorted(boards)
    uids = set()
    for name, (cm, board) in boards.items():
        assert cm["metadata"]["annotations"]["grafana_folder"] == "perflab", cm["metadata"]
        assert cm["metadata"]["labels"]["app.kubernetes.io/instance"] == "t", cm["metadata"]["labels"]
        text = GRAFANA.sub("", json.dumps(board))
        assert "__" not in text, (name, text[text.index("__") - 80:text.index("__") + 40])
        assert board["uid"] not in uids and board["uid"].startswith("perflab-"), board["uid"]
        uids.add(board["uid"])
        assert "perflab" in board["tags"] and board["title"].startswith("perflab · "), board["title"]
        ids = [p["id"] for p in panels(board["panels"])]
        assert len(ids) == len(set(ids)), (name, "panel ids must be unique")
        cells = [(p["gridPos"]["x"] + i, p["gridPos"]["y"] + j) for p in board["panels"]
                 for i in range(p["gridPos"]["w"]) for j in range(p["gridPos"]["h"])]
        assert len(cells) == len(set(cells)) and all(x < 24 for x, _ in cells), (name, "panels overlap")
        assert targets(board), name
        for title, t in targets(board):
            assert t["datasource"] == {"type": "prometheus", "uid": "${datasource}"}, (name, title)
            assert t["expr"].count("(") == t["expr"].count(")"), (name, title, t["expr"])
        assert [b["uid"] for _, b in boards.values()].count(board["uid"]) == 1


def test_every_dashboard_has_datasource_namespace_and_pod_variables_and_the_load_run_annotation():
    boards = dashboards(render(ROUTE_ON, values=MONITORING))
    for name, (_, board) in boards.items():
        v = variables(board)
        assert v["datasource"]["type"] == "datasource" and v["datasource"]["query"] == "prometheus", name
        want = {"datasource", "namespace"} | ({"service"} if "-dashboard-" in name else set()) \
            | (set() if name.endswith("-overview") else {"pod"})
        assert want <= set(v), (name, sorted(v))
        for var in want - {"datasource"}:
            q = v[var]["query"]["query"]
            assert q.startswith("label_values(") and q.endswith(f", {'perflab_service' if var == 'service' else var})"), (name, q)
            assert v[var]["datasource"]["uid"] == "${datasource}", name
        assert v["namespace"]["current"]["value"] == "lab", (name, v["namespace"].get("current"))
        assert "pod" not in want or v["pod"]["includeAll"] and v["pod"]["allValue"] == ".+", name
        used = " ".join(exprs(board))
        for var in want - {"datasource"}:
            assert f"${var}" in used, (name, f"${var} is never used")
        (ann,) = board["annotations"]["list"]
        # every load runner's run, local or in the cluster, marked by its testid (perflab-loadtest's runners too)
        assert "perflab_load_http_reqs_total" in ann["expr"] and "testid" in ann["expr"] and "{{testid}}" in ann["titleFormat"]
        assert ann["enable"] and ann["datasource"]["uid"] == "${datasource}", name


def owner_families(svc, stores):
    """Metric families only some services export, and whether `svc` may ask for them."""
    return {
        "perflab_": None,  # perflab_<service>_*: checked by name below
        "spring_cloud_gateway_": svc == "gateway",
        "hikaricp_": "mysql" in stores,
        "jdbc_": "mysql" in stores,
        "mongodb_driver_": "mongodb" in stores,
        "lettuce_": "redis" in stores,
        "tomcat_": svc != "gateway",
        "k6_": False,
        "kube_": False,
        "container_": False,
    }


def test_no_service_dashboard_asks_another_services_metrics():
    boards = dashboards(render(ROUTE_ON, DEMO, values=MONITORING))
    checked = 0
    for name, (_, board) in boards.items():
        if "-dashboard-" in name:
            continue
        svc = name.removeprefix("t-perflab-").removesuffix("-dashboard")
        stores = VALUES["services"].get(svc, {}).get("stores", ["mysql"] if svc == "demo" else [])
        families = owner_families(svc, stores)
        for title, t in targets(board):
            sels = selectors(t["expr"])
            assert sels, (name, title, "no metric selector")
            for metric, matchers in sels:
                assert f'job="t-perflab-{svc}"' in matchers, (name, title, metric, matchers)
                assert 'namespace="$namespace"' in matchers and 'pod=~"$pod"' in matchers, (name, title, matchers)
                if metric.startswith("perflab_"):
                    assert metric.startswith(f"perflab_{svc}_"), (name, title, metric)
                for prefix, allowed in families.items():
                    if allowed is False and metric.startswith(prefix) or allowed is not None and not allowed \
                            and metric.startswith(prefix):
                        raise AssertionError((name, title, f"{metric} is not {svc}'s"))
            checked += 1
    assert checked > 100, checked


BOARDS = CHART / "files" / "dashboards"


def laid_out(items):
    """Panels as (title, queries, gridPos)."""
    return [(p["title"], [t["expr"] for t in p.get("targets", [])], p["gridPos"]) for p in items]


def part(path):
    """The panels of a dashboard file or part (files/dashboards/...), as laid_out gives them."""
    return laid_out(json.loads(path.read_text())["panels"])


def test_a_service_without_a_file_of_its_own_gets_the_shared_panels_and_its_stores_panels():
    boards = dashboards(render(DEMO, values=MONITORING))
    _, board = boards["t-perflab-demo-dashboard"]
    shared, mysql = part(BOARDS / "service.json"), part(BOARDS / "parts" / "mysql.json")
    assert [p["title"] for p in board["panels"]] == [t for t, _, _ in shared + mysql]
    assert board["uid"] == "perflab-demo" and board["title"] == "perflab · demo"
    # it only asks what every service exports (HTTP server requests, process and JVM metrics) and its MySQL pool's
    for e in exprs(board):
        for metric, _ in selectors(e):
            assert metric.startswith(("http_server_requests_", "jvm_", "process_", "hikaricp_connections_")), metric


def test_each_service_dashboard_is_the_shared_panels_then_its_own_then_its_stores_each_below_the_one_before():
    """The panels every service shares are written once (service.json), a store's once (parts/<store>.json): a
    service's file holds only its own, laid out from y 0, and the chart stacks the three."""
    boards = dashboards(render(ROUTE_ON, *EVERY, values=MONITORING))
    shared = part(BOARDS / "service.json")
    parts = {p.stem: part(p) for p in (BOARDS / "parts").glob("*.json")}
    titles = {t for t, _, _ in shared} | {t for panels in parts.values() for t, _, _ in panels}
    for name, values in VALUES["services"].items():
        own = part(BOARDS / f"{name}.json") if (BOARDS / f"{name}.json").exists() else []
        assert not titles & {t for t, _, _ in own}, (name, "a shared panel written again", titles & {t for t, _, _ in own})
        want, top = [], 0
        for panels in [shared, own] + [parts[s] for s in values.get("stores", []) if s in parts]:
            want += [(t, q, dict(g, y=g["y"] + top)) for t, q, g in panels]
            top = max([g["y"] + g["h"] for _, _, g in want] or [0])
        _, board = boards[f"t-perflab-{name}-dashboard"]
        got = laid_out(board["panels"])
        assert [(t, g) for t, _, g in got] == [(t, g) for t, _, g in want], name
        for (title, queries, _), (_, stated, _) in zip(got, want):
            # as the chart fills them: the placeholders, and an SLO marker ending a query as ` / <limit>`
            stated = [q.replace("__JOB__", f"t-perflab-{name}").replace("__NAMESPACE__", "lab").replace("__SERVICE__", name)
                      for q in stated]
            assert len(queries) == len(stated), (name, title)
            for q, s in zip(queries, stated):
                head, marker, _ = s.partition(" # __slo:")
                assert q == s if not marker else q.startswith(head + " / "), (name, title, q, s)
        assert [p["id"] for p in board["panels"]] == list(range(1, len(got) + 1)), name


def test_the_hikaricp_dashboard_is_only_about_pools_and_the_jvm_dashboard_reads_cluster_metrics_by_container():
    boards = dashboards(render(values=MONITORING))
    _, hikari = boards["t-perflab-dashboard-hikaricp"]
    assert "hikaricp_connections" in variables(hikari)["service"]["query"]["query"]
    assert {m for e in exprs(hikari) for m, _ in selectors(e)} <= {
        f"hikaricp_connections_{s}" for s in ["active", "idle", "max", "pending", "timeout_total", "acquire_seconds_sum",
                                              "acquire_seconds_count", "acquire_seconds_max", "usage_seconds_sum",
                                              "usage_seconds_count", "usage_seconds_max", "creation_seconds_max"]}
    _, jvm = boards["t-perflab-dashboard-jvm"]
    for e in exprs(jvm):
        for metric, matchers in selectors(e):
            if metric.startswith(("kube_", "container_")):  # kube-state-metrics / cAdvisor: no perflab_service label
                assert 'container=~"$service"' in matchers and 'pod=~"$pod"' in matchers, (metric, matchers)
            else:
                assert 'perflab_service=~"$service"' in matchers, (metric, matchers)
    titles = {p["title"] for p in panels(jvm["panels"])}
    for t in ["G1 Eden Space used", "G1 Survivor Space used", "G1 Old Gen used", "Old gen after GC (the leak check)",
              "GC pauses per second", "GC pause time per second", "Longest GC pause", "Allocation and promotion rate",
              "Threads by state", "CPU: cores used vs container limit", "CFS throttling (share of periods throttled)",
              "Restarts and OOM kills"]:
        assert t in titles, t


# the SLOs the load runner states once (the chart's files/slo links to them): shared.json, then one <service>.json each
SLO = ROOT / "load-tests" / "src" / "main" / "resources" / "slo"


def load_slos():
    """(service, endpoint, percentile, limit in seconds) of every endpoint SLO the load runner states
    (load-tests/src/main/resources/slo/<service>.json) for the services with a dashboard of their own (a service's SLOs
    join the overview with its dashboard file)."""
    out = []
    for f in sorted(SLO.glob("*.json")):
        svc = f.stem
        if svc == "shared" or not (CHART / "files" / "dashboards" / f"{svc}.json").exists():
            continue
        for endpoint, stated in json.loads(f.read_text())["endpoints"].items():
            for q, ms in stated.items():
                if re.fullmatch(r"p\d+", q):
                    out.append((svc, endpoint, int(q[1:]), ms / 1000))
    return out


def test_the_overview_slos_are_the_ones_the_load_runner_states():
    _, overview = dashboards(render(values=MONITORING))["t-perflab-dashboard-overview"]
    by_title = {p["title"]: p for p in panels(overview["panels"])}
    [title] = [t for t in by_title if t.startswith("Latency SLOs used (server-side percentile / ")]
    slo = by_title[title]["targets"]
    # the file names each target's SLO (a PromQL comment the chart turns into the division)
    raw = json.loads((CHART / "files" / "dashboards" / "system" / "overview.json").read_text())
    [written] = [p["targets"] for p in panels(raw["panels"]) if p["title"] == title]
    slos = load_slos()
    assert len(slos) >= 9, slos
    for svc, endpoint, q, limit in slos:
        at = [i for i, t in enumerate(written) if t["expr"].endswith(f" # __slo:{svc}.{endpoint}.p{q}__")]
        assert len(at) == 1, (svc, endpoint, q, "not exactly one overview line")
        t = slo[at[0]]
        assert f'perflab_service="{svc}"' in t["expr"] and t["expr"].startswith(f"histogram_quantile(0.{q},") \
            and t["expr"].endswith(f"/ {limit:g}"), (svc, endpoint, q, limit, t["expr"][-60:])
    assert len(slo) == len(slos), "a latency SLO on the overview that no SLO file of the load runner states"
    failed = json.loads((SLO / "shared.json").read_text())["failed"]
    budget = by_title[f"Error budget left over the time range ({100 - failed * 100:g}% of requests not 5xx)"]["targets"][0]["expr"]
    assert budget.endswith(f"/ {failed:g}") and 'httpStatusCode=~"5.."' in budget, budget


def test_the_scenarios_take_their_slos_from_the_slo_files_and_type_none():
    # every scenario of a service, and the office day, builds its thresholds from the SLO files (Thresholds.of(Slo...));
    # none types a latency or failure limit: a profile's own target is its endpoint's statement for that scenario in
    # the service's slo/<service>.json (`scenarios`). The reliability suite's limits are what a fault may cost (its
    # cases' criteria), not a service's SLO; lib/ is the reader of them
    base = ROOT / "load-tests" / "src" / "main" / "java" / "dev" / "perflab" / "load"
    every = [f for d in [*(p.stem for p in SLO.glob("*.json") if p.stem != "shared"), "office"]
             for f in sorted((base / d).glob("*.java"))]
    scenarios = [f for f in every if "implements Scenario" in f.read_text()]
    assert len(scenarios) >= 10, scenarios
    for f in scenarios:
        assert "Thresholds.of(" in f.read_text() or "Slo." in f.read_text(), (f, "thresholds not from the SLO files")
    for f in every:
        assert not re.search(r'"p\(\d+\)\s*<|"rate\s*[<>]', f.read_text()), (f, "a limit typed in the scenario, not read from an SLO file")


def test_an_slo_file_the_chart_cannot_read_fails_the_rendering_naming_it():
    import shutil
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        chart = Path(tmp) / "perflab"
        shutil.copytree(CHART, chart)  # the slo symlink copied as the files it points at
        (chart / "files" / "slo" / "route.json").write_text('{ endpoints: { points: { p95: 1000 } } }\n')
        try:
            render(chart=chart, values=MONITORING)
        except RenderError as e:
            assert "files/slo/route.json is not JSON" in str(e), e
        else:
            raise AssertionError("a route.json that is no JSON rendered")


def test_no_dashboard_configmaps_when_dashboards_are_off():
    docs = render(values=MONITORING + (str(CHART / "ci" / "default-values.yaml"),))
    off = render("monitoring.dashboards.enabled=false", values=MONITORING)
    assert dashboards(docs) and not dashboards(off)
