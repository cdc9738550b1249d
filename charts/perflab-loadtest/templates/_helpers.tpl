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
