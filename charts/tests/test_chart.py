"""Chart unit tests that helm-unittest cannot hold: render with `helm template --set ...` and assert on the objects.

    HELM=/path/to/helm python -m pytest charts/tests [-k name]      (the venv of scripts/k8s/k8s-tools.sh has pytest)

Assertions on rendered manifests live in helm-unittest suites (charts/<chart>/tests/*_test.yaml, run by
scripts/test/test-chart.sh); each suite's `it` begins with the check's name. What every service gets alike is asserted
there on each service's objects at once (every_service_test.yaml: documentSelector by label, matchMany). What stays
here, and why:

- Each service against its own values block or name (the services read from values.yaml, never typed again, so a
  service added to the chart is covered at once; a suite cannot relate an object to its block): images_default_*
  (the image is named after the service), probes_use_* (its ports), termination_grace_* (grace > preStop + 20),
  a_hook_job_creates_*, network_policy_lets_only_the_services_reach_* and mongodb_gives_each_service_* (the users of
  each store), network_policy_lets_only_the_gateway_* (its port, allowFrom), monitoring_objects_* and
  mysql_services_get_the_db_pool_alerts_* (its rule group), a_dashboard_per_service_* and dashboard_shows_the_db_pool_*
  (JSON inside a ConfigMap), secrets_reach_every_container_* (the generated Secrets' values, searched for in every
  container), each_service_gets_its_own_identity_key_* (signers and whom each trusts), the_gateway_believes_forwarded_headers_*.
- Run the rendered shell (with fake programs on PATH): redis_takes_an_acl_user_per_client_*, the_database_job_reads_*.
- Loop over the loadtest chart's ci values: loadtest_runs_each_test_as_runners_* (the starter names every runner).
- Compare what one rendering derives with another: changing_a_lab_switch_rolls_the_pods,
  a_new_services_routes_reach_the_gateway_* (the config/routes hashes before and after), third_party_images_*
  (each digest-pinned image is the default one plus the digest), seed_job_runs_the_mail_image_* (the seeder's store
  env equals the mail Deployment's).
- Read repository files beside the rendering: exposed_gateway_admits_* and generated_secrets_are_named_* (values.yaml's
  comments), gateway_routes_are_the_repository_files_* (config/gateway/routes), hpa_replaces_replicas_* (ci/hpa-values.yaml
  turns every service on and autoscales it: every_service_test.yaml renders with it).
"""
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
CHART = ROOT / "charts" / "perflab"
LOADTEST = ROOT / "charts" / "perflab-loadtest"
HELM = os.environ.get("HELM", "helm")
KEY = str(CHART / "ci" / "default-values.yaml")


class RenderError(Exception):
    pass


def render(*sets, chart=CHART, values=(KEY,), release="t"):
    cmd = [HELM, "template", release, str(chart), "--namespace", "lab"]
    for v in values:
        cmd += ["-f", v]
    for s in sets:
        flag, _, rest = s.partition(" ")
        cmd += [flag, rest] if flag.startswith("--") else ["--set", s]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RenderError(p.stderr.strip())
    return [d for d in yaml.safe_load_all(p.stdout) if d]


def refuses(*sets, **kw):
    try:
        render(*sets, **kw)
    except RenderError as e:
        return str(e)
    raise AssertionError(f"rendering with {sets} should have failed")


def one(docs, kind, name):
    found = [d for d in docs if d["kind"] == kind and d["metadata"]["name"] == name]
    assert len(found) == 1, f"{kind}/{name}: found {len(found)} of {[(d['kind'], d['metadata']['name']) for d in docs]}"
    return found[0]


def container(docs, svc, kind="Deployment"):
    return one(docs, kind, f"t-perflab-{svc}")["spec"]["template"]["spec"]["containers"][0]


def env(docs, svc, kind="Deployment"):
    return {e["name"]: e.get("value", e.get("valueFrom")) for e in container(docs, svc, kind)["env"]}


# A service's whole values block given on the command line (route's, with its store and lab switch): a service is its block.
ROUTE = '--set-json services.route={"enabled":true,"port":8083,"image":{"repository":"perflab/route"},' \
        '"resources":{"limits":{"cpu":"1","memory":"1536Mi"}},"stores":["mysql"],"hikari":{"maximumPoolSize":12},' \
        '"lab":{"pointsFetch":"interface-projection"}}'

# The services are the keys of values.yaml's `services:` (a service is one values block): the loops below run over these,
# never over a list typed again, so a service added to the chart is covered by every one of them.
SERVICES_VALUES = yaml.safe_load((CHART / "values.yaml").read_text())["services"]
SERVICES = list(SERVICES_VALUES)
ENABLED = [s for s, v in SERVICES_VALUES.items() if v.get("enabled")]  # what render() deploys
EVERY = tuple(f"services.{s}.enabled=true" for s in SERVICES)  # render(*EVERY): those off by default too


def using(store, among=ENABLED):
    """The services among `among` whose values block names `store`."""
    return {s for s in among if store in SERVICES_VALUES[s].get("stores", [])}


# --- images -------------------------------------------------------------------------------------------------------

def test_images_default_to_ghcr_at_the_chart_app_version_and_can_be_pinned_by_digest():
    docs = render(*EVERY)
    app = yaml.safe_load((CHART / "Chart.yaml").read_text())["appVersion"]
    for svc in SERVICES:
        assert container(docs, svc)["image"] == f"ghcr.io/perflab/{svc}:{app}", container(docs, svc)["image"]
    digest = "sha256:" + "0123456789abcdef" * 4
    assert container(render(f"services.gateway.image.digest={digest}"), "gateway")["image"] == f"ghcr.io/perflab/gateway@{digest}"
    both = render(f"services.gateway.image.digest={digest}", "services.gateway.image.tag=1.2.3", "image.registry=registry.local:5000/")
    assert container(both, "gateway")["image"] == f"registry.local:5000/perflab/gateway:1.2.3@{digest}"
    assert container(render("image.registry="), "mail")["image"] == f"perflab/mail:{app}"
    for bad in ["sha256:abc", "md5:" + "0" * 64, "sha256:" + "A" * 64, "0" * 64]:
        assert "/services/gateway/image/digest" in refuses(f"services.gateway.image.digest={bad}"), bad


# --- env: lab switches, stores, hikari, gateway routes -------------------------------------------------------------

def test_changing_a_lab_switch_rolls_the_pods():
    a = one(render(), "Deployment", "t-perflab-shortener")["spec"]["template"]["metadata"]["annotations"]
    b = one(render("services.shortener.lab.idStrategy=mongo-sequence"), "Deployment", "t-perflab-shortener")
    assert a["perflab.dev/config-hash"] != b["spec"]["template"]["metadata"]["annotations"]["perflab.dev/config-hash"]


# --- mail and send (seed 000) ----------------------------------------------------------------------------------------

