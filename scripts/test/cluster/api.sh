# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153 # a part of the cluster checks: its globals are set in one part and read in another
# The chart's API through the gateway's Service (GW, a port-forward): its pods Ready, a short link and its redirect,
# actuator kept off the gateway, a mail list, a route's points, helm test, a shortener pod deleted under load, the seed
# Job's claim. Sourced by scripts/test/cluster-check.sh and scripts/test/test-node.sh (cluster/lib.sh first).

service_pods_ready() {  # one Deployment for each of services.* the release enables (the gateway too), every replica a Ready pod
  local want ready deployments enabled
  enabled="$(helmc get values "$RELEASE" -n "$NS" --all -o json | jq '[.services[] | select(.enabled != false)] | length')"
  deployments="$(kube -n "$NS" get deploy -l app.kubernetes.io/instance="$RELEASE",app.kubernetes.io/component=service -o name | grep -c .)"
  want="$(kube -n "$NS" get deploy -l app.kubernetes.io/instance="$RELEASE",app.kubernetes.io/component=service \
    -o jsonpath='{range .items[*]}{.spec.replicas}{"\n"}{end}' | awk '{s += $1} END {print s + 0}')"
  ready="$(kube -n "$NS" get pods -l app.kubernetes.io/instance="$RELEASE",app.kubernetes.io/component=service \
    -o jsonpath='{range .items[*]}{.status.conditions[?(@.type=="Ready")].status}{"\n"}{end}' | grep -c True)"
  echo "  $deployments Deployments (the $enabled the values enable: the gateway and services), $ready of $want pods Ready"
  [ "$deployments" -eq "$enabled" ] && [ "$want" -ge "$deployments" ] && [ "$ready" -eq "$want" ] \
    || { echo "  expected $enabled Deployments and $want Ready service pods, got $deployments and $ready"; return 1; }
}

actuator_not_public() {  # actuator lives on the management port, never behind the gateway
  local code; code="$(curl_gw -o /dev/null -w '%{http_code}' "$GW/actuator/prometheus" -H "Authorization: Bearer $TOKEN")"
  echo "  GET /actuator/prometheus through the gateway: $code"
  [ "$code" = 404 ]
}

short_link_and_redirect() {
  local body code loc
  body="$(curl_gw -XPOST "$GW/v1/short-links" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    -d '{"url":"https://example.com/real-node"}')" || return 1
  code="$(jq -nr 'input.code // error("no code")' <<<"$body")" || { echo "  $body"; return 1; }
  loc="$(curl_gw -o /dev/null -w '%{http_code} %{redirect_url}' "$GW/s/$code")"
  echo "  created $code; GET /s/$code: $loc"
  [ "$loc" = "302 https://example.com/real-node" ] || return 1
  echo "$code" >"$WORK/code"
}

mail_list() {
  local out
  out="$(curl_gw -w '\n%{http_code}' "$GW/v2/mails?size=5" -H "Authorization: Bearer $TOKEN")" || return 1
  echo "  GET /v2/mails?size=5: $(tail -1 <<<"$out"), $(head -1 <<<"$out" | cut -c1-100)..."
  [ "$(tail -1 <<<"$out")" = 200 ] || return 1
  # a release whose seed Job ran (seed.enabled) lists mails; one without it an empty list
  if [ "$(helmc get values "$RELEASE" -n "$NS" --all -o json | jq '.seed.enabled')" = true ]; then
    head -1 <<<"$out" | grep -q '"mails":\[{"no":'
  else
    head -1 <<<"$out" | grep -q '"mails":\['
  fi
}

route_points() {  # a route created through the gateway, its points streamed back (gzip) by the route pod from MySQL
  local body id out n
  body="$(python3 -c '
import json, math
pts, lat, lng, h = [], 37.5, 127.0, 0.3
for i in range(2000):
    h += math.sin(i * 0.37) * 0.1; lat += math.cos(h) * 0.00005; lng += math.sin(h) * 0.00006
    pts.append({"lat": round(lat, 7), "lng": round(lng, 7)})
print(json.dumps({"name": "node test", "bus": "bus-1", "points": pts,
                  "stops": [{"name": "first", **pts[0]}, {"name": "last", **pts[-1]}]}))')"
  out="$(curl_gw -XPOST "$GW/v1/routes" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d "$body" -w '\n%{http_code}')"
  [ "$(tail -n 1 <<<"$out")" = 201 ] || { echo "  create: $out" | head -c 400; return 1; }
  id="$(head -n 1 <<<"$out" | jq -nr 'input.id // error("no id")')"
  curl_gw --compressed "$GW/v1/routes/$id/points" -H "Authorization: Bearer $TOKEN" -o "$WORK/points.json" || return 1
  n="$(jq -n 'input | length' "$WORK/points.json")" || return 1
  echo "  route $id streamed back $n points"
  [ "$n" = 2000 ]
}

