#!/usr/bin/env python3
"""Chart unit tests: render with `helm template --set ...` and assert on the objects (helm-unittest style).

    HELM=/path/to/helm unit.py [name-filter]

Prints one line per test and closes with `unit: N passed, N failed`.
"""
import json
import os
import subprocess
import sys
import traceback
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


def java_opts(docs, svc="shortener"):
    return env(docs, svc)["JAVA_TOOL_OPTIONS"].split()


MAIL = '--set-json services.mail={"enabled":true,"port":8081,"image":{"repository":"perflab/mail"},' \
       '"resources":{"limits":{"cpu":"1","memory":"1536Mi"}},"stores":["mysql"],"hikari":{"maximumPoolSize":10},' \
       '"lab":{"listCount":"left-join"}}'

TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


# --- JVM --------------------------------------------------------------------------------------------------------

@test
def jvm_flags_default_to_g1_fixed_heap_and_processor_count_from_cpu_limit():
    opts = java_opts(render())
    assert opts[:3] == ["-XX:+UseG1GC", "-Xms1g", "-Xmx1g"], opts
    assert "-XX:ActiveProcessorCount=2" in opts, opts
    assert "-XX:+ExitOnOutOfMemoryError" in opts, opts


@test
def active_processor_count_is_the_ceiling_of_the_cpu_limit_and_at_least_one():
    for limit, want in [("500m", 1), ("100m", 1), ("1", 1), ("1.5", 2), ("2", 2), ("2500m", 3), ("1000m", 1)]:
        opts = java_opts(render(f"services.shortener.resources.limits.cpu={limit}"))
        assert f"-XX:ActiveProcessorCount={want}" in opts, (limit, opts)
    for limit, want in [(1.5, 2), (2, 2), (0.25, 1)]:  # YAML numbers, not strings
        opts = java_opts(render(f"--set-json services.shortener.resources.limits.cpu={limit}"))
        assert f"-XX:ActiveProcessorCount={want}" in opts, (limit, opts)


@test
def gc_choice_and_extra_opts_reach_java_tool_options():
    opts = java_opts(render("services.shortener.jvm.gc=ZGC", "services.shortener.jvm.extraOpts=-Xlog:gc -Xss512k"))
    assert opts[0] == "-XX:+UseZGC" and opts[-2:] == ["-Xlog:gc", "-Xss512k"], opts
    assert "gc" in refuses("services.shortener.jvm.gc=CMS")


@test
def refuses_a_memory_limit_too_small_for_heap_plus_headroom():
    err = refuses("services.shortener.resources.limits.memory=1535Mi")
    assert "limit >= heap x 1.25 + 256Mi = 1536Mi" in err, err
    render("services.shortener.resources.limits.memory=1536Mi")  # exactly the rule
    render("services.shortener.resources.limits.memory=2G")
    err = refuses("services.shortener.jvm.heap=2g", "services.shortener.resources.limits.memory=2Gi")
    assert "2816Mi" in err, err
    render("services.shortener.jvm.heap=2g", "services.shortener.resources.limits.memory=2816Mi")
    render("services.shortener.jvm.heap=512m", "services.shortener.resources.limits.memory=896Mi")
    refuses("services.shortener.jvm.heap=512m", "services.shortener.resources.limits.memory=895Mi")
    refuses("services.shortener.resources.limits.memory=1.5Gi")  # schema: whole numbers only


# --- env: lab switches, stores, hikari, gateway routes -------------------------------------------------------------

@test
def lab_switch_becomes_a_relaxed_binding_env_var():
    assert env(render(), "shortener")["PERFLAB_SHORTENER_IDSTRATEGY"] == "snowflake"
    assert env(render("services.shortener.lab.idStrategy=mongo-sequence"), "shortener")["PERFLAB_SHORTENER_IDSTRATEGY"] == "mongo-sequence"
    assert "idStrategy" in refuses("services.shortener.lab.idStrategy=mongo")
    assert "idStrateg" in refuses("services.shortener.lab.idStrateg=snowflake")


