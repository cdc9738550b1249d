{{- /* The gateway's routes ConfigMap data: one `<key>.yaml` per enabled service, in the file format the gateway reads
       from PERFLAB_GATEWAY_ROUTES_DIR. A service's routes are its file config/gateway/routes/<key>.yaml (shipped as
       files/routes/, the one source the local stack and the gateway tests read too), or `services.<key>.routes`
       when set. Either states only what differs from the gateway's defaults (a limit class in `rate-limit`
       metadata, a `response-timeout` of its own): the gateway adds the limiter and its rates itself, so nothing
       here fills in a route. */}}
{{- define "perflab.gatewayRoutes" -}}
{{- $root := . }}
{{- range $name := include "perflab.enabledServices" $root | fromJsonArray }}
{{- $override := (index $root.Values.services $name).routes }}
{{- $file := $root.Files.Get (printf "files/routes/%s.yaml" $name) }}
{{- if $override }}
{{ printf "%s.yaml" $name }}: |
{{ toYaml (dict "routes" $override) | indent 2 }}
{{- else if $file }}
{{ printf "%s.yaml" $name }}: |
{{ $file | indent 2 }}
{{- end }}
{{- end }}
{{- end }}