helm_test() {
  helmc test "$RELEASE" -n "$NS" --timeout 2m >"$WORK/helm-test.out" 2>&1; local rc=$?
  grep -E 'TEST SUITE|Phase' "$WORK/helm-test.out" | sed 's/^/  /'
  [ $rc -eq 0 ] || cat "$WORK/helm-test.out"
  return $rc
}

seed_job_filled_the_claim() {  # the hook Job ran to completion (helm install waits for it) against the host's MySQL
  # and wrote the seed's EML files onto mail's claim, which the mail pod reads them from
  local phase files
  phase="$(kube -n "$NS" get pvc "$RELEASE-mail" -o jsonpath='{.status.phase} {.spec.volumeName}')"
  files="$(kube -n "$NS" exec deploy/"$RELEASE"-mail -- sh -c 'ls -la /var/lib/perflab/mail/seed' 2>&1)"
  echo "  claim $RELEASE-mail: $phase; on it:"; sed 's/^/    /' <<<"$files"
  [[ "$phase" == Bound* ]] && [ "$(grep -c '\.eml$' <<<"$files")" -ge 3 ]
}

pod_deleted_under_load() {  # the load goes to the gateway's Service address, as a caller in the cluster (a runner
  # of the loadtest chart) would: kube-proxy's rules serve it from the node too, and kubectl port-forward (one tunnel
  # through the API server and the kubelet) is not part of what is proven here
  local victim rc gw
  # CLUSTER_LOAD_URL: where the load goes instead, when this host cannot reach a Service address (the port-forward)
  gw="${CLUSTER_LOAD_URL:-http://$(kube -n "$NS" get svc "$RELEASE-gateway" -o jsonpath='{.spec.clusterIP}'):8080}"
  # a pod that is live now: right after a rollout (the AOT step's) the old pods may still be terminating, and one of
  # those, picked by list order, is gone before it can be deleted (seen: NotFound)
  settled shortener || return 1
  victim="$(live_pods shortener | sed -n 1p)"   # sed reads every line: head would cut the writer off mid-list
  [ -n "$victim" ] || { echo "  no live shortener pod"; return 1; }
  # judged on what it claims, no failed request and every request made; its latency is printed, not judged: the
  # replacement pod's JVM starts on the same two vCPUs as the pod left serving (a clean-clone run: p99 over the
  # reads profile's 1 s, max 2.2 s, while 0 of 994 requests failed; the next run here: max 309 ms)
  load_runner run shortener-reads LATENCY=printed BASE_URL="$gw" TOKEN="$TOKEN" CODE="$(cat "$WORK/code")" \
    RATE=40 DURATION=25s SUMMARY_DIR="$WORK" SUMMARY_NAME=deleted >"$WORK/deleted.out" 2>&1 &
  local runner=$!
  sleep 5   # the reads under way on both pods; one is then deleted and drains while the other serves
  kube -n "$NS" delete pod "$victim" --wait=false >/dev/null || return 1
  echo "  deleted $victim under 40 reads/s at $gw"
  wait $runner; rc=$?
  grep -E '^  (http_req_failed|checks) ' "$WORK/deleted.out" | sed 's/^/ /'
  reads_whole deleted 40 25 || rc=1
  if [ "$rc" -ne 0 ]; then  # what the gateway saw: its warnings and errors, and the answers that were not 200
    kube -n "$NS" logs deploy/"$RELEASE"-gateway --since=2m \
      | grep -E '"level":"(WARN|ERROR)"|"message":"GET /v1/short-links/[^ ]* [^2]' | cut -c1-600 | tail -8 | sed 's/^/   gateway: /'
  fi
  kube -n "$NS" rollout status deploy/"$RELEASE"-shortener --timeout 120s >/dev/null && settled shortener || return 1
  echo "  shortener back to $(kube -n "$NS" get deploy "$RELEASE"-shortener -o jsonpath='{.status.readyReplicas}') ready replicas"
  return $rc
}