@test
def changing_a_lab_switch_rolls_the_pods():
    a = one(render(), "Deployment", "t-perflab-shortener")["spec"]["template"]["metadata"]["annotations"]
    b = one(render("services.shortener.lab.idStrategy=mongo-sequence"), "Deployment", "t-perflab-shortener")
    assert a["perflab.dev/config-hash"] != b["spec"]["template"]["metadata"]["annotations"]["perflab.dev/config-hash"]


@test
def shortener_gets_mongodb_and_redis_and_gateway_gets_redis_jwt_and_routes():
    docs = render()
    s, g = env(docs, "shortener"), env(docs, "gateway")
    assert s["SPRING_MONGODB_URI"].startswith("mongodb://perflab:$(PERFLAB_MONGODB_PASSWORD)@t-perflab-mongodb:27017/"), s
    assert s["SPRING_DATA_REDIS_HOST"] == "t-perflab-redis" and s["SPRING_DATA_REDIS_PORT"] == "6379"
    assert s["PERFLAB_SHORTENER_PUBLIC_BASE_URL"] == "http://127.0.0.1:8080"
    assert g["SPRING_DATA_REDIS_HOST"] == "t-perflab-redis"
    assert g["PERFLAB_GATEWAY_SERVICES_SHORTENER"] == "http://t-perflab-shortener:8084"
    assert g["PERFLAB_GATEWAY_JWT_PUBLIC_KEY"] == "file:/etc/perflab/jwt/public.pem"
    assert g["PERFLAB_GATEWAY_JWT_ISSUER"] == "https://perflab.local/dev"
    assert not any(k.startswith("SPRING_MONGODB") for k in g)
    mounts = {m["mountPath"]: m["name"] for m in container(docs, "gateway")["volumeMounts"]}
    assert mounts["/etc/perflab/jwt"] == "jwt"
    secret = one(docs, "Secret", "t-perflab-jwt")
    assert "BEGIN PUBLIC KEY" in __import__("base64").b64decode(secret["data"]["public.pem"]).decode()


@test
def gateway_refuses_to_render_without_a_jwt_key():
    assert "gateway.jwt.publicKey" in refuses(values=())


@test
def a_new_service_is_a_values_block_only():
    docs = render(MAIL)
    e = env(docs, "mail")
    assert e["SPRING_DATASOURCE_URL"] == "jdbc:mysql://t-perflab-mysql:3306/perflab_mail", e
    assert e["SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE"] == "10"
    assert e["PERFLAB_MAIL_LISTCOUNT"] == "left-join"
    assert env(docs, "gateway")["PERFLAB_GATEWAY_SERVICES_MAIL"] == "http://t-perflab-mail:8081"
    one(docs, "StatefulSet", "t-perflab-mysql")
    sql = one(docs, "ConfigMap", "t-perflab-mysql-initdb")["data"]["10-databases.sql"]
    assert "CREATE DATABASE IF NOT EXISTS `perflab_mail`" in sql and "perflab_shortener" not in sql, sql
    for kind in ["Service", "PodDisruptionBudget", "NetworkPolicy"]:
        one(docs, kind, "t-perflab-mail")


@test
def hikari_is_only_for_mysql_services():
    assert "does not use mysql" in refuses("services.shortener.hikari.maximumPoolSize=5")
    assert not any(k.startswith("SPRING_DATASOURCE") for k in env(render(), "shortener"))


@test
def stores_render_only_when_a_service_uses_them():
    names = {(d["kind"], d["metadata"]["name"]) for d in render()}
    assert ("StatefulSet", "t-perflab-mongodb") in names and ("StatefulSet", "t-perflab-redis") in names
    assert not any(n.endswith(("-mysql", "-smtp")) for _, n in names), names
    names = {(d["kind"], d["metadata"]["name"]) for d in render("services.shortener.enabled=false")}
    assert not any(n.endswith("-mongodb") for _, n in names), names
    assert "PERFLAB_GATEWAY_SERVICES_SHORTENER" not in env(render("services.shortener.enabled=false"), "gateway")


