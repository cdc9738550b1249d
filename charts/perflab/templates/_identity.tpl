{{/* Service identity (docs/architecture.md#service-identity) ------------------------------------------------------ */}}

{{/* Services that sign identity tokens (services.<key>.identity.signs), enabled or not, sorted, as a JSON list: a
     disabled signer keeps its key pair, so a service trusting it still finds its certificate. */}}
{{- define "perflab.identitySigners" -}}
{{- include "perflab.normalizeServices" . }}
{{- $out := list }}
{{- range $name, $svc := .Values.services }}
{{- if $svc.identity.signs }}{{ $out = append $out $name }}{{ end }}
{{- end }}
{{- toJson $out }}
{{- end }}

{{/* The Secret holding `<signer>.key` and `<signer>.pem` per signer: the chart's, or identity.existingSecret. */}}
{{- define "perflab.identitySecretName" -}}
{{- default (printf "%s-identity" (include "perflab.fullname" .)) .Values.identity.existingSecret }}
{{- end }}

{{/* Fails when a service trusts a signer that does not sign: its pod would wait for a certificate that never comes.
     Arguments: (dict "root" $ "name" $name "svc" $svc). */}}
{{- define "perflab.checkIdentity" -}}
{{- $signers := include "perflab.identitySigners" .root | fromJsonArray }}
{{- range $signer := .svc.identity.trusts }}
{{- if not (has $signer $signers) }}
{{- fail (printf "services.%s.identity.trusts lists %q, which signs nothing: set services.%s.identity.signs (signers: %v)" $.name $signer $signer $signers) }}
{{- end }}
{{- end }}
{{- end }}

{{/* Env of a service that signs or trusts identities. Arguments: (dict "name" $name "svc" $svc). */}}
{{- define "perflab.identityEnv" -}}
{{- if or .svc.identity.signs .svc.identity.trusts }}
- name: PERFLAB_IDENTITY_DIR
  value: /etc/perflab/identity
{{- if .svc.identity.signs }}
- name: PERFLAB_IDENTITY_SIGNING_KEY
  value: {{ printf "file:/etc/perflab/identity/%s.key" .name | quote }}
{{- end }}
{{- end }}
{{- end }}

{{/* The identity volume: this service's own key (when it signs) and the certificates it trusts, nothing else.
     Arguments: (dict "root" $ "name" $name "svc" $svc). */}}
{{- define "perflab.identityVolume" -}}
{{- if or .svc.identity.signs .svc.identity.trusts }}
- name: identity
  secret:
    secretName: {{ include "perflab.identitySecretName" .root }}
    items:
      {{- if .svc.identity.signs }}
      - { key: {{ printf "%s.key" .name }}, path: {{ printf "%s.key" .name }} }
      {{- end }}
      {{- range .svc.identity.trusts }}
      - { key: {{ printf "%s.pem" . }}, path: {{ printf "%s.pem" . }} }
      {{- end }}
{{- end }}
{{- end }}
