variable "perflab_chart" {
  description = "Path (or OCI reference) of the perflab chart; the repository's charts/perflab by default."
  type        = string
  default     = null
}

variable "namespace" {
  description = "Namespace of the perflab release (created if missing)."
  type        = string
  default     = "perflab"
}

variable "monitoring_namespace" {
  description = "Namespace of kube-prometheus-stack; the perflab chart's NetworkPolicy admits Prometheus from it."
  type        = string
  default     = "monitoring"
}

variable "kube_prometheus_stack_version" {
  description = "kube-prometheus-stack chart version (prometheus-community)."
  type        = string
  default     = "88.6.4"
}

variable "install_monitoring" {
  description = "Install kube-prometheus-stack; false when the cluster already runs one (set monitoring_release_label to its release)."
  type        = bool
  default     = true
}

variable "monitoring_release_label" {
  description = "The `release` label the Prometheus of kube-prometheus-stack selects ServiceMonitors and rules by."
  type        = string
  default     = "kube-prometheus-stack"
}

variable "jwt" {
  description = "How the gateway verifies bearer tokens: exactly one of jwks_uri (the identity provider's JWKS) and public_key_pem (one or more RSA public keys or certificates)."
  type = object({
    issuer         = string
    audience       = optional(string, "perflab")
    jwks_uri       = optional(string)
    public_key_pem = optional(string)
  })

  validation {
    condition     = (var.jwt.jwks_uri == null) != (var.jwt.public_key_pem == null)
    error_message = "Set exactly one of jwt.jwks_uri and jwt.public_key_pem."
  }
}

variable "system_pool" {
  description = "Where the system under test runs: node labels its pods require and taints they tolerate (empty: anywhere). Monitoring runs there too."
  type = object({
    node_selector = optional(map(string), {})
    tolerations = optional(list(object({
      key      = string
      operator = optional(string, "Equal")
      value    = optional(string)
      effect   = string
    })), [])
  })
  default = {}
}

variable "perflab_values" {
  description = "Further values documents for the perflab chart (YAML strings), applied after the ones this module sets."
  type        = list(string)
  default     = []
}

variable "timeout_seconds" {
  description = "How long each release may take to become ready."
  type        = number
  default     = 900
}