@test
def chart_managed_stores_use_official_images_pvcs_and_generated_secrets():
    docs = render()
    for store, image in [("mongodb", "mongo:8.0"), ("redis", "redis:7.4")]:
        sts = one(docs, "StatefulSet", f"t-perflab-{store}")
        assert sts["spec"]["template"]["spec"]["containers"][0]["image"] == image
        assert sts["spec"]["volumeClaimTemplates"][0]["spec"]["resources"]["requests"]["storage"]
        sec = one(docs, "Secret", f"t-perflab-{store}")
        assert len(__import__("base64").b64decode(sec["data"]["password"])) == 24
    docs = render(MAIL)
    mysql = env(docs, "mysql", "StatefulSet")
    assert container(docs, "mysql", "StatefulSet")["image"] == "mysql:8.4"
    assert mysql["MYSQL_ROOT_PASSWORD"]["secretKeyRef"]["key"] == "root-password"


@test
def external_stores_render_no_statefulset_and_read_credentials_from_existing_secrets():
    docs = render(values=(str(CHART / "ci" / "external-stores-values.yaml"),))
    assert not [d for d in docs if d["kind"] == "StatefulSet"]
    s = env(docs, "shortener")
    assert s["SPRING_MONGODB_URI"] == {"secretKeyRef": {"name": "perflab-mongodb-uri", "key": "uri"}}
    assert s["SPRING_DATA_REDIS_HOST"] == "redis.data.svc.cluster.local"
    assert s["SPRING_DATA_REDIS_PASSWORD"]["secretKeyRef"]["name"] == "perflab-redis-auth"
    assert not [d for d in docs if d["kind"] == "Secret"], "no chart Secret when every credential is external"
    assert "external.host is required" in refuses("stores.redis.deploy=false")
    uri = env(render("stores.mongodb.deploy=false", "stores.mongodb.external.uri=mongodb://m:27017/x"), "shortener")
    assert uri["SPRING_MONGODB_URI"] == "mongodb://m:27017/x"


# --- pods: labels, probes, security, shutdown ----------------------------------------------------------------------

@test
def every_object_carries_the_recommended_labels_and_no_namespace():
    for d in render(MAIL, values=(str(CHART / "ci" / "monitoring-values.yaml"),)):
        labels = d["metadata"]["labels"]
        for k in ["app.kubernetes.io/instance", "app.kubernetes.io/managed-by", "app.kubernetes.io/part-of",
                  "app.kubernetes.io/version", "helm.sh/chart"]:
            assert k in labels, (d["kind"], d["metadata"]["name"], k)
        assert "namespace" not in d["metadata"], (d["kind"], d["metadata"]["name"])
        if d["kind"] in ("Deployment", "StatefulSet"):
            sel = d["spec"]["selector"]["matchLabels"]
            assert sel.items() <= d["spec"]["template"]["metadata"]["labels"].items()
            assert set(sel) == {"app.kubernetes.io/name", "app.kubernetes.io/instance"}


@test
def probes_use_the_actuator_health_groups_on_the_service_port():
    docs = render()
    for svc in ["gateway", "shortener"]:
        c = container(docs, svc)
        assert c["ports"] == [{"name": "http", "containerPort": {"gateway": 8080, "shortener": 8084}[svc], "protocol": "TCP"}]
        assert c["startupProbe"]["httpGet"] == {"path": "/actuator/health/liveness", "port": "http"}
        assert c["livenessProbe"]["httpGet"] == {"path": "/actuator/health/liveness", "port": "http"}
        assert c["readinessProbe"]["httpGet"] == {"path": "/actuator/health/readiness", "port": "http"}
        assert c["startupProbe"]["failureThreshold"] * c["startupProbe"]["periodSeconds"] >= 120


