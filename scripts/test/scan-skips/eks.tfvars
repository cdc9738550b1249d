# What scripts/test/scan.sh tells checkov about envs/eks: the value a real apply must give (variables.tf has no default
# for it and refuses an open or empty list). Without it checkov cannot see the list and takes the eks module's default
# (0.0.0.0/0). 203.0.113.0/24 is a documentation range (RFC 5737). Not read by terraform itself.
endpoint_public_access_cidrs = ["203.0.113.0/24"]
