{{- define "perflab-loadtest.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{- define "perflab-loadtest.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/part-of: perflab
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* The gateway URL of the perflab release under test (same naming rule as the perflab chart's fullname). */}}
{{- define "perflab-loadtest.baseUrl" -}}
{{- if .Values.target.baseUrl }}
{{- .Values.target.baseUrl }}
{{- else }}
{{- $rel := .Values.target.release }}
{{- $full := ternary $rel (printf "%s-perflab" $rel) (contains "perflab" $rel) | trunc 63 | trimSuffix "-" }}
{{- printf "http://%s-gateway:%v" $full .Values.target.gatewayPort }}
{{- end }}
{{- end }}

{{/* ConfigMap key of a script path: keys cannot hold "/", so lib/config.js is lib__config.js. */}}
{{- define "perflab-loadtest.key" -}}
{{- trimPrefix "files/k6/" . | replace "/" "__" }}
{{- end }}

{{/* This run's id: runId, or r<release revision>. */}}
{{- define "perflab-loadtest.runId" -}}
{{- default (printf "r%d" (int .Release.Revision)) .Values.runId }}
{{- end }}

{{/* Where a k6 pod runs and how it is confined: the same for runner, initializer and starter (a restricted
namespace admits none of them otherwise). */}}
{{- define "perflab-loadtest.pod" -}}
automountServiceAccountToken: "false"
securityContext:
  runAsNonRoot: true
  runAsUser: 12345
  seccompProfile: { type: RuntimeDefault }
containerSecurityContext:
  allowPrivilegeEscalation: false
  readOnlyRootFilesystem: true
  capabilities: { drop: [ALL] }
{{- with .Values.placement.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.placement.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.placement.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/* A test's run name: <fullname>-<test>-<runId>, the first part cut so that the longest name made from it stays a
label value (63): the operator's <name>-initializer, job.yaml's <name>-starter (the job-name label). */}}
{{- define "perflab-loadtest.runName" -}}
{{- $fullname := include "perflab-loadtest.fullname" .root }}
{{- $runId := include "perflab-loadtest.runId" .root }}
{{- $base := printf "%s-%s" $fullname .name }}
{{- $room := int (sub 50 (len $runId)) }}
{{- /* cut to fit, with a hash of the whole name: two tests whose names differ only past the cut stay two runs */}}
{{- if gt (len $base) $room }}
{{- $base = printf "%s-%s" ($base | trunc (int (sub $room 6)) | trimSuffix "-") ($base | sha256sum | trunc 5) }}
{{- end }}
{{- printf "%s-%s" $base $runId }}
{{- end }}

{{/* k6 arguments of every runner of a test, before the script: the run id tag, remote write, the test's own. */}}
{{- define "perflab-loadtest.arguments" -}}
{{- if not (.root.Files.Get (printf "files/k6/%s" .test.script)) }}
{{- fail (printf "tests.%s.script: %s is not under files/k6/ (k6-tests/)" .name .test.script) }}
{{- end }}
{{- $arguments := list (printf "--tag testid=%s" (include "perflab-loadtest.runId" .root)) }}
{{- if .root.Values.results.prometheus.enabled }}
{{- $arguments = append $arguments "--out experimental-prometheus-rw" }}
{{- end }}
{{- with .test.arguments }}
{{- $arguments = append $arguments . }}
{{- end }}
{{- join " " $arguments }}
{{- end }}

{{/* The runners' environment (a list). */}}
{{- define "perflab-loadtest.env" -}}
{{- $prometheus := .root.Values.results.prometheus }}
{{- $token := required "token.existingSecret is required: a Secret with a bearer token the gateway accepts (kubectl create secret generic perflab-k6-token --from-literal=TOKEN=$(make -s token))" .root.Values.token.existingSecret }}
- name: K6_NO_USAGE_REPORT
  value: "true"
{{- if $prometheus.enabled }}
- name: K6_PROMETHEUS_RW_SERVER_URL
  value: {{ $prometheus.url | quote }}
- name: K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM
  value: "true"
- name: K6_PROMETHEUS_RW_PUSH_INTERVAL
  value: {{ $prometheus.pushInterval | quote }}
{{- end }}
- name: BASE_URL
  value: {{ include "perflab-loadtest.baseUrl" .root | quote }}
- name: TOKEN
  valueFrom:
    secretKeyRef: { name: {{ $token }}, key: {{ .root.Values.token.key }} }
{{- with .root.Values.token.callersKey }}
- name: CALLER_TOKENS
  valueFrom:
    secretKeyRef: { name: {{ $token }}, key: {{ . }} }
{{- end }}
- name: SUMMARY_DIR
  value: /tmp
{{- range $k, $v := .test.env }}
- name: {{ $k }}
  value: {{ $v | toString | quote }}
{{- end }}
{{- end }}

{{/* The runners' volumes: the scripts (ConfigMap keys cannot hold "/": mapped back to paths) and a scratch /tmp. */}}
{{- define "perflab-loadtest.volumes" -}}
- name: scripts
  configMap:
    name: {{ include "perflab-loadtest.fullname" .root }}-scripts
    items:
      {{- range $path, $_ := .root.Files.Glob "files/k6/**.js" }}
      - key: {{ include "perflab-loadtest.key" $path }}
        path: {{ trimPrefix "files/k6/" $path }}
      {{- end }}
- name: tmp
  emptyDir: {}
{{- end }}

{{- define "perflab-loadtest.volumeMounts" -}}
- { name: scripts, mountPath: /k6, readOnly: true }
- { name: tmp, mountPath: /tmp }
{{- end }}

{{/* The k6-operator's execution segments of a test's runners, in its own form, one per runner (instance 1..n):
"0:1/3 1/3:2/3 2/3:1", and the sequence "0,1/3,2/3,1". */}}
{{- define "perflab-loadtest.segmentPart" -}}
{{- if eq .i 0 }}0{{ else if eq .i .n }}1{{ else }}{{ printf "%d/%d" .i .n }}{{ end }}
{{- end }}
{{- define "perflab-loadtest.segments" -}}
{{- $n := int (default 1 .test.parallelism) }}
{{- $segments := list }}
{{- range $i := until $n }}
{{- $segments = append $segments (printf "%s:%s" (include "perflab-loadtest.segmentPart" (dict "i" $i "n" $n)) (include "perflab-loadtest.segmentPart" (dict "i" (add1 $i) "n" $n))) }}
{{- end }}
{{- join " " $segments }}
{{- end }}
{{- define "perflab-loadtest.sequence" -}}
{{- $n := int (default 1 .test.parallelism) }}
{{- $parts := list }}
{{- range $i := until (add1 $n | int) }}
{{- $parts = append $parts (include "perflab-loadtest.segmentPart" (dict "i" $i "n" $n)) }}
{{- end }}
{{- join "," $parts }}
{{- end }}

{{- define "perflab-loadtest.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities: { drop: [ALL] }
{{- end }}

{{/* A Job's pod: the same confinement and placement as the TestRun's pods (perflab-loadtest.pod), in a pod spec's
own fields; `separate` as the operator renders it: no two runners of the run on one node. */}}
{{- define "perflab-loadtest.jobPod" -}}
automountServiceAccountToken: false
securityContext:
  runAsNonRoot: true
  runAsUser: 12345
  seccompProfile: { type: RuntimeDefault }
{{- with .root.Values.runner.imagePullSecrets }}
imagePullSecrets:
  {{- range . }}
  - name: {{ . }}
  {{- end }}
{{- end }}
{{- with .root.Values.placement.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .root.Values.placement.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- if .separate }}
affinity:
  podAntiAffinity:
    requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector:
          matchLabels:
            {{- toYaml .selector | nindent 12 }}
        topologyKey: kubernetes.io/hostname
{{- else }}
{{- with .root.Values.placement.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}
{{- end }}

{{/* A Kubernetes CPU quantity ("2", "1.5", "500m", 2) in cores. */}}
{{- define "perflab-loadtest.cores" -}}
{{- $q := toString . }}
{{- if hasSuffix "m" $q }}{{ divf (trimSuffix "m" $q | float64) 1000 }}{{ else }}{{ $q | float64 }}{{ end }}
{{- end }}