@test
def termination_grace_outlasts_prestop_plus_the_20s_shutdown_phase():
    for svc in ["gateway", "shortener"]:
        d = one(render(), "Deployment", f"t-perflab-{svc}")["spec"]["template"]["spec"]
        pre = d["containers"][0]["lifecycle"]["preStop"]["sleep"]["seconds"]
        assert d["terminationGracePeriodSeconds"] > pre + 20, d["terminationGracePeriodSeconds"]
    refuses("terminationGracePeriodSeconds=20")


@test
def every_pod_is_non_root_read_only_without_capabilities_and_with_runtime_default_seccomp():
    for d in render(MAIL, "stores.smtp.deploy=true", "--set-json services.mail.stores=[\"mysql\",\"smtp\"]"):
        if d["kind"] not in ("Deployment", "StatefulSet"):
            continue
        pod = d["spec"]["template"]["spec"]
        assert pod["securityContext"]["runAsNonRoot"] is True
        assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
        assert pod["automountServiceAccountToken"] is False
        for c in pod["containers"]:
            sc = c["securityContext"]
            assert sc["readOnlyRootFilesystem"] is True and sc["allowPrivilegeEscalation"] is False, d["metadata"]["name"]
            assert sc["capabilities"] == {"drop": ["ALL"]}
            tmp = [m for m in c["volumeMounts"] if m["mountPath"] == "/tmp"]
            vols = {v["name"]: v for v in pod["volumes"]}
            assert tmp and "emptyDir" in vols[tmp[0]["name"]], d["metadata"]["name"]


@test
def hpa_replaces_replicas_and_can_scale_on_a_pods_metric():
    docs = render(values=(str(CHART / "ci" / "hpa-values.yaml"),))
    for svc in ["gateway", "shortener"]:
        assert "replicas" not in one(docs, "Deployment", f"t-perflab-{svc}")["spec"]
    gw = one(docs, "HorizontalPodAutoscaler", "t-perflab-gateway")["spec"]
    assert gw["metrics"][0]["resource"]["name"] == "cpu"
    assert gw["metrics"][1]["pods"]["metric"]["name"] == "http_server_requests_per_second"
    assert len(one(docs, "HorizontalPodAutoscaler", "t-perflab-shortener")["spec"]["metrics"]) == 1
    assert not [d for d in render() if d["kind"] == "HorizontalPodAutoscaler"]
    assert one(render(), "Deployment", "t-perflab-gateway")["spec"]["replicas"] == 2


@test
def pdb_per_service():
    pdb = one(render(), "PodDisruptionBudget", "t-perflab-shortener")["spec"]
    assert pdb == {"maxUnavailable": 1, "selector": {"matchLabels": {"app.kubernetes.io/name": "shortener", "app.kubernetes.io/instance": "t"}}}


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


@test
def network_policy_denies_by_default():
    deny = one(render(), "NetworkPolicy", "t-perflab-default-deny")["spec"]
    assert deny["policyTypes"] == ["Ingress", "Egress"] and "ingress" not in deny and "egress" not in deny
    assert deny["podSelector"]["matchLabels"]["app.kubernetes.io/instance"] == "t"


