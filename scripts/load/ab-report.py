#!/usr/bin/env python3
"""The report of an A/B run (scripts/load/ab.sh) or of two runs side by side (make compare).

    ab-report.py DIR                 DIR holds meta.json and the load runner's A-summary.json / B-summary.json from
                                     scripts/load/ab.sh (in a cluster, Prometheus holds the arms' figures):
                                     writes DIR/report.md (B/A ratios) and DIR/report.html (the table and plots
                                     from Prometheus: requests/s, latency percentiles, failures, and the service's
                                     heap, GC time and Hikari pool over each arm's window)
    ab-report.py --compare A B       two result folders (scripts/load/load.sh runs): every summary both hold, side by side

Ratios are B/A: for a latency above 1 means B is slower, for a rate above 1 means B does more. The load figures are
the main phase's (a warm-up, which the runner labels apart, is left out), as the runner's thresholds judge them.
"""
import html
import json
import re
import sys
import urllib.parse
import urllib.request
from pathlib import Path

# (label, metric, value key, unit): read from a load runner summary (k6's shape), preferring the main phase's submetric
ROWS = [
    ("iterations/s", "iterations", "rate", "/s"),
    ("requests/s", "http_reqs", "rate", "/s"),
    ("failed requests", "http_req_failed", "rate", "share"),
    ("latency p50", "http_req_duration", "med", "ms"),
    ("latency p95", "http_req_duration", "p(95)", "ms"),
    ("latency p99", "http_req_duration", "p(99)", "ms"),
    ("latency max", "http_req_duration", "max", "ms"),
    ("checks passed", "checks", "rate", "share"),
    ("dropped iterations", "dropped_iterations", "count", ""),
]

# the arm's main phase in the load runner's series (scripts/load/ab.sh gives every arm a testid of its own)
MAIN = 'testid="$testid",phase="main"'
# (title, PromQL with $testid / $job, unit): plotted per arm over its window
PLOTS = [
    ("Requests per second", f'sum(rate(perflab_load_http_reqs_total{{{MAIN}}}[15s]))', "/s"),
    ("Latency p50", f'histogram_quantile(0.50, sum(rate(perflab_load_http_req_duration_seconds{{{MAIN}}}[30s]))) * 1000', "ms"),
    ("Latency p95", f'histogram_quantile(0.95, sum(rate(perflab_load_http_req_duration_seconds{{{MAIN}}}[30s]))) * 1000', "ms"),
    ("Latency p99", f'histogram_quantile(0.99, sum(rate(perflab_load_http_req_duration_seconds{{{MAIN}}}[30s]))) * 1000', "ms"),
    ("Failed requests per second", f'sum(rate(perflab_load_http_reqs_total{{{MAIN},expected_response="false"}}[15s])) or vector(0)', "/s"),
    ("Heap used (service)", 'sum(jvm_memory_used_bytes{job="$job",area="heap"}) / 1048576', "MiB"),
    ("GC pause time per second (service)", 'sum(rate(jvm_gc_pause_seconds_sum{job="$job"}[15s])) * 1000', "ms/s"),
    ("Hikari active connections (service)", 'sum(hikaricp_connections_active{job="$job"})', ""),
    ("Hikari pending threads (service)", 'sum(hikaricp_connections_pending{job="$job"})', ""),
]


def metric(summary, name, key):
    metrics = summary.get("metrics", {})
    for n in (f"{name}{{scenario:main}}", name):
        v = metrics.get(n, {}).get("values", {})
        if key in v:
            return v[key]
    return None


def ratio(a, b):
    if a is None or b is None or a == 0:
        return None
    return b / a


def fmt(v, unit=""):
    if v is None:
        return "–"
    if unit == "share":
        return f"{v * 100:.2f}%"
    return f"{v:,.1f}" if abs(v) < 100 else f"{v:,.0f}"


def table(a, b, label_a="A", label_b="B"):
    lines = [f"| measure | {label_a} | {label_b} | B/A |", "|---|---|---|---|"]
    ratios = {}
    for label, name, key, unit in ROWS:
        va, vb = metric(a, name, key), metric(b, name, key)
        if va is None and vb is None:
            continue
        r = ratio(va, vb)
        ratios[label] = r
        lines.append(f"| {label} | {fmt(va, unit)} {'' if unit == 'share' else unit} | {fmt(vb, unit)} "
                     f"{'' if unit == 'share' else unit} | {'–' if r is None else f'{r:.2f}'} |")
    return "\n".join(lines) + "\n", ratios


