output "namespace" {
  description = "Namespace of the perflab release."
  value       = helm_release.perflab.namespace
}

output "gateway_service" {
  description = "The gateway's Service, the system's only entry point (port-forward it, or expose it through the chart's exposure values)."
  value       = "${helm_release.perflab.name}-gateway.${helm_release.perflab.namespace}.svc:8080"
}

output "grafana_port_forward" {
  description = "How to reach Grafana (the perflab folder holds the system's dashboards)."
  value       = var.install_monitoring ? "kubectl -n ${var.monitoring_namespace} port-forward svc/${var.monitoring_release_label}-grafana 3000:80" : null
}

output "releases" {
  description = "Every Helm release this module installed, with its chart version."
  value = merge(
    { perflab = helm_release.perflab.version },
    var.install_monitoring ? { kube_prometheus_stack = helm_release.kube_prometheus_stack[0].version } : {},
  )
}
