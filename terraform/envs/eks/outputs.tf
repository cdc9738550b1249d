output "cluster_name" {
  description = "The EKS cluster."
  value       = module.eks.cluster_name
}

output "kubeconfig_command" {
  description = "Adds the cluster to your kubeconfig."
  value       = "aws eks update-kubeconfig --region ${var.region} --name ${module.eks.cluster_name}"
}

output "load_pool" {
  description = "Label and taint of the load node group: the values the loadtest chart's runners need to land there."
  value = {
    node_selector = { (local.pool_label) = "load" }
    toleration    = { key = local.pool_label, operator = "Equal", value = "load", effect = "NoSchedule" }
  }
}

output "releases" {
  description = "The Helm releases installed and their chart versions."
  value       = module.platform.releases
}