# (label, PromQL over one arm's window $w ending at its end, unit): the service's own cost per request, from its
# metrics (the arm's restart zeroes its counters, so the window holds that arm alone)
SERVICE_ROWS = [
    ("service time per request", 'sum(increase(http_server_requests_seconds_sum{job="$job"}[$w])) * 1000 '
                                 '/ sum(increase(http_server_requests_seconds_count{job="$job"}[$w]))', "ms"),
    ("allocated per request", 'sum(increase(jvm_gc_memory_allocated_bytes_total{job="$job"}[$w])) / 1024 '
                              '/ sum(increase(http_server_requests_seconds_count{job="$job"}[$w]))', "KiB"),
    ("GC pause per request", 'sum(increase(jvm_gc_pause_seconds_sum{job="$job"}[$w])) * 1000 '
                             '/ sum(increase(http_server_requests_seconds_count{job="$job"}[$w]))', "ms"),
    ("heap used, max", 'max(max_over_time(jvm_memory_used_bytes{job="$job",area="heap"}[$w])) / 1048576', "MiB"),
    ("Hikari pending, max", 'max(max_over_time(hikaricp_connections_pending{job="$job"}[$w]))', ""),
]


# In a cluster (meta["cluster"]): the load figures from what the runners remote-wrote, each series cumulative from
# its runner's start and the run's alone (its testid): its last sample, read at the window's end (20 s after the
# runners' last push, within Prometheus' 5 min lookback), is the run's exact total, as the runner's verdict reads it,
# where increase() would lose what came before the first push (and Prometheus 2.42's range functions read a native
# histogram as 0). The native histograms summed over runners give exact percentiles across them. Rates per second
# of the arm's window, as the runner's summary divides by its whole run.
# The service's and the runners' CPU from the kubelets' cAdvisor (each pod's own cgroup, container="", as the
# loadtest chart's verdict reads it), per request of every phase: the CPU window holds the warm-up too.
REQS, DURATIONS = "perflab_load_http_reqs_total", "perflab_load_http_req_duration_seconds"
CLUSTER_LOAD = [
    ("iterations", "rate", f'sum(perflab_load_iterations_total{{{MAIN}}}) / $secs'),
    ("http_reqs", "rate", f'sum({REQS}{{{MAIN}}}) / $secs'),
    ("http_req_failed", "rate", f'(sum({REQS}{{{MAIN},expected_response="false"}}) or vector(0))'
                                f' / sum({REQS}{{{MAIN}}})'),
    ("http_req_duration", "med", f'histogram_quantile(0.50, sum({DURATIONS}{{{MAIN}}})) * 1000'),
    ("http_req_duration", "p(95)", f'histogram_quantile(0.95, sum({DURATIONS}{{{MAIN}}})) * 1000'),
    ("http_req_duration", "p(99)", f'histogram_quantile(0.99, sum({DURATIONS}{{{MAIN}}})) * 1000'),
    ("checks", "rate", f'sum(perflab_load_checks_total{{{MAIN},result="pass"}})'
                       f' / sum(perflab_load_checks_total{{{MAIN}}})'),
    ("dropped_iterations", "count", f'sum(perflab_load_dropped_iterations_total{{{MAIN}}}) or vector(0)'),
]
# the runners' pods: the Indexed Job's, <run>-<index>-<suffix>
RUNNER_PODS = 'pod=~"$run-[0-9]+-.*"'
ALL_REQUESTS = f'sum({REQS}{{testid="$testid"}})'
CLUSTER_ROWS = [
    ("service CPU per request", 'sum(max by (pod) (increase(container_cpu_usage_seconds_total{namespace="$ns",pod=~"$release-$service-.*",container=""}[$w])))'
                                f' * 1000 / {ALL_REQUESTS}', "ms"),
    ("gateway CPU per request", 'sum(max by (pod) (increase(container_cpu_usage_seconds_total{namespace="$ns",pod=~"$release-gateway-.*",container=""}[$w])))'
                                f' * 1000 / {ALL_REQUESTS}', "ms"),
    ("runners' CPU per request", f'sum(max by (pod) (increase(container_cpu_usage_seconds_total{{namespace="$ns",{RUNNER_PODS},container=""}}[$w])))'
                                 f' * 1000 / {ALL_REQUESTS}', "ms"),
]
CLUSTER_PLOTS = [
    ("CPU of the service's pods", 'sum(max by (pod) (rate(container_cpu_usage_seconds_total{namespace="$ns",pod=~"$release-$service-.*",container=""}[30s])))', "cores"),
    ("CPU of the runners", f'sum(max by (pod) (rate(container_cpu_usage_seconds_total{{namespace="$ns",{RUNNER_PODS},container=""}}[30s])))', "cores"),
]


