output "gateway_port_forward" {
  description = "How to reach the gateway from this machine."
  value       = "kubectl --context ${var.kube_context} -n ${module.platform.namespace} port-forward svc/perflab-gateway 8080:8080"
}

output "grafana_port_forward" {
  description = "How to reach Grafana."
  value       = module.platform.grafana_port_forward
}

output "releases" {
  description = "The Helm releases installed and their chart versions."
  value       = module.platform.releases
}
