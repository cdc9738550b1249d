#!/usr/bin/env bash
# Dev signing key and tokens for the gateway's edge authentication (RS256).
#   jwt.sh keys                      create the dev key pair once ($PERFLAB_JWT_DIR)
#   jwt.sh token USER OFFICE [TTL]   print a signed bearer token (TTL seconds, default 3600)
set -euo pipefail
source "$(dirname "$0")/env.sh"

keys() {
  mkdir -p "$PERFLAB_JWT_DIR"
  if [ ! -f "$PERFLAB_JWT_DIR/private.pem" ]; then
    openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$PERFLAB_JWT_DIR/private.pem" 2>/dev/null
    openssl pkey -in "$PERFLAB_JWT_DIR/private.pem" -pubout -out "$PERFLAB_JWT_DIR/public.pem"
    chmod 600 "$PERFLAB_JWT_DIR/private.pem"
    log "dev JWT key pair in $PERFLAB_JWT_DIR"
  fi
}

b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }

token() {
  local user=${1:?USER} office=${2:?OFFICE} ttl=${3:-3600} now header payload sig
  keys
  now=$(date +%s)
  header=$(printf '{"alg":"RS256","typ":"JWT","kid":"perflab-dev"}' | b64url)
  payload=$(printf '{"iss":"%s","sub":"%s","office":"%s","iat":%d,"exp":%d}' \
    "$PERFLAB_JWT_ISSUER" "$user" "$office" "$now" $((now + ttl)) | b64url)
  sig=$(printf '%s.%s' "$header" "$payload" | openssl dgst -sha256 -sign "$PERFLAB_JWT_DIR/private.pem" -binary | b64url)
  printf '%s.%s.%s\n' "$header" "$payload" "$sig"
}

case "${1:-}" in
  keys) keys ;;
  token) shift; token "$@" ;;
  *) echo "usage: $0 keys | token USER OFFICE [TTL]" >&2; exit 2 ;;
esac
