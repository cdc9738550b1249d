# An EKS cluster with two node groups — `system` for everything measured and `load` (tainted) for the load runners —
# then the platform and perflab, pinned to the system group. The load group's taint keeps the system off it; the
# runners tolerate it and select it (charts/perflab-loadtest placement values).

provider "aws" {
  region = var.region
}

data "aws_availability_zones" "available" {
  state = "available"
}

locals {
  azs = slice(data.aws_availability_zones.available.names, 0, 3)

  pool_label = "perflab.dev/pool"
}

module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "6.6.0"

  name = var.name
  cidr = var.vpc_cidr
  azs  = local.azs

  private_subnets = [for i, _ in local.azs : cidrsubnet(var.vpc_cidr, 4, i)]
  public_subnets  = [for i, _ in local.azs : cidrsubnet(var.vpc_cidr, 8, 48 + i)]

  enable_nat_gateway = true
  single_nat_gateway = true

  public_subnet_tags  = { "kubernetes.io/role/elb" = 1 }
  private_subnet_tags = { "kubernetes.io/role/internal-elb" = 1 }
}

module "eks" {
  source  = "terraform-aws-modules/eks/aws"
  version = "21.19.0"

  name               = var.name
  kubernetes_version = var.kubernetes_version

  # The API endpoint is public only to the CIDRs you list (variables.tf refuses an open or empty list while it is on);
  # the nodes reach it through the private endpoint.
  endpoint_public_access                   = var.endpoint_public_access
  endpoint_public_access_cidrs             = var.endpoint_public_access_cidrs
  endpoint_private_access                  = true
  enable_cluster_creator_admin_permissions = true

  # every control-plane log, kept var.control_plane_log_days in CloudWatch: who called the API, and what the
  # scheduler and controllers decided while a run was measured
  enabled_log_types                      = ["api", "audit", "authenticator", "controllerManager", "scheduler"]
  cloudwatch_log_group_retention_in_days = var.control_plane_log_days

  vpc_id     = module.vpc.vpc_id
  subnet_ids = module.vpc.private_subnets

  addons = {
    coredns                = {}
    kube-proxy             = {}
    vpc-cni                = { before_compute = true }
    eks-pod-identity-agent = { before_compute = true }
    aws-ebs-csi-driver     = {}
  }

  eks_managed_node_groups = {
    system = {
      instance_types = var.system_nodes.instance_types
      min_size       = var.system_nodes.min_size
      max_size       = var.system_nodes.max_size
      desired_size   = var.system_nodes.desired_size
      labels         = { (local.pool_label) = "system" }
    }
    load = {
      instance_types = var.load_nodes.instance_types
      min_size       = var.load_nodes.min_size
      max_size       = var.load_nodes.max_size
      desired_size   = var.load_nodes.desired_size
      labels         = { (local.pool_label) = "load" }
      taints = {
        load = { key = local.pool_label, value = "load", effect = "NO_SCHEDULE" }
      }
    }
  }
}

provider "helm" {
  kubernetes = {
    host                   = module.eks.cluster_endpoint
    cluster_ca_certificate = base64decode(module.eks.cluster_certificate_authority_data)
    exec = {
      api_version = "client.authentication.k8s.io/v1beta1"
      command     = "aws"
      args        = ["eks", "get-token", "--cluster-name", module.eks.cluster_name, "--region", var.region]
    }
  }
}

module "platform" {
  source = "../../modules/platform"

  jwt         = var.jwt
  system_pool = { node_selector = { (local.pool_label) = "system" } }
  perflab_values = concat([yamlencode({ global = { storageClass = "gp2" } })],
  [for f in var.perflab_values_files : file(f)])

  depends_on = [module.eks]
}
