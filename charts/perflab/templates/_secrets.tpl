{{/* Secrets as files ------------------------------------------------------------------------------------------ */}}

{{/* Credentials never reach a container as an env var or an argument: anyone allowed to read the pod (or `ps` on the
     node) sees those, and a crash dump or /actuator/env may print them. A Spring service gets them as files of a
     projected volume that it imports as a config tree (spring.config.import=optional:configtree:<dir>), each file
     named after what the service already reads, so no service changes:
       PERFLAB_MYSQL_PASSWORD       the placeholder of spring.datasource.password in the platform's service defaults
       PERFLAB_MONGODB_PASSWORD     the placeholder in SPRING_MONGODB_URI (the chart's MongoDB), resolved by Spring
       spring.mongodb.uri           the whole connection string (stores.mongodb.external.existingSecret)
       spring.data.redis.password   the property itself
       perflab.shortener.code-key   the property itself
     An imported config tree ranks above application.yaml and below env vars, so a file wins over a default and an
     operator's services.<key>.env still wins over both. */}}
{{- define "perflab.secretsDir" -}}/etc/perflab/secrets/{{- end }}

{{/* The secret files of one service, as a JSON list of {secret, key, path}. Arguments: (dict "root" $ "name" $name
     "svc" $svc). */}}
{{- define "perflab.secretFiles" -}}
{{- $root := .root }}
{{- $stores := .root.Values.stores }}
{{- $out := list }}
{{- if has "mysql" .svc.stores }}
{{- $out = append $out (dict "secret" (include "perflab.storeSecretName" (dict "root" $root "store" "mysql")) "key" "password" "path" "PERFLAB_MYSQL_PASSWORD") }}
{{- end }}
{{- if has "mongodb" .svc.stores }}
{{- if $stores.mongodb.deploy }}
{{- $out = append $out (dict "secret" (include "perflab.storeSecretName" (dict "root" $root "store" "mongodb")) "key" "password" "path" "PERFLAB_MONGODB_PASSWORD") }}
{{- else if $stores.mongodb.external.existingSecret }}
{{- $out = append $out (dict "secret" $stores.mongodb.external.existingSecret "key" "uri" "path" "spring.mongodb.uri") }}
{{- end }}
{{- end }}
{{- if and (has "redis" .svc.stores) (or $stores.redis.deploy $stores.redis.auth.existingSecret) }}
{{- $out = append $out (dict "secret" (include "perflab.storeSecretName" (dict "root" $root "store" "redis")) "key" "password" "path" "spring.data.redis.password") }}
{{- end }}
{{- if and (eq .name "shortener") .svc.codeKey }}
{{- $secret := .svc.codeKey.existingSecret | default (printf "%s-shortener-code-key" (include "perflab.fullname" $root)) }}
{{- $out = append $out (dict "secret" $secret "key" .svc.codeKey.key "path" "perflab.shortener.code-key") }}
{{- end }}
{{- toJson $out }}
{{- end }}

{{/* SPRING_CONFIG_IMPORT of a service with secret files: the config tree, after any import the operator set in
     services.<key>.env (which the Deployment then leaves out, so there is one SPRING_CONFIG_IMPORT). Arguments: (dict
     "files" $files "env" $svc.env). */}}
{{- define "perflab.secretsEnv" -}}
{{- if .files }}
- name: SPRING_CONFIG_IMPORT
  value: {{ join "," (compact (list (index (.env | default dict) "SPRING_CONFIG_IMPORT" | default "" | toString) (printf "optional:configtree:%s" (include "perflab.secretsDir" dict)))) | quote }}
{{- end }}
{{- end }}

{{/* The volume holding the secret files (readable by the pod's group only) and its mount. Arguments: $files. */}}
{{- define "perflab.secretsVolume" -}}
{{- if . }}
- name: secrets
  projected:
    defaultMode: 0440
    sources:
      {{- range . }}
      - secret: { name: {{ .secret }}, items: [{ key: {{ .key }}, path: {{ .path }} }] }
      {{- end }}
{{- end }}
{{- end }}

{{- define "perflab.secretsMount" -}}
{{- if . }}
- name: secrets
  mountPath: {{ include "perflab.secretsDir" dict | trimSuffix "/" }}
  readOnly: true
{{- end }}
{{- end }}
