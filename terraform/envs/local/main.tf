# perflab on a cluster you already have (kind for a laptop): monitoring and the system, on whatever
# nodes there are. Build and load the images first (README: make images, kind load image-archive).

provider "helm" {
  kubernetes = {
    config_path    = pathexpand(var.kubeconfig_path)
    config_context = var.kube_context
  }
}

module "platform" {
  source = "../../modules/platform"

  jwt = {
    issuer         = var.jwt_issuer
    public_key_pem = file(pathexpand(var.jwt_public_key_file))
  }
  perflab_values = [for f in var.perflab_values_files : file(f)]
}
