# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153 # a part of test-node.sh: its globals are set in one part and read in another
# the API through the gateway's Service where it reaches the host's stores: an SMS at its sink, a send at its SMTP server,
# the callers' limits in its Redis (sourced by scripts/test/test-node.sh after scripts/test/cluster/api.sh)

notifier_sms() {  # a guestbook signing through the gateway: the notifier pod sends its SMS to the host's sink, once
  local before ev out nid status i
  before="$(curl -s "http://127.0.0.1:$PERFLAB_SMS_SINK_PORT/count" | jq -nr 'input.deliveries // error("no deliveries")')"
  ev="$(curl_gw -XPOST "$GW/v1/events" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d '{"title":"node test"}' \
    | jq -nr 'input.id // error("no id")')" || return 1
  out="$(curl_gw -XPOST "$GW/v1/events/$ev/guestbook" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    -d '{"name":"node","phone":"01055550000","message":"from the node test"}')" || return 1
  nid="$(jq -nr 'input.notification_id // error("no notification_id")' <<<"$out")" || { echo "  $out"; return 1; }
  for i in $(seq 1 60); do
    status="$(curl_gw "$GW/v1/notifications/$nid" -H "Authorization: Bearer $TOKEN" | jq -nr 'input.status // error("no status")')"
    [ "$status" = SENT ] && break
    sleep 0.5
  done
  local after; after="$(curl -s "http://127.0.0.1:$PERFLAB_SMS_SINK_PORT/count" | jq -nr 'input.deliveries // error("no deliveries")')"
  echo "  notification $nid: $status; SMS at the host's sink: $before -> $after"
  [ "$status" = SENT ] && [ "$after" -eq $((before + 1)) ]
}

limits_decided_in_redis() {  # the callers' limits decided in Redis, as the gateway's ACL user (redis_users): a command
  # of the bucket script that user may not run fails every decision into each replica's own share, silently (TIME did)
  local pod port=$((NODE_TEST_GATEWAY_PORT + 10)) pid metrics mode calls i
  pod="$(kube -n "$NS" get pods -l app.kubernetes.io/name=gateway --field-selector=status.phase=Running \
    -o jsonpath='{.items[0].metadata.name}')"
  forward port-forward-gateway-pod.log "http://127.0.0.1:$((port + 1))/actuator/health" "pod/$pod" "$port:8080" \
    "$((port + 1)):9080" || return 1
  pid=$FORWARD_PID
  for i in 1 2 3; do
    curl_gw -o /dev/null "http://127.0.0.1:$port/v2/mails?size=1" -H "Authorization: Bearer $TOKEN" || break
  done
  metrics="$(curl_gw "http://127.0.0.1:$((port + 1))/actuator/prometheus")"
  kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
  mode="$(awk '$1 == "perflab_gateway_rate_limiter_local" {print $2}' <<<"$metrics")"
  calls="$(awk '$1 ~ /^perflab_gateway_rate_limiter_redis_calls_total/ {print $2}' <<<"$metrics")"
  echo "  $pod after 3 API reads: perflab_gateway_rate_limiter_local ${mode:-absent}, Redis round trips ${calls:-absent}"
  [ "$mode" = 0.0 ] && awk -v c="${calls:-0}" 'BEGIN {exit !(c > 0)}'
}

# The send goes out as a sender nothing else in `make test` uses: office 2's user10 (account 20 of the seed). The node's
# mail pod counts recipients in the local stack's database, where the local suites send thousands as alice of office 1
# in the same hour: a sender of its own keeps the proof apart from them, whatever quota either runs at.
SENDER_LOGIN=user10 SENDER_OFFICE=2 SENDER_NO=20
send_reaches_smtp() {
  local subject body no token; subject="real-node $(date +%s%N)"
  token="$(scripts/lib/jwt.sh token "$SENDER_LOGIN" "$SENDER_OFFICE" 600)"
  body="$(curl_gw -XPOST "$GW/v2/mails/send" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d "{\"sender_no\":$SENDER_NO,\"to\":[\"node-test@example.com\"],\"subject\":\"$subject\",\"content\":\"sent by a pod\",
         \"important\":false,\"is_save\":true,\"is_separate_send\":false,\"is_encrypt\":false,\"is_receipt_confirm\":false}")" || return 1
  no="$(jq -nr 'input.mail_no // error("no mail_no")' <<<"$body")" || { echo "  $body"; return 1; }
  local end=$((SECONDS + 60)) status=""
  while [ $SECONDS -lt $end ]; do
    status="$(curl_gw "$GW/v2/mails/$no/delivery" -H "Authorization: Bearer $token")"
    if curl -s "http://127.0.0.1:$PERFLAB_SMTP_API_PORT/api/user/node-test@example.com/messages/INBOX/" | grep -qF "$subject"; then
      echo "  mail $no: in the SMTP server's inbox; delivery: $(cut -c1-160 <<<"$status")"
      return 0
    fi
    sleep 1
  done
  echo "  mail $no did not reach the SMTP server in 60 s; delivery: $status"
  return 1
}