@test
def network_policy_lets_only_the_gateway_reach_the_services():
    docs = render(MAIL)
    for svc in ["shortener", "mail"]:
        ing = peers_names(one(docs, "NetworkPolicy", f"t-perflab-{svc}")["spec"]["ingress"])
        assert ing == {"http": {"gateway", "other"}}, (svc, ing)  # other = Prometheus (namespaceSelector)
        prom = one(docs, "NetworkPolicy", f"t-perflab-{svc}")["spec"]["ingress"][0]["from"][-1]
        assert prom["podSelector"]["matchLabels"] == {"app.kubernetes.io/name": "prometheus"}
    gw = one(docs, "NetworkPolicy", "t-perflab-gateway")["spec"]
    assert peers_names(gw["ingress"]) == {"http": {"*"}}, gw["ingress"]
    eg = peers_names(gw["egress"])
    assert eg[8084] == {"shortener"} and eg[8081] == {"mail"} and eg[6379] == {"redis"}, eg
    # services do not call each other unless allowFrom says so
    assert 8081 not in peers_names(one(docs, "NetworkPolicy", "t-perflab-shortener")["spec"]["egress"])
    docs = render(MAIL, "--set-json services.shortener.allowFrom=[\"mail\"]")
    assert peers_names(one(docs, "NetworkPolicy", "t-perflab-shortener")["spec"]["ingress"])["http"] >= {"gateway", "mail"}
    assert peers_names(one(docs, "NetworkPolicy", "t-perflab-mail")["spec"]["egress"])[8084] == {"shortener"}


@test
def network_policy_lets_only_the_services_reach_their_stores():
    docs = render(MAIL)
    want = {"mongodb": ({27017: {"shortener"}}), "redis": {6379: {"gateway", "shortener"}}, "mysql": {3306: {"mail"}}}
    for store, ing in want.items():
        np = one(docs, "NetworkPolicy", f"t-perflab-{store}")["spec"]
        assert peers_names(np["ingress"]) == ing, (store, np["ingress"])
        assert [p["port"] for p in np["egress"][0]["ports"]] == [53, 53]
        assert len(np["egress"]) == 1, "stores talk to nobody but DNS"
    eg = peers_names(one(docs, "NetworkPolicy", "t-perflab-shortener")["spec"]["egress"])
    assert eg == {53: {"other"}, 27017: {"mongodb"}, 6379: {"redis"}}, eg
    eg = peers_names(one(docs, "NetworkPolicy", "t-perflab-mail")["spec"]["egress"])
    assert eg == {53: {"other"}, 3306: {"mysql"}}, eg
    ext = render(values=(str(CHART / "ci" / "external-stores-values.yaml"),))
    np = one(ext, "NetworkPolicy", "t-perflab-shortener")["spec"]["egress"]
    assert {"ipBlock": {"cidr": "10.20.0.0/16"}} in [p for r in np for p in r.get("to", [])]
    assert not any(d["metadata"]["name"].endswith(("-mongodb", "-redis")) for d in ext if d["kind"] == "NetworkPolicy")


@test
def network_policy_can_be_switched_off():
    assert not [d for d in render("networkPolicy.enabled=false") if d["kind"] == "NetworkPolicy"]


# --- monitoring ----------------------------------------------------------------------------------------------------

@test
def monitoring_objects_carry_the_kube_prometheus_stack_release_label():
    assert not [d for d in render() if d["kind"] in ("ServiceMonitor", "PrometheusRule", "ConfigMap")]
    docs = render(values=(str(CHART / "ci" / "monitoring-values.yaml"),))
    sm = one(docs, "ServiceMonitor", "t-perflab-shortener")
    assert sm["metadata"]["labels"]["release"] == "prom"
    assert sm["spec"]["endpoints"][0]["path"] == "/actuator/prometheus" and sm["spec"]["endpoints"][0]["port"] == "http"
    rule = one(docs, "PrometheusRule", "t-perflab")
    assert rule["metadata"]["labels"]["release"] == "prom"
    alerts = {(g["name"], r["alert"]) for g in rule["spec"]["groups"] for r in g["rules"]}
    for svc in ["gateway", "shortener"]:
        for a in ["PerflabHigh5xxRate", "PerflabHighP99Latency", "PerflabPodRestarts"]:
            assert (f"perflab.{svc}", a) in alerts, alerts
    p99 = [r for g in rule["spec"]["groups"] for r in g["rules"] if r["alert"] == "PerflabHighP99Latency"][0]
    assert 'http_server_requests_seconds_bucket{namespace="lab", job="t-perflab-gateway"}' in p99["expr"] and "> 0.25" in p99["expr"], p99
    default = render("monitoring.serviceMonitor.enabled=true")
    assert one(default, "ServiceMonitor", "t-perflab-gateway")["metadata"]["labels"]["release"] == "kube-prometheus-stack"


