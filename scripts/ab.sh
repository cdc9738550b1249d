#!/usr/bin/env bash
# A/B of one lab switch on the local stack: the same k6 script on the same data, once per value, the service
# restarted with the switch in between, then one report (scripts/ab-report.py): an HTML page with plots (requests/s,
# latency percentiles over time, failures; the service's heap, GC and Hikari pool from Prometheus for the same
# windows) and a Markdown table of B/A ratios.
#
#   ab.sh SERVICE SWITCH A B SCRIPT [k6 args...]
#   e.g. AB_ENV=PERFLAB_ROUTE_BODYCACHE_MAXSIZE=0 AB_DIRECT=1 \
#        ab.sh route points-fetch jdbc-stream interface-projection k6-tests/route/readers.js -e ROUTE=1 -e MODE=sustained
#
# A is the design under test (usually the fixed default), B the other value; the service is left on its default.
# Results: $PERFLAB_RUN/results/<time>-<git rev>-ab-<service>-<switch>/ (report.html, report.md, summaries, meta).
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$PERFLAB_ROOT"
[ $# -ge 5 ] || { sed -n 2,12p "$0" >&2; exit 2; }
service=$1 switch=$2 a=$3 b=$4 script=$5; shift 5
[ -f "services/$service/service.env" ] || { log "no service $service (services/*/service.env)"; exit 2; }
curl -fs "http://127.0.0.1:$PERFLAB_PROMETHEUS_PORT/-/ready" >/dev/null || { log "the local Prometheus is not up: make up"; exit 1; }
# the env name Spring binds to perflab.<service>.<switch> (the chart's name for it too)
var="PERFLAB_${service^^}_$(tr -d '-' <<<"${switch^^}")"
rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
out="$PERFLAB_RUN/results/$(date +%Y%m%d-%H%M%S)-$rev-ab-$service-$switch"
mkdir -p "$out"
port_var=$(service_var "$service" PORT)

# AB_ENV="NAME=value ...": settings both arms run with (e.g. a cache off, so the switch's own path is measured)
read -ra both <<<"${AB_ENV:-}"
# AB_DIRECT=1: the script calls the service itself, not the gateway, whose own answers (route's points from its edge
# body cache) would hide the switch: BASE_URL is the service's port and IDENTITY a user identity signed with the local
# gateway key for it (the script must send it, as k6-tests/route's do)
if [ -n "${AB_DIRECT:-}" ]; then
  set -- "$@" -e BASE_URL="http://127.0.0.1:${!port_var}" \
    -e IDENTITY="$(scripts/jwt.sh identity perflab-gateway "${K6_USER:-alice}" 1 "$service" 3600)"
fi
restart() { # value ("" = the service's default, without AB_ENV)
  scripts/stack.sh stop "$service" >/dev/null
  if [ -n "$1" ]; then env "${both[@]}" "$var=$1" scripts/stack.sh start "$service" >/dev/null
  else scripts/stack.sh start "$service" >/dev/null; fi
}
trap 'restart "" || true' EXIT
# the time of the service's first successful scrape after SINCE (waits up to 30 s): every arm's window in Prometheus
# starts and ends with one, so its counters have a sample on each side of the load even when scrapes fail under it
scraped_after() { # SINCE
  # timestamp() of a bare selector is the sample's own time (of an expression it would be the query's)
  local q="timestamp(up{job=\"perflab-$service\"}) and up{job=\"perflab-$service\"} == 1" t
  for _ in $(seq 60); do
    t=$(curl -fsG "http://127.0.0.1:$PERFLAB_PROMETHEUS_PORT/api/v1/query" --data-urlencode "query=$q" |
      jq -r '.data.result[0].value[1] // 0')
    if awk -v t="$t" -v since="$1" 'BEGIN { exit !(t + 0 > since + 0) }'; then echo "$t"; return; fi
    sleep 0.5
  done
  log "Prometheus has not scraped $service since $1"; return 1
}

arms=()
for arm in A B; do
  value=$a; [ "$arm" = B ] && value=$b
  log "$arm: $service with $switch=$value"
  restart "$value"
  testid="ab-$(basename "$out")-$arm"
  start=$(scraped_after "$(date +%s.%N)")   # a first sample of the new instance, before the load
  status=0
  TESTID=$testid SUMMARY_OUT="$out" scripts/load.sh "$script" -e SUMMARY_NAME="$arm" "$@" >"$out/$arm.k6.txt" 2>&1 || status=$?
  end=$(date +%s.%N)
  log "$arm: k6 exit $status ($(tail -n 1 "$out/$arm.k6.txt" | cut -c1-100))"
  scraped=$(scraped_after "$end")   # one more scrape of the service before it restarts (the plots' last points)
  arms+=("$arm,$value,$testid,$start,$end,$status,$scraped")
done
AB_ENV=${AB_ENV:-} python3 - "$out/meta.json" "$service" "$switch" "$var" "$script" "$rev" "$PERFLAB_PROMETHEUS_PORT" "${arms[@]}" -- "$@" <<'PY'
import json, os, sys
path, service, switch, var, script, rev, port, *rest = sys.argv[1:]
arms, args = rest[:rest.index("--")], rest[rest.index("--") + 1:]
keys = ("arm", "value", "testid", "start", "end", "k6_exit", "scraped")
meta = {"service": service, "switch": switch, "env": var, "both": os.environ["AB_ENV"], "script": script, "args": args, "git": rev,
        "prometheus": f"http://127.0.0.1:{port}", "job": f"perflab-{service}",
        "arms": [dict(zip(keys, a.split(","))) for a in arms]}
for a in meta["arms"]:
    a["start"], a["end"], a["k6_exit"], a["scraped"] = float(a["start"]), float(a["end"]), int(a["k6_exit"]), float(a["scraped"])
json.dump(meta, open(path, "w"), indent=2)
PY
scripts/ab-report.py "$out"
log "report: $out/report.html (table: $out/report.md)"
echo "$out"
# an arm whose generator was short (scripts/generator.py's exit 75) makes the comparison inconclusive, not a result
for arm in "${arms[@]}"; do
  [ "$(cut -d, -f6 <<<"$arm")" != 75 ] || { log "inconclusive: arm ${arm%%,*}'s generator was short (see the report's Generator line)"; exit 75; }
done
