#!/usr/bin/env bash
# Starts podman's Docker-compatible socket for the container sandbox tier and builds the images it
# needs when they are missing or stale. No registry is reachable, so the base image comes from
# debootstrap. Idempotent, and quick when everything is already up. Source it to get DOCKER_HOST
# (and CONTAINERS_CONF) exported; run it to see what it does.
#
# Knobs: TESTBENCH_PODMAN_DIR (socket, config, logs; default /run/testbench-podman),
#        TESTBENCH_DEBIAN_MIRROR (default http://deb.debian.org/debian).

testbench_start_podman() {
  local dir="${TESTBENCH_PODMAN_DIR:-/run/testbench-podman}"
  local socket="$dir/podman.sock"
  local mirror="${TESTBENCH_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
  local here
  here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  local dockerfile="$here/adapters/sandbox/container/images/Dockerfile"
  local base_image="localhost/testbench/base:bookworm"
  local sandbox_image="localhost/testbench/sandbox:bookworm"

  if ! command -v podman >/dev/null; then
    echo "start-podman: podman is not installed (apt-get install podman runc uidmap slirp4netns fuse-overlayfs debootstrap)" >&2
    return 1
  fi
  mkdir -p "$dir"

  # Settings seen to work with Debian's podman 4.3 here: runc (not crun) and explicit default ulimits.
  local conf="$dir/containers.conf"
  local wanted_conf
  wanted_conf='[containers]
default_ulimits = ["nofile=1024:1024", "nproc=4096:4096"]

[engine]
runtime = "runc"'
  if [ "$(cat "$conf" 2>/dev/null)" != "$wanted_conf" ]; then
    printf '%s\n' "$wanted_conf" >"$conf"
    echo "start-podman: wrote $conf (runtime runc, default ulimits nofile=1024, nproc=4096)"
  fi
  export CONTAINERS_CONF="$conf"

  answering() {
    if command -v curl >/dev/null; then
      curl -sf --max-time 5 --unix-socket "$socket" http://d/_ping >/dev/null 2>&1
    else
      timeout 10 podman --remote --url "unix://$socket" version >/dev/null 2>&1
    fi
  }
  # A service started (by an older version of this script) from a clone since deleted answers, but
  # cannot mount anything ("getwd: no such file or directory"): stop it and start one from /.
  local service
  for service in $(pgrep -f "podman system service .*unix://$socket" || true); do
    if readlink "/proc/$service/cwd" | grep -q ' (deleted)$'; then
      echo "start-podman: the service at $socket runs in a deleted directory; restarting it"
      kill "$service" || true
      sleep 1
    fi
  done
  if answering; then
    echo "start-podman: socket already answering at $socket"
  else
    rm -f "$socket"
    # From /, so that the service outlives the clone it was started from (a deleted cwd breaks its mounts).
    (cd / && exec setsid nohup podman system service --time=0 "unix://$socket" >"$dir/service.log" 2>&1 </dev/null) &
    disown 2>/dev/null || true
    local waited=0
    until [ -S "$socket" ] && answering; do
      if [ "$waited" -ge 600 ]; then
        echo "start-podman: podman system service did not answer at $socket within 60 s; its log:" >&2
        tail -20 "$dir/service.log" >&2
        return 1
      fi
      sleep 0.1
      waited=$((waited + 1))
    done
    echo "start-podman: started podman system service at $socket (log: $dir/service.log)"
  fi

  if podman image exists "$base_image"; then
    echo "start-podman: $base_image is present"
  else
    echo "start-podman: building $base_image with debootstrap from $mirror (a few minutes, once)"
    local rootfs
    rootfs="$(mktemp -d /var/tmp/testbench-rootfs-XXXXXX)"
    if ! debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$dir/debootstrap.log" 2>&1; then
      echo "start-podman: debootstrap failed; the end of $dir/debootstrap.log:" >&2
      tail -20 "$dir/debootstrap.log" >&2
      rm -rf "$rootfs"
      return 1
    fi
    tar -C "$rootfs" -c . | podman import --quiet --change 'CMD ["/bin/bash"]' - "$base_image" >/dev/null
    rm -rf "$rootfs"
    echo "start-podman: imported $base_image"
  fi

  # The image carries the hash of the Dockerfile it was built from, so an edit triggers a rebuild.
  local wanted_hash current_hash
  wanted_hash="$(sha256sum "$dockerfile" | cut -d' ' -f1)"
  current_hash="$(podman image inspect --format '{{ index .Labels "testbench.dockerfile-sha256" }}' "$sandbox_image" 2>/dev/null || true)"
  if [ "$current_hash" = "$wanted_hash" ]; then
    echo "start-podman: $sandbox_image is up to date"
  else
    echo "start-podman: building $sandbox_image from $dockerfile (apt-get install of every toolchain: a few minutes, once)"
    if ! podman build --label "testbench.dockerfile-sha256=$wanted_hash" --build-arg "BASE=$base_image" \
      -t "$sandbox_image" -f "$dockerfile" "$(dirname "$dockerfile")" >"$dir/build.log" 2>&1; then
      echo "start-podman: podman build failed; the end of $dir/build.log:" >&2
      tail -20 "$dir/build.log" >&2
      return 1
    fi
    echo "start-podman: built $sandbox_image"
  fi

  export DOCKER_HOST="unix://$socket"
  echo "start-podman: DOCKER_HOST=$DOCKER_HOST CONTAINERS_CONF=$CONTAINERS_CONF"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  testbench_start_podman
else
  testbench_start_podman
fi
