# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153 # a part of the cluster checks: its globals are set in one part and read in another
# NetworkPolicy enforced: probes from a throwaway pod, refused or answered as the policies say (sourced by
# scripts/test/cluster-check.sh and scripts/test/test-node.sh, scripts/test/cluster/lib.sh first). PROBE_IMAGE: the probe
# pod's image (sh and curl); NP_BLOCKED: what a blocked probe may read, `refused` where the policy controller REJECTs
# (kube-router), `refused|timeout` where it may drop.
# NetworkPolicy enforced (charts/perflab/templates/networkpolicy.yaml). Each probe is one curl bounded to 2 s, answered
# "refused" (curl's exit 7: kube-router REJECTs what no policy allows, so a refusal is immediate), "timeout" (exit 28:
# a controller that drops) or by the HTTP status the server gave. One throwaway pod on the load pool when there is one
# (its traffic crosses from another node), in namespace `monitoring` with no label any policy names; later labelled as
# the values' Prometheus (networkPolicy.prometheus: namespace monitoring, app.kubernetes.io/name=prometheus).
NP_NS=monitoring NP_POD=np-probe NP_NS_MADE=""
NP_BLOCKED="${NP_BLOCKED:-refused}"
NP_JOB="/internal/jobs/np-probe-0000000000000000"
np_probe() {  # NS POD [METHOD URL]...: one exec, one line per URL: "URL refused" or "URL <status>" (or "URL exit N")
  local ns=$1 pod=$2; shift 2
  # shellcheck disable=SC2016 # run by the pod's sh, which expands it
  kube -n "$ns" exec "$pod" -- sh -c 'while [ $# -gt 1 ]; do
      c=$(curl -s -o /dev/null --connect-timeout 2 -m 2 -X "$1" -H "Content-Type: application/json" -d "{}" -w "%{http_code}" "$2"); e=$?
      if [ $e -eq 7 ]; then echo "$2 refused"; elif [ $e -eq 28 ]; then echo "$2 timeout"; elif [ $e -eq 0 ]; then echo "$2 $c"; else echo "$2 exit $e"; fi; shift 2
    done' sh "$@"
}
np_targets() {  # KIND (http|management) [PATH]: "GET URL" pairs for the gateway and every service, from their Services
  # (http: PATH, /v2/mails by default, which the gateway's edge auth answers 401 without a token)
  kube -n "$NS" get svc -l app.kubernetes.io/instance="$RELEASE",app.kubernetes.io/component=service \
    -o jsonpath='{range .items[*]}{.metadata.name} {.spec.ports[?(@.name=="http")].port} {.spec.ports[?(@.name=="management")].port}{"\n"}{end}' \
    | while read -r svc http mgmt; do
        if [ "$1" = http ]; then echo "GET http://$svc.$NS:$http${2:-/v2/mails}"; else echo "GET http://$svc.$NS:$mgmt/actuator/prometheus"; fi
      done
}
np_expect() {  # LINES WANT: each of LINES (np_probe's) says exactly WANT (refused: one of NP_BLOCKED), and there is at least one
  local bad want="^($2)\$"; [ "$2" != refused ] || want="^($NP_BLOCKED)\$"
  bad="$(awk -v want="$want" 'NF { n++; if (!($2 ~ want && NF == 2)) print } END { if (!n) print "(no probe)" }' <<<"$1")"
  [ -z "$bad" ] || { echo "  expected $2:"; sed 's/^/    /' <<<"$bad"; return 1; }
}