def cluster_expr(expr, meta, arm):
    c = meta["cluster"]
    w, _ = window(arm)
    return (expr.replace("$testid", arm["testid"]).replace("$ns", c["namespace"]).replace("$release", c["release"])
            .replace("$service", meta["service"]).replace("$run", arm.get("run", arm["testid"])).replace("$w", w)
            .replace("$secs", f"{arm['end'] - arm['start']:.3f}"))


def cluster_summary(meta, arm):
    """An arm's load figures in a runner summary's shape (k6's), from Prometheus."""
    metrics = {}
    for name, key, expr in CLUSTER_LOAD:
        v = query_at(meta["prometheus"], cluster_expr(expr, meta, arm), window(arm)[1])
        if v is not None:
            metrics.setdefault(name, {"values": {}})["values"][key] = v
    if "http_reqs" not in metrics:
        sys.exit(f"arm {arm['arm']}: Prometheus holds no request of run {arm['testid']}")
    return {"metrics": metrics}


def prom_rows(meta, a, b, specs, expr_of, suffix=""):
    """Table lines and B/A ratios of figures Prometheus gives per arm: specs (label, PromQL, unit), expr_of(PromQL, arm)
    the arm's query, read at the end of its window."""
    lines, ratios = [], {}
    for label, expr, unit in specs:
        vals = [query_at(meta["prometheus"], expr_of(expr, arm), window(arm)[1]) for arm in (a, b)]
        if vals == [None, None]:
            continue
        r = ratio(*vals)
        ratios[label] = r
        lines.append(f"| {label}{suffix} | {fmt(vals[0])} {unit} | {fmt(vals[1])} {unit} | {'–' if r is None else f'{r:.2f}'} |")
    return lines, ratios


def cluster_rows(meta, a, b):
    return prom_rows(meta, a, b, CLUSTER_ROWS, lambda expr, arm: cluster_expr(expr, meta, arm))


def query_at(prometheus, expr, at):
    url = f"{prometheus}/api/v1/query?" + urllib.parse.urlencode({"query": expr, "time": f"{at:.3f}"})
    with urllib.request.urlopen(url, timeout=20) as r:
        result = json.load(r)["data"]["result"]
    return float(result[0]["value"][1]) if result else None


def window(arm):
    """(range, evaluation time) of an arm: from the service's scrape before its load to the one after it, both in."""
    return f"{int(arm['scraped'] - arm['start'] + 2)}s", arm["scraped"] + 0.5


def switch_in_effect(meta, arm):
    """The value the service reported for the switch during the arm (perflab_lab_switch_info), None if it exports none."""
    w, at = window(arm)
    q = f'count by (value) (last_over_time(perflab_lab_switch_info{{job="{meta["job"]}",switch="{meta["switch"]}"}}[{w}]))'
    url = f"{meta['prometheus']}/api/v1/query?" + urllib.parse.urlencode({"query": q, "time": f"{at:.3f}"})
    with urllib.request.urlopen(url, timeout=20) as r:
        values = [x["metric"].get("value") for x in json.load(r)["data"]["result"]]
    return values


def service_rows(meta, a, b):
    return prom_rows(meta, a, b, SERVICE_ROWS,
                     lambda expr, arm: expr.replace("$job", meta["job"]).replace("$w", window(arm)[0]), " (service)")


