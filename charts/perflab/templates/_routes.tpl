{{- /* The gateway's routes ConfigMap data: one `<key>.yaml` per enabled service that has `routes`, in the file
       format the gateway reads from PERFLAB_GATEWAY_ROUTES_DIR (config/gateway/routes/ locally). */}}
{{- define "perflab.gatewayRoutes" -}}
{{- $root := . }}
{{- range $name := include "perflab.enabledServices" $root | fromJsonArray }}
{{- with (index $root.Values.services $name).routes }}
{{ printf "%s.yaml" $name }}: |
{{ toYaml (dict "routes" .) | indent 2 }}
{{- end }}
{{- end }}
{{- end }}