@test
def a_dashboard_per_service_with_rate_latency_errors_heap_and_gc():
    docs = render(values=(str(CHART / "ci" / "monitoring-values.yaml"),))
    for svc in ["gateway", "shortener"]:
        cm = one(docs, "ConfigMap", f"t-perflab-{svc}-dashboard")
        assert cm["metadata"]["labels"]["grafana_dashboard"] == "1"
        dash = json.loads(cm["data"][f"perflab-{svc}.json"])
        exprs = " ".join(t["expr"] for p in dash["panels"] for t in p["targets"])
        for metric in ["http_server_requests_seconds_count", "http_server_requests_seconds_bucket",
                       'status=~"5.."', "jvm_memory_used_bytes", "jvm_gc_pause_seconds"]:
            assert metric in exprs, (svc, metric)
        assert f'job="t-perflab-{svc}"' in exprs and "__" not in json.dumps(dash).replace("$__rate_interval", "")
        assert dash["uid"] == f"perflab-{svc}"


# --- schema --------------------------------------------------------------------------------------------------------

@test
def schema_rejects_unknown_keys_everywhere():
    for s in ["replica=2", "services.shortener.replica=2", "services.shortener.jvm.heapSize=1g",
              "stores.redis.persistance.size=1Gi", "monitoring.serviceMonitors.enabled=true", "networkPolicy.enable=true"]:
        assert "not allowed" in refuses(s), s


# --- perflab-loadtest ----------------------------------------------------------------------------------------------

@test
def loadtest_ships_the_k6_scripts_and_points_the_testrun_at_the_gateway():
    lv = (str(LOADTEST / "ci" / "default-values.yaml"),)
    docs = render(chart=LOADTEST, values=lv, release="perflab-load")
    cm = one(docs, "ConfigMap", "perflab-load-scripts")
    assert (ROOT / "k6-tests/shortener/smoke.js").read_text() == cm["data"]["shortener__smoke.js"] + "\n" or \
        (ROOT / "k6-tests/shortener/smoke.js").read_text().rstrip("\n") == cm["data"]["shortener__smoke.js"]
    tr = one(docs, "TestRun", "perflab-load-shortener-smoke")["spec"]
    assert tr["script"] == {"localFile": "/k6/shortener/smoke.js"}
    e = {x["name"]: x.get("value", x.get("valueFrom")) for x in tr["runner"]["env"]}
    assert e["BASE_URL"] == "http://perflab-gateway:8080", e
    assert e["TOKEN"] == {"secretKeyRef": {"name": "perflab-k6-token", "key": "TOKEN"}}
    items = {i["path"] for v in tr["runner"]["volumes"] if "configMap" in v for i in v["configMap"]["items"]}
    assert {"shortener/smoke.js", "lib/config.js", "lib/summary.js"} <= items, items
    other = render("target.release=lab", chart=LOADTEST, values=lv)
    assert "http://lab-perflab-gateway:8080" in json.dumps(other)
    assert "token.existingSecret" in refuses(chart=LOADTEST, values=())
    assert "not under files/k6" in refuses("tests.shortener-smoke.script=shortener/missing.js", chart=LOADTEST, values=lv)


def main(argv):
    flt = argv[0] if argv else ""
    passed = failed = 0
    for fn in TESTS:
        if flt not in fn.__name__:
            continue
        try:
            fn()
            passed += 1
            print(f"  ok    {fn.__name__}")
        except Exception as e:  # noqa: BLE001 - report every failure, keep going
            failed += 1
            print(f"  FAIL  {fn.__name__}: {e}")
            if os.environ.get("VERBOSE"):
                traceback.print_exc()
    print(f"unit: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