def test_a_hook_job_creates_every_mysql_database_user_and_grant_idempotently():
    docs = render(ROUTE)
    job = one(docs, "Job", "t-perflab-mysql-databases")
    ann = job["metadata"]["annotations"]
    assert ann["helm.sh/hook"] == "post-install,post-upgrade", ann  # chart-managed MySQL cannot be reached earlier
    assert ann["helm.sh/hook-delete-policy"] == "before-hook-creation,hook-succeeded"
    pod = job["spec"]["template"]["spec"]
    c = pod["containers"][0]
    assert c["image"] == container(docs, "mysql", "StatefulSet")["image"] == "mysql:8.4.11"
    assert job["spec"]["backoffLimit"] == 6 and pod["securityContext"]["runAsNonRoot"] is True
    assert c["securityContext"]["readOnlyRootFilesystem"] is True and c["securityContext"]["capabilities"] == {"drop": ["ALL"]}
    script = c["args"][0]
    assert script.index("mysqladmin ping") < script.index("users_sql | mysql")
    # one user per MySQL service, named after its database, granted that database alone (its `_` escaped: a
    # grant's `_` matches any character); ALTER USER sets the password again on every run (a rotated Secret)
    grants = [line for line in script.splitlines() if line.startswith("GRANT ")]
    assert len(grants) == len(using("mysql")), grants
    for svc in using("mysql"):
        db = "perflab_" + svc.replace("-", "_")
        assert f"CREATE DATABASE IF NOT EXISTS \\`{db}\\`;" in script, script
        assert f"CREATE USER IF NOT EXISTS '{db}'@'%' IDENTIFIED BY '$pw';" in script
        assert f"ALTER USER '{db}'@'%' IDENTIFIED BY '$pw';" in script
        assert f"cat /etc/perflab/mysql/{svc}-password" in script
        escaped = db.replace("_", "\\_")
        assert f"GRANT ALL PRIVILEGES ON \\`{escaped}\\`.* TO '{db}'@'%';" in grants, (svc, grants)
    assert "perflab_shortener" not in script and "*.*" not in script
    e = {x["name"]: x.get("value", x.get("valueFrom")) for x in c["env"]}
    assert e["MYSQL_HOST"] == "t-perflab-mysql" and e["ADMIN_USER"] == "root"  # the passwords are files
    # the first-start script stays for the first install (helm install --wait waits for the services before hooks),
    # with the Job's SQL; the Secret it reads is a hook before the Job, so a new service's password is there first
    initdb = one(docs, "ConfigMap", "t-perflab-mysql-initdb")["data"]["10-databases.sh"]
    assert initdb.split("lit() ")[1].split("}\n", 1)[1].split("users_sql |")[0].replace("/etc/perflab/store/", "/etc/perflab/mysql/") \
        == script.split("lit() ")[1].split("}\n", 1)[1].split("users_sql |")[0], initdb
    ann = one(docs, "Secret", "t-perflab-mysql")["metadata"]["annotations"]
    assert ann["helm.sh/hook"] == "pre-install,pre-upgrade" and int(ann["helm.sh/hook-weight"]) < int(job["metadata"]["annotations"]["helm.sh/hook-weight"]), ann
    # its pods reach MySQL (and DNS) only, and MySQL lets them in
    np = one(docs, "NetworkPolicy", "t-perflab-mysql-databases")["spec"]
    assert peers_names(np["egress"]) == {53: {"other"}, 3306: {"mysql"}}, np
    assert peers_names(one(docs, "NetworkPolicy", "t-perflab-mysql")["spec"]["ingress"])[3306] == using("mysql") | {"mysql-databases"}
    # external MySQL: with an admin Secret before anything starts, without one skipped (the notes say so)
    ext = render("stores.mysql.external.adminSecret=mysql-admin", values=(str(CHART / "ci" / "external-stores-values.yaml"),))
    job = one(ext, "Job", "t-perflab-mysql-databases")
    assert job["metadata"]["annotations"]["helm.sh/hook"] == "pre-install,pre-upgrade"
    e = {x["name"]: x.get("value", x.get("valueFrom")) for x in job["spec"]["template"]["spec"]["containers"][0]["env"]}
    assert "ADMIN_USER" not in e  # read from the admin Secret's file
    assert e["MYSQL_HOST"] == "mysql.data.svc.cluster.local"
    assert not [d for d in render(values=(str(CHART / "ci" / "external-stores-values.yaml"),)) if d["kind"] == "Job"]
    assert "no stores.mysql.external.adminSecret" in (CHART / "templates" / "NOTES.txt").read_text()
    assert not [d for d in render("databaseJob.enabled=false") if d["kind"] == "Job"]
    # no service of MySQL on: no database Job
    assert not [d for d in render(*[f"services.{s}.enabled=false" for s in using("mysql", SERVICES)]) if d["kind"] == "Job"]


# --- pods: labels, probes, security, shutdown ----------------------------------------------------------------------

def test_probes_use_the_actuator_health_groups_on_the_management_port():
    docs = render(ROUTE, *EVERY)
    # a values block without managementPort gets port + 1000
    ports = {s: (v["port"], v.get("managementPort", v["port"] + 1000)) for s, v in SERVICES_VALUES.items()}
    for svc, (api, mgmt) in ports.items():
        c = container(docs, svc)
        assert c["ports"] == [{"name": "http", "containerPort": api, "protocol": "TCP"},
                              {"name": "management", "containerPort": mgmt, "protocol": "TCP"}], c["ports"]
        assert env(docs, svc)["MANAGEMENT_SERVER_PORT"] == str(mgmt) and env(docs, svc)["SERVER_PORT"] == str(api)
        assert c["startupProbe"]["httpGet"] == {"path": "/actuator/health/liveness", "port": "management"}
        assert c["livenessProbe"]["httpGet"] == {"path": "/actuator/health/liveness", "port": "management"}
        assert c["readinessProbe"]["httpGet"] == {"path": "/actuator/health/readiness", "port": "management"}
        assert c["startupProbe"]["failureThreshold"] * c["startupProbe"]["periodSeconds"] >= 120
        sp = one(docs, "Service", f"t-perflab-{svc}")["spec"]["ports"]
        assert [(p["name"], p["port"], p["targetPort"]) for p in sp] == [("http", api, "http"), ("management", mgmt, "management")]
    assert env(render("services.mail.managementPort=9999"), "mail")["MANAGEMENT_SERVER_PORT"] == "9999"
    assert "services.mail.managementPort must differ" in refuses("services.mail.managementPort=8081")
    assert "/services/mail/managementPort" in refuses("services.mail.managementPort=0")
    notes = (CHART / "templates" / "NOTES.txt").read_text()  # helm template does not render the notes
    assert "/actuator" not in notes and "management port" in notes, notes


def test_termination_grace_outlasts_prestop_plus_the_20s_shutdown_phase():
    docs = render(*EVERY)
    for svc in SERVICES:
        d = one(docs, "Deployment", f"t-perflab-{svc}")["spec"]["template"]["spec"]
        pre = d["containers"][0]["lifecycle"]["preStop"]["sleep"]["seconds"]
        assert d["terminationGracePeriodSeconds"] > pre + 20, d["terminationGracePeriodSeconds"]
    refuses("terminationGracePeriodSeconds=20")


def every_service_on(*more):
    """--set lines that enable every service of values.yaml (a service off by default, or a new one, is rendered too)."""
    return [f"services.{s}.enabled=true" for s in SERVICES] + list(more)


def test_a_deployments_selector_is_its_name_and_instance_among_its_pods_labels():
    deployments = [d for d in render(*every_service_on(), values=(str(CHART / "ci" / "monitoring-values.yaml"),))
                   if d["kind"] == "Deployment"]
    assert sorted(d["metadata"]["name"] for d in deployments) == sorted(f"t-perflab-{s}" for s in SERVICES)
    for d in deployments:
        name = d["metadata"]["name"].removeprefix("t-perflab-")
        selector = d["spec"]["selector"]["matchLabels"]
        assert selector == {"app.kubernetes.io/name": name, "app.kubernetes.io/instance": "t"}, (name, selector)
        assert selector.items() <= d["spec"]["template"]["metadata"]["labels"].items(), name


def test_guaranteed_resources_set_requests_to_limits_on_every_service():
    docs = render(*every_service_on("resources.guaranteed=true"), values=(str(CHART / "ci" / "hpa-values.yaml"),))
    for svc in SERVICES:
        resources = one(docs, "Deployment", f"t-perflab-{svc}")["spec"]["template"]["spec"]["containers"][0]["resources"]
        assert resources["requests"] == resources["limits"], (svc, resources)
        assert "guaranteed" not in resources, svc


