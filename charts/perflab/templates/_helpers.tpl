{{/* Names ------------------------------------------------------------------------------------------------- */}}

{{- define "perflab.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The prefix of every resource: the release name, or <release>-<chart> when the release name lacks it. */}}
{{- define "perflab.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* Name of one component (service or store): <fullname>-<name>. Arguments: (dict "root" $ "name" $name). */}}
{{- define "perflab.componentName" -}}
{{- printf "%s-%s" (include "perflab.fullname" .root) .name | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels -------------------------------------------------------------------------------------------------- */}}

{{- define "perflab.chartLabel" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels shared by every resource of the release, less the instance (selector labels add it). */}}
{{- define "perflab.baseLabels" -}}
helm.sh/chart: {{ include "perflab.chartLabel" . }}
app.kubernetes.io/part-of: {{ include "perflab.name" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Labels of release-wide resources (not one component's). */}}
{{- define "perflab.commonLabels" -}}
{{ include "perflab.baseLabels" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Selector labels of one component. Arguments: (dict "root" $ "name" $name). */}}
{{- define "perflab.selectorLabels" -}}
app.kubernetes.io/name: {{ .name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- end }}

{{/* All labels of one component. Arguments: (dict "root" $ "name" $name "component" "service"|"store"). */}}
{{- define "perflab.labels" -}}
{{ include "perflab.baseLabels" .root }}
{{ include "perflab.selectorLabels" . }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{/* Services and stores ----------------------------------------------------------------------------------- */}}

{{/* Fills the keys every services.<name> block leaves out from serviceDefaults, in place (idempotent), so a new
     service needs only enabled, port, image.repository and resources. sprig's merge is not used: it overwrites a
     user's `false`. */}}
{{- define "perflab.normalizeServices" -}}
{{- $defaults := .Values.serviceDefaults }}
{{- range $name, $svc := .Values.services }}
{{- include "perflab.fill" (dict "into" $svc "defaults" (deepCopy $defaults)) }}
{{- /* actuator's port: the services' convention is the API port + 1000 (8081 → 9081) */}}
{{- if not (hasKey $svc "managementPort") }}{{ $_ := set $svc "managementPort" (add $svc.port 1000) }}{{ end }}
{{- if eq (int $svc.managementPort) (int $svc.port) }}
{{- fail (printf "services.%s.managementPort must differ from services.%s.port (%v): actuator has a port of its own, which only Prometheus and the probes reach" $name $name $svc.port) }}
{{- end }}
{{- end }}
{{- end }}

{{- define "perflab.fill" -}}
{{- range $k, $v := .defaults }}
{{- if not (hasKey $.into $k) }}
{{- $_ := set $.into $k $v }}
{{- else if and (kindIs "map" $v) (kindIs "map" (index $.into $k)) }}
{{- include "perflab.fill" (dict "into" (index $.into $k) "defaults" $v) }}
{{- end }}
{{- end }}
{{- end }}

{{/* Names of the enabled services, sorted, as a JSON list (fromJsonArray to use). */}}
{{- define "perflab.enabledServices" -}}
{{- include "perflab.normalizeServices" . }}
{{- $out := list }}
{{- range $name, $svc := .Values.services }}
{{- if $svc.enabled }}{{ $out = append $out $name }}{{ end }}
{{- end }}
{{- toJson $out }}
{{- end }}

{{/* Stores used by at least one enabled service, sorted, as a JSON list. */}}
{{- define "perflab.usedStores" -}}
{{- include "perflab.normalizeServices" . }}
{{- $out := list }}
{{- range $name, $svc := .Values.services }}
{{- if $svc.enabled }}
{{- range $svc.stores }}{{ if not (has . $out) }}{{ $out = append $out . }}{{ end }}{{ end }}
{{- end }}
{{- end }}
{{- toJson (sortAlpha $out) }}
{{- end }}

{{/* Enabled services using one store, as a JSON list. Arguments: (dict "root" $ "store" $store). */}}
{{- define "perflab.storeUsers" -}}
{{- $out := list }}
{{- range $name, $svc := .root.Values.services }}
{{- if and $svc.enabled (has $.store $svc.stores) }}{{ $out = append $out $name }}{{ end }}
{{- end }}
{{- toJson $out }}
{{- end }}

{{/* Host of a store as the services see it: the chart's Service, or the external host. */}}
{{- define "perflab.storeHost" -}}
{{- $store := index .root.Values.stores .store }}
{{- if $store.deploy }}
{{- include "perflab.componentName" (dict "root" .root "name" .store) }}
{{- else }}
{{- required (printf "stores.%s.external.host is required when stores.%s.deploy is false" .store .store) $store.external.host }}
{{- end }}
{{- end }}

{{/* Name of the Secret holding a chart-managed store's credentials. */}}
{{- define "perflab.storeSecretName" -}}
{{- $store := index .root.Values.stores .store }}
{{- default (include "perflab.componentName" (dict "root" .root "name" .store)) $store.auth.existingSecret }}
{{- end }}

{{/* A generated password that survives upgrades: reuse the one in the live Secret when there is one.
     Arguments: (dict "root" $ "secret" $secretName "key" $key). */}}
{{- define "perflab.password" -}}
{{- $live := lookup "v1" "Secret" .root.Release.Namespace .secret }}
{{- if and $live $live.data (hasKey $live.data .key) }}
{{- index $live.data .key | b64dec }}
{{- else }}
{{- randAlphaNum 24 }}
{{- end }}
{{- end }}

{{/* storageClassName line of a claim: the claim's own storageClass, else global.storageClass; "-" renders
     `storageClassName: ""` (no dynamic provisioning: bind a pre-made volume), empty leaves the cluster's default.
     Arguments: (dict "root" $ "class" $ownClass). */}}
{{- define "perflab.storageClassName" -}}
{{- $class := .class | default ((.root.Values.global | default dict).storageClass | default "") }}
{{- if eq $class "-" }}
storageClassName: ""
{{- else if $class }}
storageClassName: {{ $class | quote }}
{{- end }}
{{- end }}

{{/* A claim shared by a service's replicas must be ReadWriteMany once more than one pod can mount it: the access
     modes of the existing claim when the cluster has it, else persistence.accessModes. Arguments: (dict "root" $
     "name" $name "svc" $svc). */}}
{{- define "perflab.checkSharedClaim" -}}
{{- $p := .svc.persistence }}
{{- if $p.enabled }}
{{- $modes := $p.accessModes }}
{{- $what := printf "services.%s.persistence.accessModes" .name }}
{{- if $p.existingClaim }}
{{- $live := lookup "v1" "PersistentVolumeClaim" .root.Release.Namespace $p.existingClaim }}
{{- if and $live $live.spec $live.spec.accessModes }}
{{- $modes = $live.spec.accessModes }}
{{- $what = printf "the access modes of services.%s.persistence.existingClaim %s" .name $p.existingClaim }}
{{- end }}
{{- end }}
{{- $pods := .svc.replicas | int }}
{{- $how := printf "services.%s.replicas is %d" .name $pods }}
{{- if .svc.autoscaling.enabled }}
{{- $pods = .svc.autoscaling.maxReplicas | int }}
{{- $how = printf "services.%s.autoscaling.maxReplicas is %d" .name $pods }}
{{- end }}
{{- if and (gt $pods 1) (not (has "ReadWriteMany" $modes)) }}
{{- fail (printf "%s: %s, but %s is %v: a second pod on another node cannot mount the volume (and every replica must read what any replica wrote). Set %s=[ReadWriteMany] with a StorageClass that offers it (NFS, CephFS, EFS, Filestore, Azure Files), or run one replica" .name $how $what $modes (printf "services.%s.persistence.accessModes" .name)) }}
{{- end }}
{{- end }}
{{- end }}

{{/* Env of the stores a service lists (mysql, mongodb, redis, smtp): the Deployment's and the mail seed Job's. Their
     credentials are files, not env (perflab.secretFiles). Arguments: (dict "root" $ "name" $name "svc" $svc). */}}
{{- define "perflab.storeEnv" -}}
{{- $root := .root }}
{{- $name := .name }}
{{- $svc := .svc }}
{{- $upper := upper (replace "-" "" $name) }}
{{- if has "mysql" $svc.stores }}
{{- $mysql := $root.Values.stores.mysql }}
{{- if not (or $mysql.deploy $mysql.auth.existingSecret) }}
{{- fail "stores.mysql.auth.existingSecret (key `<service>-password` per MySQL service, or `password` of the one stores.mysql.auth.username) is required when stores.mysql.deploy is false" }}
{{- end }}
{{- /* The parts, not a JDBC URL: the platform's service defaults build the URL with the driver
       parameters (rewriteBatchedStatements, statement caching), which a URL set here would drop. */}}
- name: PERFLAB_MYSQL_HOST
  value: {{ include "perflab.storeHost" (dict "root" $root "store" "mysql") | quote }}
- name: PERFLAB_MYSQL_PORT
  value: {{ $mysql.port | quote }}
- name: PERFLAB_MYSQL_USER
  value: {{ ternary $mysql.auth.username (include "perflab.storeUser" $name) (eq (include "perflab.mysqlShared" $root) "true") | quote }}
- name: {{ printf "PERFLAB_%s_DB" $upper }}
  value: {{ printf "perflab_%s" (replace "-" "_" $name) | quote }}
{{- range $key, $value := $svc.hikari }}
- name: {{ printf "SPRING_DATASOURCE_HIKARI_%s" (upper $key) }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- end }}
{{- if has "mongodb" $svc.stores }}
{{- $mongo := $root.Values.stores.mongodb }}
{{- if $mongo.deploy }}
{{- /* ${...} is Spring's placeholder (Kubernetes leaves it alone): the password comes from the secret files. The
       service's own user, kept in its own database (the URI's authSource by default), readWrite there only. */}}
{{- $user := include "perflab.storeUser" $name }}
- name: SPRING_MONGODB_URI
  value: {{ printf "mongodb://%s:${PERFLAB_MONGODB_PASSWORD}@%s:%v/%s" $user (include "perflab.storeHost" (dict "root" $root "store" "mongodb")) $mongo.port $user | quote }}
{{- else if $mongo.external.existingSecret }}
{{- /* the whole URI is a secret file (spring.mongodb.uri) */}}
{{- else if $mongo.external.uri }}
- name: SPRING_MONGODB_URI
  value: {{ $mongo.external.uri | quote }}
{{- else }}
- name: SPRING_MONGODB_URI
  value: {{ printf "mongodb://%s:%v/perflab_%s" (include "perflab.storeHost" (dict "root" $root "store" "mongodb")) $mongo.port (replace "-" "_" $name) | quote }}
{{- end }}
{{- end }}
{{- if has "redis" $svc.stores }}
{{- $redis := $root.Values.stores.redis }}
- name: SPRING_DATA_REDIS_HOST
  value: {{ include "perflab.storeHost" (dict "root" $root "store" "redis") | quote }}
- name: SPRING_DATA_REDIS_PORT
  value: {{ $redis.port | quote }}
{{- if include "perflab.redisAclUsers" $root }}
- name: SPRING_DATA_REDIS_USERNAME
  value: {{ include "perflab.storeUser" $name | quote }}
{{- end }}
{{- end }}
{{- if has "smtp" $svc.stores }}
- name: {{ printf "PERFLAB_%s_SMTP_HOST" $upper }}
  value: {{ include "perflab.storeHost" (dict "root" $root "store" "smtp") | quote }}
- name: {{ printf "PERFLAB_%s_SMTP_PORT" $upper }}
  value: {{ $root.Values.stores.smtp.port | quote }}
{{- end }}
{{- end }}

{{/* Images ------------------------------------------------------------------------------------------------ */}}

{{/* Image of a service. Arguments: (dict "root" $ "svc" $svc). <registry>/<repository>:<tag>, the tag defaulting
     to the chart's appVersion; with a digest: <repository>@<digest>, or <repository>:<tag>@<digest> when a tag is
     set (the digest decides what runs, the tag only tells a reader which release it was). */}}
{{- define "perflab.serviceImage" -}}
{{- $repo := .svc.image.repository }}
{{- if .root.Values.image.registry }}{{ $repo = printf "%s/%s" (trimSuffix "/" .root.Values.image.registry) $repo }}{{ end }}
{{- $digest := .svc.image.digest | default "" }}
{{- $tag := .svc.image.tag | default .root.Values.image.tag | default "" }}
{{- if and $digest $tag }}
{{- printf "%s:%s@%s" $repo $tag $digest }}
{{- else if $digest }}
{{- printf "%s@%s" $repo $digest }}
{{- else }}
{{- printf "%s:%s" $repo (default .root.Chart.AppVersion $tag) }}
{{- end }}
{{- end }}

{{/* Image of a third-party container (the stores, the database Job, the test pod), pinned to a patch release:
     <repository>:<tag>, or <repository>:<tag>@<digest> with a digest (the digest decides what runs, the tag tells a
     reader which release it is). Arguments: the image values. */}}
{{- define "perflab.thirdPartyImage" -}}
{{- if .digest }}{{ printf "%s:%s@%s" .repository .tag .digest }}{{ else }}{{ printf "%s:%s" .repository .tag }}{{ end }}
{{- end }}

{{/* imagePullSecrets list (empty string when none). */}}
{{- define "perflab.imagePullSecrets" -}}
{{- range .Values.image.pullSecrets }}
- name: {{ . }}
{{- end }}
{{- end }}

{{/* Quantities --------------------------------------------------------------------------------------------- */}}

{{/* CPU quantity ("500m", "2", "1.5", 2, 1.5) to millicores. */}}
{{- define "perflab.cpuMillis" -}}
{{- $q := toString . }}
{{- if hasSuffix "m" $q }}
{{- trimSuffix "m" $q | int64 }}
{{- else if contains "." $q }}
{{- $parts := splitList "." $q }}
{{- $frac := printf "%s000" (index $parts 1) | trunc 3 }}
{{- add (mul (index $parts 0 | int64) 1000) ($frac | int64) }}
{{- else }}
{{- mul ($q | int64) 1000 }}
{{- end }}
{{- end }}

{{/* -XX:ActiveProcessorCount for a CPU limit: ceil(limit in cores), at least 1. */}}
{{- define "perflab.activeProcessorCount" -}}
{{- $m := include "perflab.cpuMillis" . | int64 }}
{{- max 1 (div (add $m 999) 1000) }}
{{- end }}

{{/* Kubernetes memory quantity to bytes: plain, Ki/Mi/Gi/Ti (binary) or k/M/G/T (decimal). */}}
{{- define "perflab.k8sBytes" -}}
{{- $q := toString . }}
{{- $units := dict "Ki" 1024 "Mi" 1048576 "Gi" 1073741824 "Ti" 1099511627776 "k" 1000 "M" 1000000 "G" 1000000000 "T" 1000000000000 }}
{{- $n := "" }}
{{- range $suffix, $mult := $units }}
{{- if and (not $n) (hasSuffix $suffix $q) }}{{ $n = mul (trimSuffix $suffix $q | int64) $mult }}{{ end }}
{{- end }}
{{- if $n }}{{ $n }}{{ else if regexMatch "^[0-9]+$" $q }}{{ $q }}{{ else if regexMatch "^[0-9.]+e[0-9]+$" $q }}{{ . | float64 | int64 }}{{ else }}{{ fail (printf "cannot read memory quantity %q: use Ki, Mi, Gi, Ti, k, M, G, T or bytes" $q) }}{{ end }}
{{- end }}

{{/* JVM size (-Xmx syntax: 512m, 1g, 1048576k, bytes) to bytes. */}}
{{- define "perflab.jvmBytes" -}}
{{- $q := lower (toString .) }}
{{- $units := dict "k" 1024 "m" 1048576 "g" 1073741824 "t" 1099511627776 }}
{{- $last := substr (int (sub (len $q) 1)) (len $q) $q }}
{{- if hasKey $units $last }}
{{- mul (trimSuffix $last $q | int64) (index $units $last) }}
{{- else if regexMatch "^[0-9]+$" $q }}
{{- $q }}
{{- else }}
{{- fail (printf "cannot read JVM heap %q: use k, m, g or t (e.g. 512m, 1g)" $q) }}
{{- end }}
{{- end }}

{{/* JVM ------------------------------------------------------------------------------------------------------ */}}

{{/* A memory size of the JVM values in Kubernetes binary units (128Mi, 1Gi, 65536Ki) to bytes. */}}
{{- define "perflab.binaryBytes" -}}
{{- $q := toString . }}
{{- if not (regexMatch "^[0-9]+(Ki|Mi|Gi)$" $q) }}{{ fail (printf "cannot read %q: use Ki, Mi or Gi (e.g. 128Mi)" $q) }}{{ end }}
{{- include "perflab.k8sBytes" $q }}
{{- end }}

{{/* Bytes as a JVM size: m when whole MiB, else k. */}}
{{- define "perflab.jvmSize" -}}
{{- $b := . | int64 }}
{{- if eq (mod $b 1048576) 0 }}{{ printf "%dm" (div $b 1048576) }}{{ else }}{{ printf "%dk" (div $b 1024) }}{{ end }}
{{- end }}

{{/* The memory rule, in bytes: heap + heap/16 + metaspace + direct memory + 128Mi. Metaspace and direct memory are
     capped by flags the chart sets; heap/16 is the GC's own bookkeeping (card table, remembered sets, mark bitmaps),
     which grows with the heap; 128Mi is the rest of the process: code cache, thread stacks, JIT, symbol tables and
     libc arenas. Arguments: (dict "heap" bytes "metaspace" bytes "direct" bytes). */}}
{{- define "perflab.memoryNeeded" -}}
{{- add .heap (div .heap 16) .metaspace .direct 134217728 }}
{{- end }}

{{/* Flags of jvm.extraOpts that would take the memory rule (or the GC choice) out of the chart's hands, with the
     value that owns each. */}}
{{- define "perflab.reservedJvmFlags" -}}
{{- toJson (list
  (dict "re" "^-Xm[sx]" "owner" "jvm.heap")
  (dict "re" "^-XX:[A-Za-z]*HeapSize=" "owner" "jvm.heap")
  (dict "re" "^-XX:[A-Za-z]*RAM[A-Za-z]*=" "owner" "jvm.heap")
  (dict "re" "^-XX:[+-]Use[A-Za-z0-9]*GC$" "owner" "jvm.gc")
  (dict "re" "^-XX:MaxDirectMemorySize=" "owner" "jvm.maxDirectMemory")
  (dict "re" "^-XX:MaxMetaspaceSize=" "owner" "jvm.maxMetaspace")) }}
{{- end }}

{{/* JAVA_TOOL_OPTIONS of a service; fails when the memory limit leaves no room beside the heap, metaspace and
     direct memory, or when extraOpts tries to size the JVM's memory or pick its GC.
     Arguments: (dict "name" $name "svc" $svc), optional "path": where the values live, for the errors (default
     services.<name>). Every jvm key is set: a service's by normalizeServices, the seeder's by job-seed.yaml, both
     from serviceDefaults.jvm. */}}
{{- define "perflab.javaToolOptions" -}}
{{- $path := .path | default (printf "services.%s" .name) }}
{{- $jvm := .svc.jvm | default dict }}
{{- $gc := $jvm.gc }}
{{- $heap := $jvm.heap }}
{{- $limits := .svc.resources.limits | default dict }}
{{- if not $limits.memory }}
{{- fail (printf "%s.resources.limits.memory is required: the heap (%s) is checked against it" $path $heap) }}
{{- end }}
{{- range $opt := splitList " " ($jvm.extraOpts | default "") }}
{{- range $flag := include "perflab.reservedJvmFlags" dict | fromJsonArray }}
{{- if regexMatch $flag.re $opt }}
{{- fail (printf "%s.jvm.extraOpts: %s is not allowed there; set %s.%s instead (the memory rule checks the JVM's memory against resources.limits.memory)" $path $opt $path $flag.owner) }}
{{- end }}
{{- end }}
{{- end }}
{{- $heapBytes := include "perflab.jvmBytes" $heap | int64 }}
{{- $metaBytes := include "perflab.binaryBytes" $jvm.maxMetaspace | int64 }}
{{- $directBytes := include "perflab.binaryBytes" $jvm.maxDirectMemory | int64 }}
{{- $limitBytes := include "perflab.k8sBytes" $limits.memory | int64 }}
{{- $needed := include "perflab.memoryNeeded" (dict "heap" $heapBytes "metaspace" $metaBytes "direct" $directBytes) | int64 }}
{{- if lt $limitBytes $needed }}
{{- fail (printf "%s: resources.limits.memory %s is too small: the rule is limit >= heap + heap/16 + maxMetaspace + maxDirectMemory + 128Mi = %s + %dMi + %s + %s + 128Mi = %dMi (the container would be OOM-killed under load)" $path (toString $limits.memory) $heap (div $heapBytes 16777216) $jvm.maxMetaspace $jvm.maxDirectMemory (div (add $needed 1048575) 1048576)) }}
{{- end }}
{{- $gcFlag := get (dict "G1" "-XX:+UseG1GC" "ZGC" "-XX:+UseZGC" "Parallel" "-XX:+UseParallelGC" "Serial" "-XX:+UseSerialGC" "Shenandoah" "-XX:+UseShenandoahGC") $gc }}
{{- if not $gcFlag }}{{ fail (printf "%s.jvm.gc %q: use G1, ZGC, Parallel, Serial or Shenandoah" $path $gc) }}{{ end }}
{{- $opts := list $gcFlag (printf "-Xms%s" $heap) (printf "-Xmx%s" $heap) }}
{{- $opts = append $opts (printf "-XX:MaxMetaspaceSize=%s" (include "perflab.jvmSize" $metaBytes)) }}
{{- $opts = append $opts (printf "-XX:MaxDirectMemorySize=%s" (include "perflab.jvmSize" $directBytes)) }}
{{- /* The JVM sizes its GC and compiler threads, ForkJoin pools and GC choice from the CPUs it sees. With a CPU
       limit of 1 (or a fraction) it sees one CPU, treats the box as a client machine and silently picks Serial GC
       whatever the flags of the image say (the seed 000 field report hit this). So the count is stated from the
       limit, rounded up, never below 1. */}}
{{- $cpu := $limits.cpu | default (.svc.resources.requests | default dict).cpu }}
{{- if $cpu }}
{{- $opts = append $opts (printf "-XX:ActiveProcessorCount=%s" (include "perflab.activeProcessorCount" $cpu)) }}
{{- end }}
{{- $opts = append $opts "-XX:+ExitOnOutOfMemoryError" }}
{{- with $jvm.extraOpts }}{{ $opts = append $opts . }}{{ end }}
{{- join " " $opts }}
{{- end }}

{{/* Container resources of a service: requests = limits (Guaranteed QoS, for measurement runs) when
     resources.guaranteed (per service, else the top-level resources.guaranteed) is true. Arguments: (dict "root" $
     "svc" $svc). */}}
{{- define "perflab.serviceResources" -}}
{{- $r := omit .svc.resources "guaranteed" }}
{{- $guaranteed := .root.Values.resources.guaranteed }}
{{- if hasKey .svc.resources "guaranteed" }}{{ $guaranteed = .svc.resources.guaranteed }}{{ end }}
{{- if $guaranteed }}{{ $r = dict "limits" $r.limits "requests" (deepCopy $r.limits) }}{{ end }}
{{- toYaml $r }}
{{- end }}

{{/* Scheduling of a pod (nodeSelector, tolerations, affinity, topologySpreadConstraints, priorityClassName): each
     key from the component's own `scheduling` when set there, else from the top-level `scheduling`, so the system
     under test can be kept on a node pool of its own. A service's pods (optional "spread": its selector labels) with
     no topologySpreadConstraints of their own spread over nodes, softly, while `spreadReplicas` (own, else top-level)
     is on: two replicas on one node are one node failure from none. Arguments: (dict "root" $ "own"
     $ownSchedulingOrNil ["spread" $selectorLabels]). */}}
{{- define "perflab.scheduling" -}}
{{- $global := .root.Values.scheduling | default dict }}
{{- $own := .own | default dict }}
{{- $spread := index $global "spreadReplicas" }}
{{- if hasKey $own "spreadReplicas" }}{{ $spread = index $own "spreadReplicas" }}{{ end }}
{{- range $key := list "priorityClassName" "nodeSelector" "tolerations" "affinity" "topologySpreadConstraints" }}
{{- $v := index $global $key }}
{{- if hasKey $own $key }}{{ $v = index $own $key }}{{ end }}
{{- if and (eq $key "topologySpreadConstraints") (not $v) $.spread $spread }}
{{- /* ScheduleAnyway: a preference, never a pod left Pending on a one-node cluster; pod-template-hash: during a
       rollout only the new ReplicaSet's pods are counted */}}
{{- $v = list (dict "maxSkew" 1 "topologyKey" "kubernetes.io/hostname" "whenUnsatisfiable" "ScheduleAnyway"
    "labelSelector" (dict "matchLabels" $.spread) "matchLabelKeys" (list "pod-template-hash")) }}
{{- end }}
{{- if $v }}
{{- if eq $key "priorityClassName" }}
{{ $key }}: {{ $v | quote }}
{{- else }}
{{ $key }}:
  {{- toYaml $v | nindent 2 }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}

{{/* Pod security -------------------------------------------------------------------------------------------- */}}

{{- define "perflab.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .uid | default 10001 }}
runAsGroup: {{ .uid | default 10001 }}
fsGroup: {{ .uid | default 10001 }}
fsGroupChangePolicy: OnRootMismatch
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{- define "perflab.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
runAsNonRoot: true
privileged: false
capabilities:
  drop: [ALL]
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{/* An env value as written in a values file: a whole number (a float64 to Helm, which toString would render as
     "7.2e+06" from 7200000, unreadable to Spring) as its digits, anything else as its string. */}}
{{- define "perflab.envValue" -}}
{{- if and (kindIs "float64" .) (eq . (float64 (int64 .))) }}{{ int64 . }}{{ else }}{{ toString . }}{{ end }}
{{- end }}
