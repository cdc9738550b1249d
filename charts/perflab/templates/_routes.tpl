{{- /* The gateway's routes ConfigMap data: one `<key>.yaml` per enabled service, in the file format the gateway reads
       from PERFLAB_GATEWAY_ROUTES_DIR. A service's routes are its file config/gateway/routes/<key>.yaml (shipped as
       files/routes/, the one source the local stack and the gateway tests read too), or `services.<key>.routes`
       when set. */}}
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