def test_hpa_replaces_replicas_and_can_scale_on_a_pods_metric():
    hpa = str(CHART / "ci" / "hpa-values.yaml")
    # every service on and autoscaled: the ci file's settings where it names one, the values block's bounds elsewhere
    docs = render(*[f"services.{s}.{k}=true" for s in SERVICES for k in ("enabled", "autoscaling.enabled")], values=(hpa,))
    for svc in SERVICES:
        # the HPA owns the count; rendered with no cluster (no live Deployment to keep it from), its minimum
        replicas = one(docs, "Deployment", f"t-perflab-{svc}")["spec"]["replicas"]
        assert replicas == one(docs, "HorizontalPodAutoscaler", f"t-perflab-{svc}")["spec"]["minReplicas"], (svc, replicas)
    assert one(docs, "PersistentVolumeClaim", "t-perflab-mail")["spec"]["accessModes"] == ["ReadWriteMany"]
    gw = one(docs, "HorizontalPodAutoscaler", "t-perflab-gateway")["spec"]
    assert gw["metrics"][0]["resource"]["name"] == "cpu"
    assert gw["metrics"][1]["pods"]["metric"]["name"] == "http_server_requests_per_second"
    assert len(one(docs, "HorizontalPodAutoscaler", "t-perflab-shortener")["spec"]["metrics"]) == 1
    assert not [d for d in render() if d["kind"] == "HorizontalPodAutoscaler"]
    assert one(render(), "Deployment", "t-perflab-gateway")["spec"]["replicas"] == 2


# --- NetworkPolicy -------------------------------------------------------------------------------------------------

def peers_names(rules):
    """{port: set of app.kubernetes.io/name (or '*' for any / other selectors)} of a list of rules."""
    out = {}
    for r in rules:
        ports = [p["port"] for p in r.get("ports", [])] or ["*"]
        peers = r.get("from", r.get("to"))
        names = {"*"} if peers is None else {
            p.get("podSelector", {}).get("matchLabels", {}).get("app.kubernetes.io/name", "other") if "namespaceSelector" not in p and "ipBlock" not in p else "other"
            for p in peers}
        for port in ports:
            out.setdefault(port, set()).update(names)
    return out


def test_network_policy_lets_only_the_gateway_reach_the_services():
    docs = render(*EVERY)
    behind = [s for s in SERVICES if s != "gateway"]
    for svc in [s for s in behind if not SERVICES_VALUES[s].get("allowFrom")]:
        ing = peers_names(one(docs, "NetworkPolicy", f"t-perflab-{svc}")["spec"]["ingress"])
        assert ing == {"http": {"gateway"}, "management": {"other"}}, (svc, ing)  # other = Prometheus
    gw = one(docs, "NetworkPolicy", "t-perflab-gateway")["spec"]
    assert peers_names(gw["ingress"]) == {"http": {"*"}, "management": {"other"}}, gw["ingress"]
    eg = peers_names(gw["egress"])
    assert all(eg[SERVICES_VALUES[s]["port"]] == {s} for s in behind) and eg[6379] == {"redis"}, eg
    # services do not call each other unless allowFrom says so
    assert 8081 not in peers_names(one(docs, "NetworkPolicy", "t-perflab-shortener")["spec"]["egress"])
    assert 8082 not in peers_names(one(docs, "NetworkPolicy", "t-perflab-shortener")["spec"]["egress"])
    docs = render("--set-json services.shortener.allowFrom=[\"mail\"]")
    assert peers_names(one(docs, "NetworkPolicy", "t-perflab-shortener")["spec"]["ingress"])["http"] >= {"gateway", "mail"}
    assert peers_names(one(docs, "NetworkPolicy", "t-perflab-mail")["spec"]["egress"])[8084] == {"shortener"}


def test_network_policy_lets_only_the_services_reach_their_stores():
    docs = render()
    want = {"mongodb": {27017: using("mongodb")}, "redis": {6379: using("redis")},
            "mysql": {3306: using("mysql") | {"mysql-databases"}}, "smtp": {1025: using("smtp")}}  # + the database Job
    for store, ing in want.items():
        np = one(docs, "NetworkPolicy", f"t-perflab-{store}")["spec"]
        assert peers_names(np["ingress"]) == ing, (store, np["ingress"])
        assert [p["port"] for p in np["egress"][0]["ports"]] == [53, 53]
        assert len(np["egress"]) == 1, "stores talk to nobody but DNS"
    eg = peers_names(one(docs, "NetworkPolicy", "t-perflab-shortener")["spec"]["egress"])
    assert eg == {53: {"other"}, 27017: {"mongodb"}, 6379: {"redis"}}, eg
    eg = peers_names(one(docs, "NetworkPolicy", "t-perflab-mail")["spec"]["egress"])
    assert eg == {53: {"other"}, 3306: {"mysql"}, 8082: {"send"}}, eg
    ext = render(values=(str(CHART / "ci" / "external-stores-values.yaml"),))
    np = one(ext, "NetworkPolicy", "t-perflab-shortener")["spec"]["egress"]
    assert {"ipBlock": {"cidr": "10.20.0.0/16"}} in [p for r in np for p in r.get("to", [])]
    np = one(ext, "NetworkPolicy", "t-perflab-send")["spec"]["egress"]
    assert [r["to"] for r in np if r["ports"][0]["port"] == 1025] == [[{"ipBlock": {"cidr": "10.30.0.25/32"}}]], np
    assert not any(d["metadata"]["name"].endswith(("-mongodb", "-redis", "-mysql", "-smtp"))
                   for d in ext if d["kind"] == "NetworkPolicy")


# --- monitoring ----------------------------------------------------------------------------------------------------

def test_monitoring_objects_carry_the_kube_prometheus_stack_release_label():
    off = render()
    assert not [d for d in off if d["kind"] in ("ServiceMonitor", "PrometheusRule")]
    assert [d["metadata"]["name"] for d in off if d["kind"] == "ConfigMap"] == ["t-perflab-mysql-initdb", "t-perflab-mongodb-users",
                                                                              "t-perflab-gateway-routes"]
    docs = render(*EVERY, values=(str(CHART / "ci" / "monitoring-values.yaml"),))
    sm = one(docs, "ServiceMonitor", "t-perflab-shortener")
    assert sm["metadata"]["labels"]["release"] == "prom"
    assert sm["spec"]["endpoints"][0]["path"] == "/actuator/prometheus" and sm["spec"]["endpoints"][0]["port"] == "management"
    rule = one(docs, "PrometheusRule", "t-perflab")
    assert rule["metadata"]["labels"]["release"] == "prom"
    alerts = {(g["name"], r["alert"]) for g in rule["spec"]["groups"] for r in g["rules"]}
    for svc in SERVICES:
        for a in ["PerflabHigh5xxRate", "PerflabHighP99Latency", "PerflabPodRestarts"]:
            assert (f"perflab.{svc}", a) in alerts, alerts
    p99 = [r for g in rule["spec"]["groups"] for r in g["rules"] if r["alert"] == "PerflabHighP99Latency"][0]
    assert 'http_server_requests_seconds_bucket{namespace="lab", job="t-perflab-gateway"}' in p99["expr"] and "> 0.25" in p99["expr"], p99
    default = render("monitoring.serviceMonitor.enabled=true")
    assert one(default, "ServiceMonitor", "t-perflab-gateway")["metadata"]["labels"]["release"] == "kube-prometheus-stack"


def test_a_dashboard_per_service_with_rate_latency_errors_heap_and_gc():
    docs = render(*EVERY, values=(str(CHART / "ci" / "monitoring-values.yaml"),))
    for svc in SERVICES:
        one(docs, "ServiceMonitor", f"t-perflab-{svc}")
        cm = one(docs, "ConfigMap", f"t-perflab-{svc}-dashboard")
        assert cm["metadata"]["labels"]["grafana_dashboard"] == "1"
        dash = json.loads(cm["data"][f"perflab-{svc}.json"])
        exprs = " ".join(t["expr"] for p in dash["panels"] for t in p.get("targets", []))
        for metric in ["http_server_requests_seconds_count", "http_server_requests_seconds_bucket",
                       'status=~"5.."', "jvm_memory_used_bytes", "jvm_gc_pause_seconds"]:
            assert metric in exprs, (svc, metric)
        assert f'job="t-perflab-{svc}"' in exprs and "__" not in json.dumps(dash).replace("$__rate_interval", "")
        assert dash["uid"] == f"perflab-{svc}"