np_unlabelled() {
  kube get namespace "$NP_NS" >/dev/null 2>&1 || { kube create namespace "$NP_NS" >/dev/null && NP_NS_MADE=1; }
  local place=""
  [ -z "$(kube get nodes -l perflab.dev/pool=load -o name)" ] || place='nodeSelector: { perflab.dev/pool: load }
  tolerations: [{ key: perflab.dev/pool, operator: Equal, value: load, effect: NoSchedule }]'
  kube -n "$NP_NS" apply -f - >/dev/null <<YAML || return 1
apiVersion: v1
kind: Pod
metadata: { name: $NP_POD }
spec:
  $place
  terminationGracePeriodSeconds: 0
  containers:
    - { name: c, image: "${PROBE_IMAGE:-$BASE}", command: [sleep, "600"] }
YAML
  kube -n "$NP_NS" wait --for=condition=Ready "pod/$NP_POD" --timeout=90s >/dev/null || return 1
  local gw="http://$RELEASE-gateway.$NS:8080/v2/mails" out
  # shellcheck disable=SC2046
  out="$(np_probe "$NP_NS" "$NP_POD" $(np_targets http) $(np_targets management))" || return 1
  sed 's/^/  /' <<<"$out"
  # the gateway's http is open to any source (networkPolicy.gatewayFrom empty): its edge auth answers, 401
  np_expect "$(grep -F "$gw " <<<"$out")" 401 \
    && np_expect "$(grep -F /v2/mails <<<"$out" | grep -vF "$gw ")" refused \
    && np_expect "$(grep -F /actuator/prometheus <<<"$out")" refused
}

np_prometheus() {
  kube -n "$NP_NS" label pod "$NP_POD" app.kubernetes.io/name=prometheus >/dev/null || return 1
  local out="" end=$((SECONDS + 30)) gw="http://$RELEASE-gateway.$NS:8080/v2/mails"
  # the controller adds the pod to the policies' sets on the label's event: poll until every management port answers
  while :; do
    # shellcheck disable=SC2046
    out="$(np_probe "$NP_NS" "$NP_POD" $(np_targets management) $(np_targets http))" || return 1
    np_expect "$(grep -F /actuator/prometheus <<<"$out")" 200 >/dev/null && break
    [ $SECONDS -lt $end ] || break
    sleep 0.5
  done
  sed 's/^/  /' <<<"$out"
  np_expect "$(grep -F /actuator/prometheus <<<"$out")" 200 \
    && np_expect "$(grep -F /v2/mails <<<"$out" | grep -vF "$gw ")" refused
}

np_release_pods() {
  # shellcheck disable=SC2155 # the port lookup's status was never acted on: the probes below report what the URL reaches
  local out rc=0 send="http://$RELEASE-send.$NS:$(kube -n "$NS" get svc "$RELEASE-send" -o jsonpath='{.spec.ports[?(@.name=="http")].port}')$NP_JOB"
  kube -n "$NP_NS" delete pod "$NP_POD" --wait=false >/dev/null 2>&1
  [ -z "$NP_NS_MADE" ] || kube delete namespace "$NP_NS" --wait=false >/dev/null 2>&1
  # the gateway reaches every service's http: each service itself answers a path it does not serve, 404
  # shellcheck disable=SC2046
  out="$(np_probe "$NS" deploy/"$RELEASE"-gateway $(np_targets http /np-probe | grep -v "//$RELEASE-gateway\.") PUT "$send")" || return 1
  sed 's/^/  gateway: /' <<<"$out"
  np_expect "$(grep -F '/np-probe ' <<<"$out")" 404 || rc=1
  # send's job endpoint: mail reaches it (send's identity check answers, 401 without mail's token); route, a pod of
  # the release that send does not allow, is refused. From the gateway it is reached too and refused by the same
  # identity check, not by the network: the gateway must reach send's http port for GET /v2/mails/{no}/delivery.
  np_expect "$(grep -F "$NP_JOB" <<<"$out")" 401 || rc=1
  out="$(np_probe "$NS" deploy/"$RELEASE"-mail PUT "$send")" || return 1
  sed 's/^/  mail: /' <<<"$out"
  np_expect "$out" 401 || rc=1
  out="$(np_probe "$NS" deploy/"$RELEASE"-route PUT "$send")" || return 1
  sed 's/^/  route: /' <<<"$out"
  np_expect "$out" refused || rc=1
  return $rc
}
