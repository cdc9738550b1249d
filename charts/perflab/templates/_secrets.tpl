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

{{/* Stores' users ---------------------------------------------------------------------------------------------- */}}

{{/* Every service logs in to each store as its own user, named after its database: perflab_<service> (dashes as
     underscores), with rights on its own database (MySQL: all privileges; MongoDB: readWrite) or its own keys and
     channels (Redis: stores.redis.acl.<service>), and its own password, key `<service>-password` of the store's Secret.
     A service's pod mounts that key alone: no service can read another's password, nor a store's root password.
     Two ways stay for external stores the chart does not administer: MySQL's one shared user
     (stores.mysql.auth.username) and Redis's `default` user (stores.redis.external.aclUsers false). */}}
{{- define "perflab.storeUser" -}}perflab_{{ replace "-" "_" . }}{{- end }}
{{- define "perflab.passwordKey" -}}{{ . }}-password{{- end }}

{{/* "true" when every MySQL service logs in as the one user stores.mysql.auth.username (key `password`): an external
     MySQL without an admin Secret whose one account already owns every database (a dev server's). The chart never
     makes such a user: it is refused where the chart administers MySQL. */}}
{{- define "perflab.mysqlShared" -}}
{{- $mysql := .Values.stores.mysql }}
{{- if $mysql.auth.username }}
{{- if or $mysql.deploy $mysql.external.adminSecret }}
{{- fail (printf "stores.mysql.auth.username (%s, one user shared by every MySQL service) is only for an external MySQL without stores.mysql.external.adminSecret: where the chart administers MySQL, each service gets its own user perflab_<service> with grants on its own database only. Leave it empty" $mysql.auth.username) }}
{{- end }}
{{- "true" }}
{{- end }}
{{- end }}

{{/* "true" when each Redis client logs in as its own ACL user: the chart's Redis, or an external one with
     stores.redis.external.aclUsers. */}}
{{- define "perflab.redisAclUsers" -}}
{{- $redis := .Values.stores.redis }}
{{- if or $redis.deploy (and $redis.external.aclUsers $redis.auth.existingSecret) }}true{{ end }}
{{- end }}

{{/* The password keys a store's Secret holds: one per service using the store, and the root's (MySQL's
     `root-password`; MongoDB's `password`, the key it had when the services logged in as root). */}}
{{- define "perflab.storeSecretKeys" -}}
{{- $keys := list }}
{{- if and (eq .store "mysql") .root.Values.stores.mysql.deploy }}{{ $keys = append $keys "root-password" }}{{ end }}
{{- if and (eq .store "mongodb") .root.Values.stores.mongodb.deploy }}{{ $keys = append $keys "password" }}{{ end }}
{{- $perService := true }}
{{- if and (eq .store "mysql") (include "perflab.mysqlShared" .root) }}{{ $perService = false }}{{ end }}
{{- if and (eq .store "redis") (not (include "perflab.redisAclUsers" .root)) }}{{ $perService = false }}{{ end }}
{{- if $perService }}
{{- range $name := include "perflab.storeUsers" . | fromJsonArray }}{{ $keys = append $keys (include "perflab.passwordKey" $name) }}{{ end }}
{{- else }}
{{- $keys = append $keys "password" }}
{{- end }}
{{- toJson $keys }}
{{- end }}

{{/* An existing Secret must hold every key the chart mounts from it (a missing key leaves the pods in
     CreateContainerConfigError, far from the cause). Checked where `lookup` sees the cluster; `helm template` cannot.
     Arguments: (dict "root" $ "store" $store). */}}
{{- define "perflab.checkStoreSecret" -}}
{{- $store := index .root.Values.stores .store }}
{{- with $store.auth.existingSecret }}
{{- $live := lookup "v1" "Secret" $.root.Release.Namespace . }}
{{- if $live }}
{{- $missing := list }}
{{- range $key := include "perflab.storeSecretKeys" $ | fromJsonArray }}
{{- if not (hasKey ($live.data | default dict) $key) }}{{ $missing = append $missing $key }}{{ end }}
{{- end }}
{{- if $missing }}
{{- fail (printf "stores.%s.auth.existingSecret %s has no key %s: each service logs in as its own user perflab_<service> with the password in key <service>-password (see the values table for stores.%s.auth.existingSecret)" $.store . (join ", " $missing) $.store) }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}

