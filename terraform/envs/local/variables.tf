variable "kubeconfig_path" {
  description = "Kubeconfig of the existing cluster (kind, k3d, minikube, or any other)."
  type        = string
  default     = "~/.kube/config"
}

variable "kube_context" {
  description = "Context in that kubeconfig (kind names it kind-<cluster>)."
  type        = string
  default     = "kind-perflab"
}

variable "jwt_issuer" {
  description = "Issuer of the bearer tokens the gateway accepts (scripts/lib/jwt.sh signs with this one)."
  type        = string
  default     = "https://perflab.local/dev"
}

variable "jwt_public_key_file" {
  description = "PEM file of the RSA public key(s) that verify bearer tokens; scripts/lib/jwt.sh keys makes a dev pair."
  type        = string
  default     = "../../../.run/jwt/public.pem"
}

variable "perflab_values_files" {
  description = "Further values files for the perflab chart (e.g. image registry and tag, replicas, switches)."
  type        = list(string)
  default     = []
}