def rules_by_group(docs):
    rule = one(docs, "PrometheusRule", "t-perflab")
    return {g["name"]: {r["alert"]: r for r in g["rules"]} for g in rule["spec"]["groups"]}


SEED_000 = {"PerflabDbPoolStarved", "PerflabDbPoolSaturated", "PerflabOutboxBacklog", "PerflabOutboxDeadRows",
            "PerflabDeliveryBacklog", "PerflabDeliveryFailures"}


def test_mysql_services_get_the_db_pool_alerts_and_mail_and_send_their_hand_off_alerts():
    groups = rules_by_group(render(ROUTE, *EVERY, values=(str(CHART / "ci" / "monitoring-values.yaml"),)))
    # every MySQL service (route: one added as values only) gets the pool alerts; the hand-off ones follow `alerts`
    by_alert = {"outbox": {"PerflabOutboxBacklog", "PerflabOutboxDeadRows"},
                "delivery": {"PerflabDeliveryBacklog", "PerflabDeliveryFailures"}}
    want = {s: ({"PerflabDbPoolStarved", "PerflabDbPoolSaturated"} if s in using("mysql", SERVICES) else set())
            .union(*[by_alert.get(a, set()) for a in v.get("alerts", [])]) for s, v in SERVICES_VALUES.items()}
    assert want["mail"] >= by_alert["outbox"] and want["send"] >= by_alert["delivery"] and want["route"], want
    for svc, alerts in want.items():
        assert set(groups[f"perflab.{svc}"]) & SEED_000 == alerts, (svc, sorted(groups[f"perflab.{svc}"]))
    mail, send = groups["perflab.mail"], groups["perflab.send"]
    starved = mail["PerflabDbPoolStarved"]
    assert starved["expr"] == 'sum by (pool) (increase(hikaricp_connections_timeout_total{namespace="lab", job="t-perflab-mail"}[5m])) > 0', starved
    assert "for" not in starved and starved["labels"] == {"severity": "critical", "perflab_service": "mail"}
    for a in [starved, mail["PerflabDbPoolSaturated"]]:
        text = a["annotations"]["summary"] + a["annotations"]["description"]
        assert "seed 000" in text.lower() and "{{ $labels.pool }}" in text, a["annotations"]
        assert "second connection" in text or "one connection per request" in text, a["annotations"]
        assert "across network or disk I/O" in text, a["annotations"]
    sat = send["PerflabDbPoolSaturated"]
    assert 'hikaricp_connections_pending{namespace="lab", job="t-perflab-send"}' in sat["expr"] and sat["for"] == "2m", sat
    assert mail["PerflabOutboxBacklog"]["expr"] == 'max(perflab_mail_outbox_backlog{namespace="lab", job="t-perflab-mail"}) > 100'
    assert mail["PerflabOutboxBacklog"]["for"] == "5m"
    assert 'perflab_mail_outbox_pushes_total{namespace="lab", job="t-perflab-mail", result="dead"}' in mail["PerflabOutboxDeadRows"]["expr"]
    assert send["PerflabDeliveryBacklog"]["expr"] == 'max(perflab_send_backlog{namespace="lab", job="t-perflab-send"}) > 100'
    assert "SMTP relay down or slow" in send["PerflabDeliveryBacklog"]["annotations"]["summary"]
    fail = send["PerflabDeliveryFailures"]["expr"]
    assert fail == 'sum(rate(perflab_send_recipients_total{namespace="lab", job="t-perflab-send", result="failed"}[15m])) > 0', fail


def test_dashboard_shows_the_db_pool_and_the_send_hand_off():
    # each side of the hand-off on its own service's dashboard (a send metric under mail's job is never answered)
    docs = render(*EVERY, values=(str(CHART / "ci" / "monitoring-values.yaml"),))
    for svc in sorted(using("mysql", SERVICES)):
        dash = json.loads(one(docs, "ConfigMap", f"t-perflab-{svc}-dashboard")["data"][f"perflab-{svc}.json"])
        panels = {p["title"]: " ".join(t["expr"] for t in p.get("targets", [])) for p in dash["panels"]}
        sel = f'namespace="$namespace", job="t-perflab-{svc}", pod=~"$pod"'
        pool = panels["DB connections: active / pending / max"]
        for m in ["hikaricp_connections_active", "hikaricp_connections_pending", "hikaricp_connections_max"]:
            assert f"{m}{{{sel}}}" in pool, (m, pool)
        assert f"rate(hikaricp_connections_timeout_total{{{sel}}}" in panels["DB connection timeouts per second"]
        if svc == "mail":
            assert f"max(perflab_mail_outbox_backlog{{{sel}}})" in panels["Outbox backlog (mail)"]
            assert f"sum by (result) (rate(perflab_mail_outbox_pushes_total{{{sel}}}" in panels["Outbox pushes per second by result (mail)"]
        elif svc == "send":
            assert f"max(perflab_send_backlog{{{sel}}})" in panels["Delivery backlog (send)"]
            assert f"sum by (result) (rate(perflab_send_recipients_total{{{sel}}}" in panels["Recipients per second by result (send)"]
            assert f"histogram_quantile(0.95, sum by (le) (rate(perflab_send_smtp_seconds_bucket{{{sel}}}" in panels["SMTP transaction p95 (send)"]
        assert len({p["id"] for p in dash["panels"]}) == len(dash["panels"]), "panel ids must be unique"
        # no two panels overlap on Grafana's 24-column grid
        cells = [(p["gridPos"]["x"] + i, p["gridPos"]["y"] + j) for p in dash["panels"]
                 for i in range(p["gridPos"]["w"]) for j in range(p["gridPos"]["h"])]
        assert len(cells) == len(set(cells)) and all(x < 24 for x, _ in cells)


# --- seed Job ------------------------------------------------------------------------------------------------------

SEED = (str(CHART / "ci" / "seed-values.yaml"),)


def seed_job(docs):
    return one(docs, "Job", "t-perflab-mail-seed")


def test_seed_job_runs_the_mail_image_as_its_seeder_on_mails_database_and_eml_volume():
    docs = render("seed.enabled=true")
    job = seed_job(docs)
    pod = job["spec"]["template"]["spec"]
    c = pod["containers"][0]
    assert c["image"] == container(docs, "mail")["image"] == "ghcr.io/perflab/mail:0.1.0"
    # the same image helper as the Deployment: a pinned digest reaches the seeder too
    pinned = render("seed.enabled=true", "services.mail.image.digest=sha256:" + "a" * 64)
    assert container(pinned, "mail")["image"] == seed_job(pinned)["spec"]["template"]["spec"]["containers"][0]["image"]
    e = {x["name"]: x.get("value", x.get("valueFrom")) for x in c["env"]}
    assert e["PERFLAB_MAIL_SEED_MAILS"] == "2000" and e["PERFLAB_MAIL_SEED_KEEPEXISTING"] == "false", e
    assert e["PERFLAB_MAIL_RELAY_ENABLED"] == "false" and e["SPRING_MAIN_WEBAPPLICATIONTYPE"] == "none", e
    # mail's store env, built by the same template as the Deployment's
    mail = env(docs, "mail")
    for k in ["PERFLAB_MYSQL_HOST", "PERFLAB_MYSQL_PORT", "PERFLAB_MYSQL_USER", "PERFLAB_MAIL_DB", "PERFLAB_MAIL_STORAGE"]:
        assert e[k] == mail[k], (k, e[k], mail[k])
    assert "PERFLAB_MAIL_SEED_MAILS" not in mail  # the service itself never seeds
    # the EML claim, mounted where PERFLAB_MAIL_STORAGE points
    [vol] = [v for v in pod["volumes"] if v["name"] == "storage"]
    assert vol["persistentVolumeClaim"]["claimName"] == "t-perflab-mail", vol
    assert {"name": "storage", "mountPath": e["PERFLAB_MAIL_STORAGE"]} in c["volumeMounts"]
    other = seed_job(render("seed.enabled=true", "services.mail.persistence.existingClaim=eml"))
    assert [v for v in other["spec"]["template"]["spec"]["volumes"] if v["name"] == "storage"][0][
        "persistentVolumeClaim"]["claimName"] == "eml"
    # size, keepExisting, JVM and Job limits from values; large counts stay integers
    big = seed_job(render(values=SEED))
    be = {x["name"]: x.get("value") for x in big["spec"]["template"]["spec"]["containers"][0]["env"]}
    assert be["PERFLAB_MAIL_SEED_MAILS"] == "1000000" and "-Xmx768m" in be["JAVA_TOOL_OPTIONS"].split(), be
    assert big["spec"]["activeDeadlineSeconds"] == 3600 and job["spec"]["backoffLimit"] == 2
    keep = seed_job(render("seed.enabled=true", "seed.keepExisting=true"))
    assert {"name": "PERFLAB_MAIL_SEED_KEEPEXISTING", "value": "true"} in keep["spec"]["template"]["spec"]["containers"][0]["env"]
    assert "seed: resources.limits.memory 1Gi is too small" in refuses("seed.enabled=true", "seed.jvm.heap=1g")
    assert "/seed/mails" in refuses("seed.enabled=true", "seed.mails=-1")
    assert "not allowed" in refuses("seed.mail=10")