{{/* The secret files of one service, as a JSON list of {secret, key, path}: its own password of each store it uses,
     never another service's. Arguments: (dict "root" $ "name" $name "svc" $svc). */}}
{{- define "perflab.secretFiles" -}}
{{- $root := .root }}
{{- $stores := .root.Values.stores }}
{{- $own := include "perflab.passwordKey" .name }}
{{- $out := list }}
{{- if has "mysql" .svc.stores }}
{{- $key := ternary "password" $own (eq (include "perflab.mysqlShared" $root) "true") }}
{{- $out = append $out (dict "secret" (include "perflab.storeSecretName" (dict "root" $root "store" "mysql")) "key" $key "path" "PERFLAB_MYSQL_PASSWORD") }}
{{- end }}
{{- if has "mongodb" .svc.stores }}
{{- if $stores.mongodb.deploy }}
{{- $out = append $out (dict "secret" (include "perflab.storeSecretName" (dict "root" $root "store" "mongodb")) "key" $own "path" "PERFLAB_MONGODB_PASSWORD") }}
{{- else if $stores.mongodb.external.existingSecret }}
{{- $out = append $out (dict "secret" $stores.mongodb.external.existingSecret "key" "uri" "path" "spring.mongodb.uri") }}
{{- end }}
{{- end }}
{{- if and (has "redis" .svc.stores) (or $stores.redis.deploy $stores.redis.auth.existingSecret) }}
{{- $key := ternary $own "password" (eq (include "perflab.redisAclUsers" $root) "true") }}
{{- $out = append $out (dict "secret" (include "perflab.storeSecretName" (dict "root" $root "store" "redis")) "key" $key "path" "spring.data.redis.password") }}
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

{{/* Shell that prints the SQL making each MySQL service's database and its own user perflab_<service>, with all
     privileges on that database alone (the `_` of the name escaped: in a grant it would match any character). Run
     on every install and upgrade by the database Job and on MySQL's first start by its initdb script, so it is
     idempotent, and ALTER USER sets the password again: a rotated Secret takes effect on the next upgrade. Each
     password is read from file <dir>/<service>-password and quoted as an SQL string literal (quotes and backslashes
     doubled); none reaches an argument or an env value. Arguments: (dict "root" $ "dir" $dir). */}}
{{- define "perflab.mysqlUsersSql" -}}
lit() { printf '%s' "$1" | sed -e "s/\\\\/\\\\\\\\/g" -e "s/'/''/g"; }
users_sql() {
{{- range $name := include "perflab.storeUsers" (dict "root" .root "store" "mysql") | fromJsonArray }}
{{- $user := include "perflab.storeUser" $name }}
pw="$(lit "$(cat {{ $.dir }}/{{ include "perflab.passwordKey" $name }})")"
cat <<SQL
CREATE DATABASE IF NOT EXISTS \`{{ $user }}\`;
CREATE USER IF NOT EXISTS '{{ $user }}'@'%' IDENTIFIED BY '$pw';
ALTER USER '{{ $user }}'@'%' IDENTIFIED BY '$pw';
GRANT ALL PRIVILEGES ON \`{{ replace "_" "\\_" $user }}\`.* TO '{{ $user }}'@'%';
SQL
{{- end }}
pw=
}
{{- end }}

{{/* The [user, password file] pairs of the MongoDB services, as a JS array literal. Arguments: (dict "clients" $names). */}}
{{- define "perflab.mongoUsers" -}}
{{- $out := list }}
{{- range .clients }}{{ $out = append $out (list (include "perflab.storeUser" .) (include "perflab.passwordKey" .)) }}{{ end }}
{{- toJson $out }}
{{- end }}
