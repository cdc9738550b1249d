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

{{/* This run's id: runId, or r<release revision>. */}}
{{- define "perflab-loadtest.runId" -}}
{{- default (printf "r%d" (int .Release.Revision)) .Values.runId }}
{{- end }}

{{/* A test's run name: <fullname>-<test>-<runId>, the first part cut so that the longest name made from it stays a
label value (63): job.yaml's <name>-starter (the job-name label) and the verdict pod's <name>-verdict. */}}
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

{{/* The runner image: runner.image, its tag the chart's appVersion unless set. */}}
{{- define "perflab-loadtest.image" -}}
{{- printf "%s:%s" .Values.runner.image.repository (default .Chart.AppVersion .Values.runner.image.tag) }}
{{- end }}

{{/* A test's scenario, checked against the runner's (files/scenarios.txt, `load-tests list`): a misspelt one fails the
render instead of a runner pod. */}}
{{- define "perflab-loadtest.scenario" -}}
{{- $known := splitList "\n" (.root.Files.Get "files/scenarios.txt" | trim) }}
{{- $scenario := required (printf "tests.%s.scenario is required (one of: %s)" .name (join ", " $known)) .test.scenario }}
{{- if not (has $scenario $known) }}
{{- fail (printf "tests.%s.scenario: %s is not a scenario of the load runner (one of: %s)" .name $scenario (join ", " $known)) }}
{{- end }}
{{- $scenario }}
{{- end }}

{{/* The runners' environment (a list): where to send the load, as whom, this run's id and share, Prometheus. */}}
{{- define "perflab-loadtest.env" -}}
{{- $prometheus := .root.Values.results.prometheus }}
{{- $token := required "token.existingSecret is required: a Secret with a bearer token the gateway accepts (kubectl create secret generic perflab-load-token --from-literal=TOKEN=$(make -s token))" .root.Values.token.existingSecret }}
- name: JAVA_TOOL_OPTIONS
  value: {{ .root.Values.runner.javaOptions | quote }}
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
- name: TESTID
  value: {{ include "perflab-loadtest.runId" .root | quote }}
- name: RUNNERS
  value: {{ int (default 1 .test.parallelism) | quote }}
- { name: PAUSED, value: "true" }
- { name: CONTROL, value: "0.0.0.0:6565" }
- name: PAUSE_TIMEOUT
  value: {{ .root.Values.runner.pauseTimeout | quote }}
- { name: SUMMARY_DIR, value: /tmp }
- name: SUMMARY_NAME
  value: {{ .name | quote }}
{{- with .root.Values.results.samples.keepFor }}
- { name: JTL, value: /tmp/samples.jtl }
- name: KEEP_SAMPLES
  value: {{ . | quote }}
{{- end }}
{{- if $prometheus.enabled }}
- name: PROMETHEUS_RW_URL
  value: {{ $prometheus.url | quote }}
{{- end }}
{{- range $k, $v := .test.env }}
- name: {{ $k }}
  value: {{ $v | toString | quote }}
{{- end }}
{{- end }}

{{- define "perflab-loadtest.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities: { drop: [ALL] }
{{- end }}

{{/* A load pod (runner, starter, verdict): confined as a restricted namespace requires, placed where `placement`
says; `separate`: no two runners of the run on one node. */}}
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
