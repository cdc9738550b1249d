{{/* mail's EML volume: what an office may write to it -------------------------------------------------------- */}}

{{/* Bytes of a Spring DataSize (mail's perflab.mail.* sizes): a whole number, alone (bytes) or with B, KB, MB, GB or
     TB, each 1024 times the one before (Spring's units: 1GB is 1Gi). Arguments: (dict "value" $value "what" $path). */}}
{{- define "perflab.springBytes" -}}
{{- $q := include "perflab.envValue" .value }}
{{- if not (regexMatch "^\\+?[0-9]+(B|KB|MB|GB|TB)?$" $q) }}
{{- fail (printf "%s %q: use a whole number of B, KB, MB, GB or TB (Spring's units: 1GB is 1Gi), or bytes alone" .what $q) }}
{{- end }}
{{- $units := dict "" 1 "B" 1 "KB" 1024 "MB" 1048576 "GB" 1073741824 "TB" 1099511627776 }}
{{- mul (regexReplaceAll "^\\+?([0-9]+).*$" $q "${1}" | int64) (index $units (regexReplaceAll "^\\+?[0-9]+" $q "")) }}
{{- end }}


{{/* The env that sizes mail's storage quota by its EML volume. Every office writes into the one volume, and the quota
     (perflab.mail.quota.stored-per-office, EML bytes an office may write per UTC day) once equalled it: one office's
     users could fill it in hours and every office's sends failed. Unset in services.mail.env, the quota is a fifth of
     the volume (whole MB, rounded down); set there, it must be smaller than the volume, and the storage reserve
     (perflab.mail.storage-reserve, below which mail refuses new mail) too, or the chart fails. The volume is
     persistence.size, or the live capacity of persistence.existingClaim when the cluster has it. Arguments:
     (dict "root" $ "svc" $svc). */}}
{{- define "perflab.mailStorageEnv" -}}
{{- $p := .svc.persistence }}
{{- $size := include "perflab.envValue" $p.size }}
{{- $volumeIs := printf "services.mail.persistence.size (%s)" $size }}
{{- if and $p.enabled $p.existingClaim }}
{{- $live := lookup "v1" "PersistentVolumeClaim" .root.Release.Namespace $p.existingClaim | default dict }}
{{- $capacity := dig "status" "capacity" "storage" (dig "spec" "resources" "requests" "storage" "" $live) $live }}
{{- if $capacity }}
{{- $size = toString $capacity }}
{{- $volumeIs = printf "the capacity of services.mail.persistence.existingClaim %s (%s)" $p.existingClaim $size }}
{{- end }}
{{- end }}
{{- $volume := include "perflab.k8sBytes" $size | int64 }}
{{- $env := .svc.env | default dict }}
{{- $reserveKey := "PERFLAB_MAIL_STORAGERESERVE" }}
{{- if hasKey $env $reserveKey }}
{{- $reserve := include "perflab.springBytes" (dict "value" (index $env $reserveKey) "what" (printf "services.mail.env.%s" $reserveKey)) | int64 }}
{{- if ge $reserve $volume }}
{{- fail (printf "services.mail.env.%s (%s) is not smaller than %s: mail keeps that much of the EML volume free and would refuse every send (507). Lower the reserve or raise services.mail.persistence.size" $reserveKey (include "perflab.envValue" (index $env $reserveKey)) $volumeIs) }}
{{- end }}
{{- end }}
{{- $quotaKey := "PERFLAB_MAIL_QUOTA_STOREDPEROFFICE" }}
{{- if hasKey $env $quotaKey }}
{{- $quota := include "perflab.springBytes" (dict "value" (index $env $quotaKey) "what" (printf "services.mail.env.%s" $quotaKey)) | int64 }}
{{- if ge $quota $volume }}
{{- fail (printf "services.mail.env.%s (%s, EML bytes one office may write per day) is not smaller than %s, the volume every office shares: one office could fill it and every office's sends would then fail. Set it well below the volume (unset: a fifth of it), 0 to turn it off, or raise services.mail.persistence.size" $quotaKey (include "perflab.envValue" (index $env $quotaKey)) $volumeIs) }}
{{- end }}
{{- else }}
{{- $fifth := div $volume 5 }}
- name: {{ $quotaKey }}
  value: {{ ternary (printf "%dMB" (div $fifth 1048576)) (printf "%dB" (max 1 $fifth)) (ge $fifth 1048576) | quote }}
{{- end }}
{{- end }}