# --- exposure ------------------------------------------------------------------------------------------------------

EXPOSURE = (str(CHART / "ci" / "exposure-values.yaml"),)


def test_exposed_gateway_admits_only_the_forwarding_pods_listed_in_gateway_from():
    gw = one(render(values=EXPOSURE), "NetworkPolicy", "t-perflab-gateway")["spec"]
    [http] = [r for r in gw["ingress"] if r["ports"] == [{"port": "http", "protocol": "TCP"}]]
    namespaces = [p["namespaceSelector"]["matchLabels"]["kubernetes.io/metadata.name"] for p in http["from"]
                  if "namespaceSelector" in p]
    assert namespaces == ["ingress-nginx", "gateway-system"], http
    assert "exposure.ingress" in (CHART / "values.yaml").read_text().split("gatewayFrom:")[0].rsplit("# --", 1)[1]
    assert "not allowed" in refuses("exposure.ingress.host=x") and "not allowed" in refuses("exposure.httpRoute.parentRef=x")


# --- stores: probes, images, scratch space ---------------------------------------------------------------------------

def test_third_party_images_are_pinned_to_patch_releases_and_can_be_pinned_by_digest():
    import re
    docs = render()
    images = {store: container(docs, store, "StatefulSet")["image"] for store in ["mysql", "mongodb", "redis", "smtp"]}
    images["job"] = one(docs, "Job", "t-perflab-mysql-databases")["spec"]["template"]["spec"]["containers"][0]["image"]
    images["test"] = one(docs, "Pod", "t-perflab-test")["spec"]["containers"][0]["image"]
    for what, image in images.items():
        assert re.fullmatch(r"[a-z/]+:v?[0-9]+\.[0-9]+\.[0-9]+", image), (what, image)  # never a minor tag that moves
    assert images["job"] == images["mysql"], "the database Job's client is the server's image"
    digest = "sha256:" + "0123456789abcdef" * 4
    pinned = render(*[f"stores.{s}.image.digest={digest}" for s in ["mysql", "mongodb", "redis", "smtp"]],
                    f"tests.image.digest={digest}")
    for store in ["mysql", "mongodb", "redis", "smtp"]:
        assert container(pinned, store, "StatefulSet")["image"] == f"{images[store]}@{digest}", store
    assert one(pinned, "Job", "t-perflab-mysql-databases")["spec"]["template"]["spec"]["containers"][0]["image"] == \
        f"{images['mysql']}@{digest}"
    assert one(pinned, "Pod", "t-perflab-test")["spec"]["containers"][0]["image"] == f"{images['test']}@{digest}"
    for bad in ["sha256:abc", "sha256:" + "A" * 64, "0" * 64]:
        assert "/stores/redis/image/digest" in refuses(f"stores.redis.image.digest={bad}"), bad
        assert "/tests/image/digest" in refuses(f"tests.image.digest={bad}"), bad


# --- secrets as files --------------------------------------------------------------------------------------------------

def pods(docs):
    for d in docs:
        if d["kind"] == "Pod":
            yield d["metadata"]["name"], d["spec"]
        elif d["kind"] in ("Deployment", "StatefulSet", "Job"):
            yield d["metadata"]["name"], d["spec"]["template"]["spec"]


def secret_files(docs, svc, kind="Deployment"):
    """{path in /etc/perflab/secrets: (Secret, key)} of a service's secrets volume."""
    spec = one(docs, kind, f"t-perflab-{svc}")["spec"]["template"]["spec"]
    [vol] = [v for v in spec["volumes"] if v["name"] == "secrets"]
    assert vol["projected"]["defaultMode"] == 0o440, vol
    out = {}
    for src in vol["projected"]["sources"]:
        for item in src["secret"]["items"]:
            out[item["path"]] = (src["secret"]["name"], item["key"])
    [mount] = [m for m in spec["containers"][0]["volumeMounts"] if m["name"] == "secrets"]
    assert mount == {"name": "secrets", "mountPath": "/etc/perflab/secrets", "readOnly": True}, mount
    return out


