variable "region" {
  description = "AWS region."
  type        = string
  default     = "ap-northeast-2"
}

variable "name" {
  description = "Cluster name; also names the VPC."
  type        = string
  default     = "perflab"
}

variable "kubernetes_version" {
  description = "EKS Kubernetes minor version."
  type        = string
  default     = "1.34"
}

variable "vpc_cidr" {
  description = "CIDR of the cluster's VPC (three private and three public subnets are carved from it)."
  type        = string
  default     = "10.40.0.0/16"
}

variable "endpoint_public_access" {
  description = "Whether the cluster's Kubernetes API has a public endpoint (reachable only from endpoint_public_access_cidrs). Off: only from inside the VPC."
  type        = bool
  default     = true
}

variable "endpoint_public_access_cidrs" {
  description = "The CIDRs allowed to reach the public API endpoint (your office, VPN or CI egress), e.g. [\"203.0.113.0/24\"]. Required; may be [] only with endpoint_public_access = false. An open range (0.0.0.0/0, ::/0) is refused."
  type        = list(string)

  validation {
    condition     = alltrue([for c in var.endpoint_public_access_cidrs : can(cidrhost(c, 0))])
    error_message = "endpoint_public_access_cidrs: every entry must be a CIDR block such as 203.0.113.0/24."
  }
  validation {
    condition     = !anytrue([for c in var.endpoint_public_access_cidrs : can(cidrhost(c, 0)) && split("/", c)[1] == "0"])
    error_message = "endpoint_public_access_cidrs: an open range (0.0.0.0/0, ::/0) puts the Kubernetes API on the internet; list the CIDRs that need it."
  }
  validation {
    condition     = !var.endpoint_public_access || length(var.endpoint_public_access_cidrs) > 0
    error_message = "endpoint_public_access_cidrs: empty while endpoint_public_access is on; list the CIDRs that need the API, or set endpoint_public_access = false."
  }
}

variable "control_plane_log_days" {
  description = "Days the control plane's logs (API, audit, authenticator, controller manager, scheduler) stay in CloudWatch."
  type        = number
  default     = 365
}

variable "system_nodes" {
  description = "The node group of the system under test: the gateway, the services, their stores, monitoring."
  type = object({
    instance_types = list(string)
    min_size       = number
    max_size       = number
    desired_size   = number
  })
  default = {
    instance_types = ["m7i.xlarge"]
    min_size       = 2
    max_size       = 4
    desired_size   = 3
  }
}

variable "load_nodes" {
  description = "The tainted node group of the load runners (JMeter): nothing of the system can be scheduled there, so load generators never take CPU from what they measure."
  type = object({
    instance_types = list(string)
    min_size       = number
    max_size       = number
    desired_size   = number
  })
  default = {
    instance_types = ["c7i.xlarge"]
    min_size       = 1
    max_size       = 4
    desired_size   = 2
  }
}

variable "jwt" {
  description = "How the gateway verifies bearer tokens: your identity provider's issuer and JWKS URI (or a PEM of its public keys)."
  type = object({
    issuer         = string
    audience       = optional(string, "perflab")
    jwks_uri       = optional(string)
    public_key_pem = optional(string)
  })
}

variable "perflab_values_files" {
  description = "Further values files for the perflab chart (image registry and tag, replicas, storage class, switches)."
  type        = list(string)
  default     = []
}
