{{/* the shortener's daily byte quotas against the MongoDB volume every office's links share --------------------- */}}

{{/* Fails when a byte quota set in services.shortener.env (perflab.shortener.quota.bytes-per-user or
     bytes-per-office, bytes of links one user or office may store per UTC day) is not smaller than the MongoDB
     volume the chart runs (stores.mongodb.persistence.size): one office could fill it in a day and every create and
     hit count would then fail. Unset, the service's defaults apply (512KB and 8MB: 8Gi lasts one office 1,024 days at
     its quota). An external MongoDB's size is not known here. Renders nothing. Arguments: (dict "root" $ "svc" $svc). */}}
{{- define "perflab.shortenerQuotaCheck" -}}
{{- $mongo := .root.Values.stores.mongodb }}
{{- if $mongo.deploy }}
{{- $size := include "perflab.envValue" $mongo.persistence.size }}
{{- $volume := include "perflab.k8sBytes" $size | int64 }}
{{- $env := .svc.env | default dict }}
{{- range $key := list "PERFLAB_SHORTENER_QUOTA_BYTESPERUSER" "PERFLAB_SHORTENER_QUOTA_BYTESPEROFFICE" }}
{{- if hasKey $env $key }}
{{- $quota := include "perflab.springBytes" (dict "value" (index $env $key) "what" (printf "services.shortener.env.%s" $key)) | int64 }}
{{- if ge $quota $volume }}
{{- fail (printf "services.shortener.env.%s (%s, bytes of links stored per UTC day) is not smaller than stores.mongodb.persistence.size (%s), the volume every office's links share: one office could fill it in a day. Set it well below the volume, 0 to turn it off, or raise stores.mongodb.persistence.size" $key (include "perflab.envValue" (index $env $key)) $size) }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
