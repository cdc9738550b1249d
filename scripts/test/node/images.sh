# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153 # a part of test-node.sh: its globals are set in one part and read in another
# the images the node runs: the JVM base, every service built by Jib and pushed, their config checked (sourced by scripts/test/test-node.sh, which defines kube, helmc, WORK and the release)

# IMAGES_FROM: a listing of image tarballs scripts/k8s/images.sh built before ("name tarball digest" lines: make test's,
# beside the reliability suite, on this base made by the same recipe), pushed here instead of building again
images() {
  if [ -n "${IMAGES_FROM:-}" ]; then
    local name tar tag pushed
    tag="$(sed -n 's/^appVersion: *"\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' charts/perflab/Chart.yaml)"
    while read -r name tar _; do
      pushed="$("$CRANE" push --insecure "$tar" "$PERFLAB_REGISTRY/perflab/$name:$tag" 2>>"$WORK/push.log")" \
        || { tail -5 "$WORK/push.log"; return 1; }
      echo "$name $PERFLAB_REGISTRY/perflab/$name:$tag ${pushed#*@}"
    done <"$IMAGES_FROM" >"$WORK/images.txt" || return 1
  else
    REGISTRY="$PERFLAB_REGISTRY/perflab" INSECURE=1 BASE_IMAGE="$BASE" PLATFORMS=linux/amd64 \
      scripts/k8s/images.sh >"$WORK/images.txt" || return 1
  fi
  sed 's/^/  /' "$WORK/images.txt"
}
IMAGES_STEP="images: Jib builds and pushes every service"
[ -z "${IMAGES_FROM:-}" ] || IMAGES_STEP="images: every service's, built by Jib before this test ($IMAGES_FROM), pushed"

image_config_checked() {  # the pushed images' config: user, labels, env (the AOT cache's flag, nothing else)
  local name ref rc=0 rev; rev="$(git rev-parse HEAD)"
  while read -r name ref _; do
    "$CRANE" config --insecure "$ref" | image_config_verdict "$name" "$rev" || rc=1
  done <"$WORK/images.txt"
  return $rc
}

image_config_verdict() {  # NAME REVISION, an image's config on stdin: one line, status 1 with what is wrong in it
  local out
  out="$(jq -r --arg name "$1" --arg rev "$2" '
    .config as $c | ([$c.Env[]? | capture("^(?<key>[^=]*)=(?<value>.*)$")] | from_entries) as $env
    | $c.Labels as $l | [
        (select($c.User != "1000:1000") | "user \($c.User)"),
        (select($l["org.opencontainers.image.revision"] != $rev) | "revision label \($l["org.opencontainers.image.revision"])"),
        (select($l["org.opencontainers.image.title"] != $name) | "title label \($l["org.opencontainers.image.title"])"),
        ("JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS" | select($env[.] != null) | "\(.) baked in"),
        # the Spring apps carry their AOT cache; the load runner none (scripts/k8s/images.sh)
        (($name != "load-tests") as $aot | select(($env.JDK_JAVA_OPTIONS != "-XX:AOTCache=/app/aot/app.aot") == $aot
          and ($aot or $env.JDK_JAVA_OPTIONS != null))
          | "JDK_JAVA_OPTIONS \($env.JDK_JAVA_OPTIONS): only the AOT cache is named there, in the Spring apps alone"),
        ([$c.Entrypoint[]? | select(startswith("-X"))] | select(length > 0) | "JVM flags in the entrypoint: \(join(" "))")
      ] as $bad
    | "  \($name)\t user \($c.User), revision \($rev[:12]), ports \($c.ExposedPorts // {} | keys)"
      + (if $bad == [] then "" else "  BAD: " + ($bad | join("; ")) end),
      ($bad == [])')" || return 1
  head -n 1 <<<"$out" | expand -t 12
  [ "$(tail -n 1 <<<"$out")" = true ]
}