def query_range(prometheus, expr, start, end, step=2):
    url = f"{prometheus}/api/v1/query_range?" + urllib.parse.urlencode(
        {"query": expr, "start": f"{start:.3f}", "end": f"{end:.3f}", "step": step})
    with urllib.request.urlopen(url, timeout=20) as r:
        result = json.load(r)["data"]["result"]
    if not result:
        return []
    return [(float(t) - start, float(v)) for t, v in result[0]["values"]]


def svg_plot(title, unit, series, width=560, height=200):
    """series: [(label, color, [(x, y)])] -> an inline SVG line chart."""
    pts = [p for _, _, s in series for p in s]
    pad_l, pad_b, pad_t = 56, 24, 22
    w, h = width - pad_l - 10, height - pad_b - pad_t
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="11">',
           f'<text x="{pad_l}" y="14" font-weight="bold">{html.escape(title)}{f" ({unit})" if unit else ""}</text>']
    if not pts:
        out.append(f'<text x="{pad_l}" y="{pad_t + h / 2}">no data</text></svg>')
        return "".join(out)
    xmax = max(x for x, _ in pts) or 1
    ymax = max(y for _, y in pts) or 1
    out.append(f'<rect x="{pad_l}" y="{pad_t}" width="{w}" height="{h}" fill="none" stroke="#ccc"/>')
    for i in range(5):
        y = pad_t + h - h * i / 4
        out.append(f'<text x="{pad_l - 4}" y="{y + 4:.1f}" text-anchor="end">{fmt(ymax * i / 4)}</text>')
    out.append(f'<text x="{pad_l + w}" y="{height - 6}" text-anchor="end">{xmax:.0f} s</text>')
    for k, (label, color, s) in enumerate(series):
        if s:
            path = " ".join(f"{pad_l + w * x / xmax:.1f},{pad_t + h - h * y / ymax:.1f}" for x, y in s)
            out.append(f'<polyline fill="none" stroke="{color}" stroke-width="1.6" points="{path}"/>')
        out.append(f'<text x="{pad_l + 8 + 150 * k}" y="{pad_t + 14}" fill="{color}">{html.escape(label)}</text>')
    out.append("</svg>")
    return "".join(out)


def generator_line(folder, arms):
    """Each arm's verdict with its generator's health (scripts/lib/generator.py, or in a cluster the verdict pod's lines):
    a starved arm compares nothing."""
    parts, starved = [], []
    for k in sorted(arms):
        v = folder / f"{k}.verdict.txt"
        if v.exists():  # the verdict pod's own lines in helm test's log: "generator: ..." and "verdict: ..."
            lines = re.findall(r"(?m)^((?:generator|verdict): .*?)\s*$", v.read_text())
            parts.append(f"{k}: " + "; ".join(lines) if lines else f"{k}: no verdict")
            if arms[k]["exit"] == 75:
                starved.append(k)
            continue
        f = folder / f"{k}-generator.json"
        if not f.exists():
            parts.append(f"{k}: no generator record")
            continue
        g = json.loads(f.read_text())
        parts.append(f"{k}: {g['verdict']} (generator on {g['where']}: CPU peak {g['cpuPeak']:.0%} of {g['cpus']:g}, "
                     f"{g['droppedIterations']} dropped iterations)")
        if g["verdict"] == "inconclusive":
            starved.append(k)
    line = "Generator: " + "; ".join(parts) + "."
    if starved:
        line += f" **Inconclusive: the generator was short in arm {', '.join(starved)}; the ratios below measure it, not the system.**"
    return line