def test_secrets_reach_every_container_as_files_never_as_env_values_or_arguments():
    for values in [(KEY,), (str(CHART / "ci" / "external-stores-values.yaml"),), SEED]:
        docs = render("stores.mysql.external.adminSecret=mysql-admin", values=values) if "external" in values[0] else render(values=values)
        b64 = __import__("base64").b64decode
        secrets = {b64(v).decode() for d in docs if d["kind"] == "Secret" for k, v in d["data"].items() if k.endswith("password")}
        assert len(secrets) >= (0 if "external" in values[0] else 8), (values, len(secrets))
        seen = 0
        for name, spec in pods(docs):
            for c in spec["containers"]:
                seen += 1
                for e in c.get("env", []):
                    assert "secretKeyRef" not in e.get("valueFrom", {}), (values, name, e)
                assert not c.get("envFrom"), (values, name)
                argv = " ".join(c.get("command", []) + c.get("args", []))
                assert "--requirepass" not in argv and "PASSWORD)" not in argv, (values, name, argv)
                # no value of any rendered Secret (the generated passwords) in an env value, an argument or a probe
                probes = json.dumps([c.get(k) for k in ("readinessProbe", "livenessProbe", "startupProbe")])
                for secret in secrets:
                    assert secret not in json.dumps(c.get("env", [])) + argv + probes, (values, name)
        # nor in a ConfigMap (the stores' scripts read the files)
        for d in docs:
            if d["kind"] == "ConfigMap":
                assert not [s for s in secrets if s in json.dumps(d.get("data", {}))], d["metadata"]["name"]
        assert seen >= 6, values
    docs = render(*EVERY)
    # Spring services: a config tree named after what each service already reads (no service change)
    for svc in [s for s in SERVICES if SERVICES_VALUES[s].get("stores")]:
        assert env(docs, svc)["SPRING_CONFIG_IMPORT"] == "optional:configtree:/etc/perflab/secrets/", svc
    # each service its own user and only its own password of each store it uses: no pod can read another's
    for svc in [s for s in SERVICES if SERVICES_VALUES[s].get("stores")]:
        files, e = secret_files(docs, svc), env(docs, svc)
        user = "perflab_" + svc.replace("-", "_")
        own = {("t-perflab-mysql", f"{svc}-password")} if "mysql" in SERVICES_VALUES[svc]["stores"] else set()
        own |= {("t-perflab-mongodb", f"{svc}-password")} if "mongodb" in SERVICES_VALUES[svc]["stores"] else set()
        own |= {("t-perflab-redis", f"{svc}-password")} if "redis" in SERVICES_VALUES[svc]["stores"] else set()
        assert {f for f in files.values() if f[0] in ("t-perflab-mysql", "t-perflab-mongodb", "t-perflab-redis")} == own, (svc, files)
        assert e.get("PERFLAB_MYSQL_USER", user) == e.get("SPRING_DATA_REDIS_USERNAME", user) == user, (svc, e)
    assert secret_files(docs, "mail") == {"PERFLAB_MYSQL_PASSWORD": ("t-perflab-mysql", "mail-password")}
    assert secret_files(docs, "gateway") == {"spring.data.redis.password": ("t-perflab-redis", "gateway-password")}
    assert secret_files(docs, "shortener") == {"PERFLAB_MONGODB_PASSWORD": ("t-perflab-mongodb", "shortener-password"),
                                               "spring.data.redis.password": ("t-perflab-redis", "shortener-password"),
                                               "perflab.shortener.code-key": ("t-perflab-shortener-code-key", "code-key")}
    s = env(docs, "shortener")
    assert s["SPRING_MONGODB_URI"] == "mongodb://perflab_shortener:${PERFLAB_MONGODB_PASSWORD}@t-perflab-mongodb:27017/perflab_shortener"
    assert not {"PERFLAB_MYSQL_PASSWORD", "SPRING_DATA_REDIS_PASSWORD", "PERFLAB_SHORTENER_CODEKEY", "PERFLAB_MONGODB_PASSWORD"} & \
        {k for svc in SERVICES for k in env(docs, svc)}
    # the existing-Secret values still name where each file comes from
    ext = render(values=(str(CHART / "ci" / "external-stores-values.yaml"),))
    assert secret_files(ext, "mail") == {"PERFLAB_MYSQL_PASSWORD": ("perflab-mysql-auth", "mail-password")}
    assert secret_files(ext, "shortener") == {"spring.mongodb.uri": ("perflab-mongodb-uri", "uri"),
                                              "spring.data.redis.password": ("perflab-redis-auth", "password"),
                                              "perflab.shortener.code-key": ("t-perflab-shortener-code-key", "code-key")}
    assert "SPRING_MONGODB_URI" not in env(ext, "shortener")
    mine = render("stores.mysql.auth.existingSecret=my-mysql", "services.shortener.codeKey.existingSecret=codes",
                  "services.shortener.codeKey.key=k")
    assert secret_files(mine, "route")["PERFLAB_MYSQL_PASSWORD"] == ("my-mysql", "route-password")
    assert secret_files(mine, "shortener")["perflab.shortener.code-key"] == ("codes", "k")
    # an operator's own import is kept, before the config tree, in the one SPRING_CONFIG_IMPORT
    both = container(render("services.mail.env.SPRING_CONFIG_IMPORT=classpath:perflab/mariadb-standin.yaml"), "mail")["env"]
    assert [e["value"] for e in both if e["name"] == "SPRING_CONFIG_IMPORT"] == \
        ["classpath:perflab/mariadb-standin.yaml,optional:configtree:/etc/perflab/secrets/"], both
    # a service with no secret gets neither the import nor the volume
    plain = render(ROUTE[:-1] + ',"stores":[],"hikari":{}}')
    assert "SPRING_CONFIG_IMPORT" not in env(plain, "route") and volume(plain, "route", "secrets") is None
    # the seed Job reads mail's files the same way
    seed = render("seed.enabled=true")
    assert secret_files(seed, "mail-seed", "Job") == secret_files(seed, "mail")
    assert env(seed, "mail-seed", "Job")["SPRING_CONFIG_IMPORT"] == "optional:configtree:/etc/perflab/secrets/"


# What each fake program of the rendered shell does: record its arguments, its stdin and its environment.
RECORD = '#!/bin/sh\nn=$(basename "$0")\nprintf "%s\\n" "$*" >> "$FAKE_DIR/$n.argv"\ncat >> "$FAKE_DIR/$n.stdin"\nenv >> "$FAKE_DIR/$n.env"\n'


def fake_bin(tmp, fakes):
    """A PATH directory in tmp where each name of `fakes` is a program that records how it was run."""
    bindir = Path(tmp) / "bin"
    bindir.mkdir(exist_ok=True)
    for name in fakes:
        (bindir / name).write_text(RECORD)
        (bindir / name).chmod(0o755)
    return bindir


def run_with_fakes(script, fakes, tmp, env_vars):
    """Runs a container's shell script with each of `fakes` on PATH as a program that records its argv and stdin."""
    bindir = fake_bin(tmp, fakes)
    subprocess.run(["sh", "-ec", script], check=True, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                   env={"PATH": f"{bindir}:/usr/bin:/bin", "FAKE_DIR": str(tmp), **env_vars})
    read = lambda n, part: (Path(tmp) / f"{n}.{part}").read_text() if (Path(tmp) / f"{n}.{part}").exists() else ""
    return {n: {part: read(n, part) for part in ("argv", "stdin", "env")} for n in fakes}


TRICKY = "p'w\\\"x $y`z #"


def test_redis_takes_an_acl_user_per_client_as_configuration_on_stdin_its_password_hashed_default_off():
    import hashlib
    import tempfile
    docs = render()
    c = container(docs, "redis", "StatefulSet")
    assert c["command"] == ["sh", "-c"]
    clients = sorted(using("redis"))
    with tempfile.TemporaryDirectory() as tmp:
        for i, client in enumerate(clients):
            (Path(tmp) / f"{client}-password").write_text(f"{TRICKY}{i}\n")  # a trailing newline, as `kubectl create --from-file` leaves
        ran = run_with_fakes(c["args"][0].replace("/etc/perflab/store", tmp), ["redis-server"], tmp, {})["redis-server"]
    argv = ran["argv"].split()
    assert argv[-1] == "-" and argv[:6] == ["--appendonly", "yes", "--dir", "/data", "--port", "6379"], argv
    assert "p'w" not in ran["argv"] + ran["stdin"] and "requirepass" not in ran["argv"] + ran["stdin"], ran
    lines = ran["stdin"].strip().splitlines()
    assert lines[0] == "user default off resetpass resetkeys resetchannels -@all", lines
    assert len(lines) == 1 + len(clients), lines
    acl = yaml.safe_load((CHART / "values.yaml").read_text())["stores"]["redis"]["acl"]
    for i, (client, line) in enumerate(zip(clients, lines[1:])):
        # the SHA-256 of the password the client reads (Spring's config tree drops the trailing newline too)
        digest = hashlib.sha256(f"{TRICKY}{i}".encode()).hexdigest()
        assert line == f"user perflab_{client} on resetpass #{digest} resetkeys resetchannels {acl[client]}", line
        assert env(docs, client)["SPRING_DATA_REDIS_USERNAME"] == f"perflab_{client}"
    # every client's user answers the readiness probe; a Redis client without ACL rules is refused
    probe = c["readinessProbe"]["exec"]["command"][2]
    assert all(f"redis-cli --user perflab_{client} " in probe for client in clients), probe
    assert "stores.redis.acl.route is required" in refuses(ROUTE[:-1] + ',"stores":["redis"],"hikari":{}}')
    # an external Redis: the `default` user's `password` (no username), or a user per client with aclUsers
    ext = (str(CHART / "ci" / "external-stores-values.yaml"),)
    assert "SPRING_DATA_REDIS_USERNAME" not in env(render(values=ext), "gateway")
    acl_ext = render("stores.redis.external.aclUsers=true", values=ext)
    assert env(acl_ext, "gateway")["SPRING_DATA_REDIS_USERNAME"] == "perflab_gateway"
    assert secret_files(acl_ext, "gateway") == {"spring.data.redis.password": ("perflab-redis-auth", "gateway-password")}


