# The platform perflab runs on, and perflab itself, into an existing cluster: kube-prometheus-stack (Prometheus
# with the remote-write receiver the load runners write into, Grafana loading every ConfigMap labelled
# grafana_dashboard into the folder its grafana_folder annotation names), then the perflab chart. The load runners
# need nothing installed here: the loadtest chart runs them as plain Jobs.

locals {
  perflab_chart = coalesce(var.perflab_chart, "${path.module}/../../../charts/perflab")

  system_scheduling = {
    nodeSelector = var.system_pool.node_selector
    tolerations = [for t in var.system_pool.tolerations : merge(
      { key = t.key, operator = t.operator, effect = t.effect },
      t.value == null ? {} : { value = t.value },
    )]
  }

  monitoring_values = {
    prometheus = {
      prometheusSpec = {
        # the load runners (JMeter, load-tests/) push their perflab_load_* metrics here
        enableRemoteWriteReceiver = true
        # request durations arrive as native histograms: the verdict sums them over runners
        enableFeatures = ["native-histograms"]
        nodeSelector   = local.system_scheduling.nodeSelector
        tolerations    = local.system_scheduling.tolerations
      }
    }
    grafana = {
      nodeSelector = local.system_scheduling.nodeSelector
      tolerations  = local.system_scheduling.tolerations
      sidecar = {
        dashboards = {
          enabled          = true
          label            = "grafana_dashboard"
          labelValue       = "1"
          searchNamespace  = "ALL"
          folderAnnotation = "grafana_folder"
          provider         = { foldersFromFilesStructure = true }
        }
      }
    }
    prometheusOperator = {
      nodeSelector = local.system_scheduling.nodeSelector
      tolerations  = local.system_scheduling.tolerations
    }
  }

  perflab_values = {
    scheduling = local.system_scheduling
    # ServiceMonitors, alert rules and dashboards need kube-prometheus-stack (installed here or already running)
    monitoring = {
      releaseLabel   = var.monitoring_release_label
      serviceMonitor = { enabled = true }
      prometheusRule = { enabled = true }
      dashboards     = { enabled = true }
    }
    networkPolicy = {
      prometheus = {
        namespaceSelector = { matchLabels = { "kubernetes.io/metadata.name" = var.monitoring_namespace } }
      }
    }
    gateway = {
      jwt = merge(
        { issuer = var.jwt.issuer, audience = var.jwt.audience },
        var.jwt.jwks_uri == null ? {} : { jwksUri = var.jwt.jwks_uri },
      )
    }
  }
}

resource "helm_release" "kube_prometheus_stack" {
  count = var.install_monitoring ? 1 : 0

  name             = var.monitoring_release_label
  repository       = "https://prometheus-community.github.io/helm-charts"
  chart            = "kube-prometheus-stack"
  version          = var.kube_prometheus_stack_version
  namespace        = var.monitoring_namespace
  create_namespace = true
  timeout          = var.timeout_seconds
  values           = [yamlencode(local.monitoring_values)]
}

resource "helm_release" "perflab" {
  name             = "perflab"
  chart            = local.perflab_chart
  namespace        = var.namespace
  create_namespace = true
  timeout          = var.timeout_seconds
  values           = concat([yamlencode(local.perflab_values)], var.perflab_values)

  set_sensitive = var.jwt.public_key_pem == null ? [] : [
    { name = "gateway.jwt.publicKey", value = var.jwt.public_key_pem },
  ]

  # the chart's ServiceMonitors and PrometheusRules need the operator's CRDs
  depends_on = [helm_release.kube_prometheus_stack]
}