def ab(folder):
    meta = json.loads((folder / "meta.json").read_text())
    arms = {a["arm"]: a for a in meta["arms"]}
    a, b = arms["A"], arms["B"]
    cluster = meta.get("cluster")
    if cluster:
        summaries = {k: cluster_summary(meta, arm) for k, arm in arms.items()}
    else:
        summaries = {k: json.loads((folder / f"{k}-summary.json").read_text()) for k in arms
                     if (folder / f"{k}-summary.json").exists()}
    if set(summaries) != {"A", "B"}:
        sys.exit(f"{folder}: an arm left no summary (see A.load.txt / B.load.txt)")
    label_a, label_b = f"A: {a['value']}", f"B: {b['value']}"
    # the service's own word for which design answered each arm: a run whose switch did not flip compares nothing
    for arm in (a, b):
        seen = [] if cluster else switch_in_effect(meta, arm)
        arm["in_effect"] = seen
        if seen and seen != [arm["value"]]:
            sys.exit(f"arm {arm['arm']}: {meta['service']} reported {meta['switch']}={seen}, not {arm['value']}")
    md, ratios = table(summaries["A"], summaries["B"], label_a, label_b)
    extra, service_ratios = cluster_rows(meta, a, b) if cluster else service_rows(meta, a, b)
    md += "\n".join(extra) + ("\n" if extra else "")
    ratios.update({k if cluster else f"{k} (service)": v for k, v in service_ratios.items()})
    where = (f"; in a cluster: release {cluster['release']} ({cluster['namespace']}), `{cluster['key']}` set by helm upgrade,"
             f" loadtest test {cluster['test']}" if cluster else "")
    head = (f"# A/B: {meta['service']} `{meta['switch']}` ({meta['env']})\n\n"
            f"`{meta['scenario']} {' '.join(meta['args'])}` at git {meta['git']}"
            f"{'; both arms with ' + meta['both'] if meta.get('both') else ''}{where}; exit codes A {a['exit']}, B {b['exit']}"
            f"{'; in effect (perflab_lab_switch_info): A ' + ','.join(a['in_effect']) + ', B ' + ','.join(b['in_effect']) if a['in_effect'] and b['in_effect'] else ''}.\n\n")
    head += generator_line(folder, arms) + "\n\n"
    (folder / "report.md").write_text(head + md)
    (folder / "ratios.json").write_text(json.dumps(ratios, indent=2))
    plots = []
    for title, expr, unit in (PLOTS[:5] + CLUSTER_PLOTS if cluster else PLOTS):
        series = []
        for arm, color in ((a, "#1f77b4"), (b, "#d62728")):
            q = cluster_expr(expr, meta, arm) if cluster else expr.replace("$testid", arm["testid"]).replace("$job", meta["job"])
            try:
                s = query_range(meta["prometheus"], q, arm["start"], arm["scraped"])
            except Exception as e:  # a plot Prometheus cannot answer says so; the table stands on the summaries
                s = []
                title = f"{title} [query failed: {e}]"
            series.append((f"{arm['arm']}: {arm['value']}", color, s))
        plots.append(svg_plot(title, unit, series))
    rows = "".join(f"<tr>{''.join(f'<td>{html.escape(c.strip())}</td>' for c in line.strip('|').split('|'))}</tr>"
                   for line in md.splitlines()[2:])
    page = f"""<!doctype html><html><head><meta charset="utf-8"><title>A/B {html.escape(meta['service'])} {html.escape(meta['switch'])}</title>
<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:4px 8px;text-align:right}}
td:first-child{{text-align:left}}.plots{{display:flex;flex-wrap:wrap;gap:12px}}</style></head><body>
<h1>A/B: {html.escape(meta['service'])} <code>{html.escape(meta['switch'])}</code></h1>
<p><code>{html.escape(meta['scenario'])} {html.escape(' '.join(meta['args']))}</code>, git {html.escape(meta['git'])},
exit A {a['exit']} / B {b['exit']}. Ratios are B/A. Plots: seconds from each arm's start, from Prometheus
(the load runner's remote write, its run's testid and main phase, and the service's own metrics).</p>
<table><tr><th>measure</th><th>{html.escape(label_a)}</th><th>{html.escape(label_b)}</th><th>B/A</th></tr>{rows}</table>
<div class="plots">{''.join(plots)}</div></body></html>
"""
    (folder / "report.html").write_text(page)
    print(head + md)


def compare(da, db):
    out = [f"# {da.name} vs {db.name}\n"]
    for fa in sorted(da.glob("*-summary.json")):
        fb = db / fa.name
        if fb.exists():
            md, _ = table(json.loads(fa.read_text()), json.loads(fb.read_text()), da.name, db.name)
            out.append(f"## {fa.name.removesuffix('-summary.json')}\n\n{md}")
    if len(out) == 1:
        sys.exit(f"{da} and {db} hold no summary of the same name")
    print("\n".join(out))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--compare":
        compare(Path(sys.argv[2]), Path(sys.argv[3]))
    elif len(sys.argv) == 2:
        ab(Path(sys.argv[1]))
    else:
        sys.exit(__doc__)