def test_mongodb_gives_each_service_its_own_user_with_read_write_on_its_database_made_as_root_on_every_start():
    docs = render()
    c = container(docs, "mongodb", "StatefulSet")
    assert c["command"] == ["sh", "-c"] and "mongosh --nodb --quiet --norc /etc/perflab/mongodb/users.js" in c["args"][0]
    assert c["args"][0].rstrip().endswith("exec docker-entrypoint.sh mongod --port 27017"), c["args"]
    e = {x["name"]: x["value"] for x in c["env"]}
    assert e == {"MONGO_INITDB_ROOT_USERNAME": "perflab", "MONGO_INITDB_ROOT_PASSWORD_FILE": "/etc/perflab/store/password"}, e
    scripts = one(docs, "ConfigMap", "t-perflab-mongodb-users")["data"]
    users = [[f"perflab_{s}", f"{s}-password"] for s in sorted(using("mongodb"))]
    for name in ("users.js", "ready.js"):
        assert f"of {json.dumps(users, separators=(',', ':'))})" in scripts[name], scripts[name]
    assert "admin.auth(\"perflab\", read('password'))" in scripts["users.js"]
    assert "roles: [{ role: 'readWrite', db: user }]" in scripts["users.js"] and "root" not in scripts["users.js"].split("roles")[1]
    assert "updateUser(user, spec)" in scripts["users.js"], "a rotated password is set again on the next start"
    assert "ready.js" in c["readinessProbe"]["exec"]["command"][2]
    # a new MongoDB service's key changes the pod (its user is made at start)
    items = [i["key"] for v in one(docs, "StatefulSet", "t-perflab-mongodb")["spec"]["template"]["spec"]["volumes"]
             if v["name"] == "credentials" for i in v["secret"]["items"]]
    assert items == ["password"] + [f"{s}-password" for s in sorted(using("mongodb"))], items
    for svc in using("mongodb"):
        assert env(docs, svc)["SPRING_MONGODB_URI"].startswith(f"mongodb://perflab_{svc}:${{PERFLAB_MONGODB_PASSWORD}}@"), svc


def test_the_database_job_reads_its_credentials_from_files_and_quotes_the_password_in_sql():
    import tempfile
    for values, sets, admin in [((KEY,), (), "root"),
                                ((str(CHART / "ci" / "external-stores-values.yaml"),), ("stores.mysql.external.adminSecret=mysql-admin",), "dba")]:
        docs = render(*sets, values=values)
        pod = one(docs, "Job", "t-perflab-mysql-databases")["spec"]["template"]["spec"]
        c = pod["containers"][0]
        [vol] = [v for v in pod["volumes"] if v["name"] == "credentials"]
        files = {i["path"]: (s["secret"]["name"], i["key"]) for s in vol["projected"]["sources"] for i in s["secret"]["items"]}
        app = "t-perflab-mysql" if admin == "root" else "perflab-mysql-auth"
        mine = {f"{svc}-password": (app, f"{svc}-password") for svc in using("mysql")}
        if admin == "root":
            assert files == {**mine, "admin-password": ("t-perflab-mysql", "root-password")}, files
        else:
            assert files == {**mine, "admin-username": ("mysql-admin", "username"), "admin-password": ("mysql-admin", "password")}, files
        assert {"name": "credentials", "mountPath": "/etc/perflab/mysql", "readOnly": True} in c["volumeMounts"]
        e = {x["name"]: x["value"] for x in c["env"]}
        with tempfile.TemporaryDirectory() as tmp:
            for name, content in [("mail-password", TRICKY), ("send-password", "s"), ("route-password", "r"),
                                  ("admin-password", "adm1n"), ("admin-username", "dba")]:
                (Path(tmp) / name).write_text(content)
            ran = run_with_fakes(c["args"][0].replace("/etc/perflab/mysql", tmp), ["mysqladmin", "mysql"], tmp, e)
        assert f"-u {admin}" in ran["mysql"]["argv"] and "adm1n" not in ran["mysql"]["argv"] + ran["mysqladmin"]["argv"]
        assert "MYSQL_PWD=adm1n" in ran["mysql"]["env"].splitlines(), "the admin password reaches the client, not argv"
        sql = ran["mysql"]["stdin"]
        assert "'perflab_mail'@'%' IDENTIFIED BY 'p''w\\\\\"x $y`z #';" in sql, sql
        assert "GRANT ALL PRIVILEGES ON `perflab\\_send`.* TO 'perflab_send'@'%';" in sql, sql
        assert "ALTER USER 'perflab_route'@'%' IDENTIFIED BY 'r';" in sql, sql
    # one user shared by every service only where the chart does not administer MySQL (a dev server's account)
    shared = render("stores.mysql.auth.username=perflab", values=(str(CHART / "ci" / "external-stores-values.yaml"),))
    assert env(shared, "mail")["PERFLAB_MYSQL_USER"] == env(shared, "send")["PERFLAB_MYSQL_USER"] == "perflab"
    assert secret_files(shared, "mail") == {"PERFLAB_MYSQL_PASSWORD": ("perflab-mysql-auth", "password")}
    assert "only for an external MySQL without stores.mysql.external.adminSecret" in refuses("stores.mysql.auth.username=perflab")
    assert "only for an external MySQL" in refuses("stores.mysql.auth.username=perflab", "stores.mysql.external.adminSecret=a",
                                                   values=(str(CHART / "ci" / "external-stores-values.yaml"),))


def rendered_notes(*sets, values=(KEY,), source=CHART):
    """NOTES.txt as `helm install` prints it (helm template leaves it out): rendered through `tpl` in a copy of the chart."""
    with tempfile.TemporaryDirectory() as tmp:
        chart = Path(tmp) / source.name
        shutil.copytree(source, chart, symlinks=False)
        (chart / "files" / "NOTES.txt").write_text((source / "templates" / "NOTES.txt").read_text())
        (chart / "templates" / "notes-as-configmap.yaml").write_text(
            'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: notes }\ndata:\n  notes: {{ tpl (.Files.Get "files/NOTES.txt") . | quote }}\n')
        return one(render(*sets, chart=chart, values=values), "ConfigMap", "notes")["data"]["notes"]


def test_generated_secrets_are_named_with_the_values_that_replace_them_where_lookup_sees_no_cluster():
    notes = rendered_notes()
    assert "Generated secrets:" in notes and "`lookup`" in notes and "helm template" in notes and "Argo CD" in notes, notes
    for value in ["stores.mysql.auth.existingSecret", "stores.mongodb.auth.existingSecret", "stores.redis.auth.existingSecret",
                  "identity.existingSecret", "services.shortener.codeKey.existingSecret"]:
        assert value in notes, value
    assert "stores.smtp" not in notes
    some = rendered_notes("stores.mysql.auth.existingSecret=m", "identity.existingSecret=i")
    assert "stores.mysql.auth" not in some and "identity.existingSecret" not in some and "stores.redis.auth.existingSecret" in some
    none = rendered_notes("identity.existingSecret=i", "services.shortener.codeKey.existingSecret=c",
                          values=(str(CHART / "ci" / "external-stores-values.yaml"),))
    assert "Generated secrets" not in none, none
    values = (CHART / "values.yaml").read_text()
    stores_intro = values.split("\nstores:\n")[0].rsplit("\n\n", 1)[1]
    assert "`lookup`" in stores_intro and "helm template" in stores_intro and "Argo CD" in stores_intro, stores_intro
    assert "helm template" in values.split("\n  existingSecret: \"\"")[0].rsplit("# --", 1)[1], "identity.existingSecret says it"


