#!/usr/bin/env bash
# Dev signing key and tokens for the gateway's edge authentication (RS256), and the service identity keys.
#   jwt.sh keys                      create the dev key pairs once ($PERFLAB_JWT_DIR; identity: $PERFLAB_IDENTITY_DIR)
#   jwt.sh token USER OFFICE [TTL]   print a signed bearer token (TTL seconds, default 3600)
#   jwt.sh callers USER N            N callers' tokens on one line, space-separated: USER, USER-2 ... USER-N of office 1
#                                    (an hour each; the load runner's CALLER_TOKENS)
#   jwt.sh identity ISSUER SUBJECT OFFICE AUDIENCE [TTL]
#                                    print an X-Perflab-Identity token as ISSUER signs it (perflab-gateway with
#                                    gateway.key, perflab-mail with mail.key; OFFICE "" for none; TTL default 60),
#                                    for calling a service directly: jwt.sh identity perflab-gateway alice 1 shortener
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
  # service identity (docs/architecture.md#service-identity): one RSA pair per signer; the services trust <signer>.pem.
  # The gateway and every service of scripts/lib/env.sh's list get one, so a service that starts signing needs no list here.
  mkdir -p "$PERFLAB_IDENTITY_DIR"
  local signer
  for signer in gateway "${PERFLAB_SERVICES[@]}"; do
    if [ ! -f "$PERFLAB_IDENTITY_DIR/$signer.key" ]; then
      openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$PERFLAB_IDENTITY_DIR/$signer.key.tmp" 2>/dev/null
      chmod 600 "$PERFLAB_IDENTITY_DIR/$signer.key.tmp"
      mv "$PERFLAB_IDENTITY_DIR/$signer.key.tmp" "$PERFLAB_IDENTITY_DIR/$signer.key"
      rm -f "$PERFLAB_IDENTITY_DIR/$signer.pem"
      log "dev identity key of $signer in $PERFLAB_IDENTITY_DIR"
    fi
    [ -f "$PERFLAB_IDENTITY_DIR/$signer.pem" ] ||
      openssl pkey -in "$PERFLAB_IDENTITY_DIR/$signer.key" -pubout -out "$PERFLAB_IDENTITY_DIR/$signer.pem"
  done
}

b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }

token() {
  local user=${1:?USER} office=${2:?OFFICE} ttl=${3:-3600} now header payload sig
  keys
  now=$(date +%s)
  header=$(printf '{"alg":"RS256","typ":"JWT","kid":"perflab-dev"}' | b64url)
  payload=$(printf '{"iss":"%s","aud":"%s","sub":"%s","office":"%s","iat":%d,"exp":%d}' \
    "$PERFLAB_JWT_ISSUER" "${PERFLAB_JWT_AUDIENCE:-perflab}" "$user" "$office" "$now" $((now + ttl)) | b64url)
  sig=$(printf '%s.%s' "$header" "$payload" | openssl dgst -sha256 -sign "$PERFLAB_JWT_DIR/private.pem" -binary | b64url)
  printf '%s.%s.%s\n' "$header" "$payload" "$sig"
}

# shellcheck disable=SC2059 # the format is the \xHH escapes to decode (hex digits only, never a %)
unhex() { local hex; hex=$(cat); printf "$(printf '%s' "$hex" | sed 's/../\\x&/g')"; }

# RFC 7638 thumbprint of an RSA public key (the kid IdentitySigner puts in its tokens): SHA-256 of {"e","kty","n"}
thumbprint() {
  local n e
  n=$(openssl pkey -pubin -in "$1" -noout -text | awk '/^Modulus:/{m=1;next} /^Exponent:/{m=0} m' | tr -d ' :\n' |
    sed 's/^00//' | unhex | b64url)
  e=$(openssl pkey -pubin -in "$1" -noout -text | sed -n 's/^Exponent: .*(0x\([0-9a-f]*\)).*/\1/p')
  [ $((${#e} % 2)) -eq 0 ] || e="0$e"
  e=$(printf '%s' "$e" | unhex | b64url)
  printf '{"e":"%s","kty":"RSA","n":"%s"}' "$e" "$n" | openssl dgst -sha256 -binary | b64url
}

identity() {
  local issuer=${1:?ISSUER} subject=${2:?SUBJECT} office=${3?OFFICE} audience=${4:?AUDIENCE} ttl=${5:-60}
  local key="$PERFLAB_IDENTITY_DIR/${issuer#perflab-}" now header payload sig claim=""
  keys
  [ -f "$key.key" ] || { echo "no identity key for $issuer ($key.key)" >&2; exit 2; }
  now=$(date +%s)
  [ -z "$office" ] || claim=$(printf ',"office":"%s"' "$office")
  header=$(printf '{"alg":"RS256","typ":"perflab-identity+jwt","kid":"%s"}' "$(thumbprint "$key.pem")" | b64url)
  payload=$(printf '{"iss":"%s","sub":"%s","aud":"%s"%s,"iat":%d,"exp":%d}' \
    "$issuer" "$subject" "$audience" "$claim" "$now" $((now + ttl)) | b64url)
  sig=$(printf '%s.%s' "$header" "$payload" | openssl dgst -sha256 -sign "$key.key" -binary | b64url)
  printf '%s.%s.%s\n' "$header" "$payload" "$sig"
}

case "${1:-}" in
  keys) keys ;;
  token) shift; token "$@" ;;
  identity) shift; identity "$@" ;;
  callers)
    token "$2" 1 3600
    for i in $(seq 2 "$3"); do printf ' '; token "$2-$i" 1 3600; done ;;
  *) echo "usage: $0 keys | token USER OFFICE [TTL] | callers USER N | identity ISSUER SUBJECT OFFICE AUDIENCE [TTL]" >&2; exit 2 ;;
esac