def test_the_gateway_believes_forwarded_headers_only_from_the_listed_proxies():
    assert "PERFLAB_GATEWAY_TRUSTEDPROXIES" not in env(render(), "gateway")  # none by default: the peer is the client
    assert env(render(values=EXPOSURE), "gateway")["PERFLAB_GATEWAY_TRUSTEDPROXIES"] == "10.42.0.0/16,fd00:42::/64"
    for values in [(KEY,), EXPOSURE]:
        # the chart leaves the forwarded-header policy to the gateway's own configuration, as it runs in a cluster
        g = env(render(values=values), "gateway")
        assert not {"SERVER_FORWARDHEADERSSTRATEGY", "SPRING_MAIN_CLOUDPLATFORM"} & set(g), g
    docs = render('--set-json gateway.trustedProxies=["10.0.0.0/8","192.0.2.7","fd00::/8"]', *EVERY)
    assert env(docs, "gateway")["PERFLAB_GATEWAY_TRUSTEDPROXIES"] == "10.0.0.0/8,192.0.2.7,fd00::/8"
    assert not [s for s in SERVICES if s != "gateway" and "PERFLAB_GATEWAY_TRUSTEDPROXIES" in env(docs, s)]
    for bad in ["ingress.example.com", "10.0.0.0/33", "10.0.0.256", "10.0.0.0/8,10.1.0.0/16", ""]:
        assert "/gateway/trustedProxies/0" in refuses(f'--set-json gateway.trustedProxies=["{bad}"]'), bad
    doc = (CHART / "values.yaml").read_text().split("\n  trustedProxies:")[0].rsplit("# --", 1)[1]
    assert "exposure.ingress" in doc and "exposure.httpRoute" in doc and "PERFLAB_GATEWAY_TRUSTEDPROXIES" in doc, doc


# --- perflab-loadtest ----------------------------------------------------------------------------------------------

def test_loadtest_runs_each_test_as_runners_a_starter_of_all_of_them_and_a_service_naming_them():
    scenarios = (LOADTEST / "files" / "scenarios.txt").read_text().split()
    for values in sorted((LOADTEST / "ci").glob("*.yaml")):
        docs = render(chart=LOADTEST, values=(str(values),))
        runners = [d for d in docs if d["kind"] == "Job" and d["spec"].get("completionMode") == "Indexed"]
        assert runners, values
        for job in runners:
            name, spec = job["metadata"]["name"], job["spec"]
            pod = spec["template"]["spec"]
            runner = pod["containers"][0]
            n = spec["parallelism"]
            assert spec["completions"] == n and runner["args"][0] == "run" and runner["args"][1] in scenarios, (values, name)
            env = {e["name"]: e.get("value") for e in runner["env"]}
            assert env["RUNNERS"] == str(n) and env["PAUSED"] == "true" and env["CONTROL"] == "0.0.0.0:6565", (values, env)
            # every runner by name, from a headless Service over exactly this run's runners; started together
            svc = one(docs, "Service", pod["subdomain"])["spec"]
            assert svc["clusterIP"] == "None" and svc["publishNotReadyAddresses"] is True
            assert svc["selector"].items() <= spec["template"]["metadata"]["labels"].items(), svc["selector"]
            starter = one(docs, "Job", f"{name}-starter")["spec"]["template"]["spec"]
            args = starter["containers"][0]["args"]
            assert args[0] == "start" and args[3:] == [f"{name}-{i}.{pod['subdomain']}:6565" for i in range(n)], args
            assert starter.get("nodeSelector") == pod.get("nodeSelector"), values
            assert starter["containers"][0]["image"] == runner["image"], values
    assert "token.existingSecret" in refuses(chart=LOADTEST, values=())


# --- gateway routes: each service's file, or its values override ------------------------------------------------

def gateway_routes(docs):
    data = one(docs, "ConfigMap", "t-perflab-gateway-routes")["data"] or {}
    return {k: yaml.safe_load(v)["routes"] for k, v in data.items()}


def test_gateway_routes_are_the_repository_files_of_the_enabled_services():
    services = yaml.safe_load((CHART / "values.yaml").read_text())["services"]
    files = {f.stem: yaml.safe_load(f.read_text())["routes"] for f in (ROOT / "config" / "gateway" / "routes").glob("*.yaml")}
    assert (CHART / "files" / "routes").resolve() == (ROOT / "config" / "gateway" / "routes").resolve(), \
        "the chart must ship the repository's route files, not a copy"
    assert not [n for n, s in services.items() if s.get("routes")], "no route is written twice: values only override"
    docs = render()
    expected = {f"{n}.yaml": files[n] for n, s in services.items() if s.get("enabled") and n in files}
    assert expected and gateway_routes(docs) == expected, gateway_routes(docs)
    g = env(docs, "gateway")
    assert g["PERFLAB_GATEWAY_ROUTES_DIR"] == "/etc/perflab/routes" and g["PERFLAB_GATEWAY_RATE_LIMIT_REPLICAS"] == "2", g
    mounts = {m["mountPath"]: m["name"] for m in container(docs, "gateway")["volumeMounts"]}
    volumes = {v["name"]: v for v in one(docs, "Deployment", "t-perflab-gateway")["spec"]["template"]["spec"]["volumes"]}
    assert volumes[mounts["/etc/perflab/routes"]]["configMap"]["name"] == "t-perflab-gateway-routes"


def test_a_new_services_routes_reach_the_gateway_and_roll_it_without_a_template_change():
    def routes_hash(docs):
        return one(docs, "Deployment", "t-perflab-gateway")["spec"]["template"]["metadata"]["annotations"]["perflab.dev/routes-hash"]
    before = render()
    route = ROUTE[:-1] + ',"routes":[{"id":"route-api","uri":"${perflab.gateway.services.route:http://127.0.0.1:8083}",' \
        '"predicates":["Path=/v1/routes/**"]}]}'
    docs = render(route)
    assert gateway_routes(docs)["route.yaml"] == [{"id": "route-api", "uri": "${perflab.gateway.services.route:http://127.0.0.1:8083}",
                                                   "predicates": ["Path=/v1/routes/**"]}]
    assert routes_hash(docs) != routes_hash(before), "the gateway reads routes at start: a change must roll it"
    assert "shortener.yaml" not in gateway_routes(render("services.shortener.enabled=false")), "a disabled service has no routes"
    refused = refuses(ROUTE[:-1] + ',"routes":[{"id":"route-api","predicates":["Path=/x"]}]}')
    assert "routes" in refused and "uri" in refused, refused
    autoscaled = env(render("services.gateway.autoscaling.enabled=true", "services.gateway.autoscaling.minReplicas=3"), "gateway")
    assert autoscaled["PERFLAB_GATEWAY_RATE_LIMIT_REPLICAS"] == "3", autoscaled


def volume(docs, svc, name):
    vols = one(docs, "Deployment", f"t-perflab-{svc}")["spec"]["template"]["spec"]["volumes"]
    found = [v for v in vols if v["name"] == name]
    return found[0] if found else None


def identity_files(docs, svc):
    v = volume(docs, svc, "identity")
    return None if v is None else [i["path"] for i in v["secret"]["items"]]


def test_each_service_gets_its_own_identity_key_and_only_the_certificates_it_trusts():
    docs = render()
    b64 = __import__("base64").b64decode
    secret = one(docs, "Secret", "t-perflab-identity")["data"]
    signers = [s for s in SERVICES if SERVICES_VALUES[s].get("identity", {}).get("signs")]
    assert sorted(secret) == sorted(f"{s}.{x}" for s in signers for x in ("key", "pem")), sorted(secret)
    assert b64(secret["gateway.key"]).decode().startswith("-----BEGIN RSA PRIVATE KEY-----")
    assert b64(secret["mail.pem"]).decode().startswith("-----BEGIN CERTIFICATE-----")
    assert secret["gateway.key"] != secret["mail.key"]
    assert identity_files(docs, "gateway") == ["gateway.key"], "the gateway signs and trusts nobody"
    assert identity_files(docs, "mail") == ["mail.key", "gateway.pem"]
    assert identity_files(docs, "send") == ["gateway.pem", "mail.pem"], "no service but mail holds mail's key"
    assert identity_files(docs, "shortener") == ["gateway.pem"]
    for svc in ENABLED:
        key = svc if SERVICES_VALUES[svc].get("identity", {}).get("signs") else None
        e = env(docs, svc)
        assert e["PERFLAB_IDENTITY_DIR"] == "/etc/perflab/identity", svc
        assert e.get("PERFLAB_IDENTITY_SIGNING_KEY") == (key and f"file:/etc/perflab/identity/{key}.key"), (svc, e)
        mounts = {m["name"]: m for m in container(docs, svc)["volumeMounts"]}
        assert mounts["identity"]["mountPath"] == "/etc/perflab/identity" and mounts["identity"]["readOnly"], svc
