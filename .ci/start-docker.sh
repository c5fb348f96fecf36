#!/usr/bin/env bash
# Starts a Docker Engine (Debian's docker.io) on a socket and data-root of its own, beside podman's
# (.ci/start-podman.sh), so that the container tier is tested on both engines, and gives it the sandbox
# image without a registry: podman's, which .ci/start-podman.sh builds (podman save | docker load). Idempotent, and quick when everything is already up. Source it to
# get TESTBENCH_DOCKER_ENGINE_HOST exported (DOCKER_HOST is left alone); run it to see what it does.
#
# Knobs: TESTBENCH_DOCKER_DIR (socket, pid file, logs; default /run/testbench-docker),
#        TESTBENCH_DOCKER_DATA (images and containers; default /var/lib/testbench-docker).

testbench_start_docker() {
  local dir="${TESTBENCH_DOCKER_DIR:-/run/testbench-docker}"
  local data="${TESTBENCH_DOCKER_DATA:-/var/lib/testbench-docker}"
  local socket="$dir/docker.sock"
  local here
  here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  local dockerfile="$here/adapters/sandbox/container/images/Dockerfile"
  local sandbox_image="localhost/testbench/sandbox:bookworm"

  if ! command -v dockerd >/dev/null; then
    echo "start-docker: dockerd is not installed (apt-get install docker.io)" >&2
    return 1
  fi
  mkdir -p "$dir" "$data"
  # The client of this engine, whatever DOCKER_HOST says (podman's, in CI).
  engine() { DOCKER_HOST="unix://$socket" docker "$@"; }
  answering() { curl -sf --max-time 5 --unix-socket "$socket" http://d/_ping >/dev/null 2>&1; }

  if answering; then
    echo "start-docker: Docker Engine already answering at $socket"
  else
    rm -f "$socket"
    # No iptables, NAT or bridge (not every CI machine or container allows them): the sandbox's containers
    # have no network. Its own exec-root keeps its containerd apart from
    # any other Engine's. From /, so that it outlives the clone it was started from.
    (cd / && exec setsid nohup dockerd --host "unix://$socket" --data-root "$data" --exec-root "$dir/exec" \
      --pidfile "$dir/dockerd.pid" --iptables=false --ip-masq=false --bridge=none \
      >"$dir/dockerd.log" 2>&1 </dev/null) &
    disown 2>/dev/null || true
    local waited=0
    until [ -S "$socket" ] && answering; do
      if [ "$waited" -ge 600 ]; then
        echo "start-docker: dockerd did not answer at $socket within 60 s; its log:" >&2
        tail -20 "$dir/dockerd.log" >&2
        return 1
      fi
      sleep 0.1
      waited=$((waited + 1))
    done
    echo "start-docker: started dockerd at $socket (data-root $data, log: $dir/dockerd.log)"
  fi

  # The image carries the hash of the Dockerfile it was built from, so an edit brings a fresh one.
  local wanted_hash current_hash
  wanted_hash="$(sha256sum "$dockerfile" | cut -d' ' -f1)"
  current_hash="$(engine image inspect --format '{{ index .Config.Labels "testbench.dockerfile-sha256" }}' "$sandbox_image" 2>/dev/null || true)"
  if [ "$current_hash" = "$wanted_hash" ]; then
    echo "start-docker: $sandbox_image is up to date"
    export TESTBENCH_DOCKER_ENGINE_HOST="unix://$socket"
    echo "start-docker: TESTBENCH_DOCKER_ENGINE_HOST=$TESTBENCH_DOCKER_ENGINE_HOST"
    return 0
  fi
  # Built once, by podman (.ci/start-podman.sh: a debootstrap base, no registry), and copied: both engines run the same image.
  local podman_hash
  podman_hash="$(podman image inspect --format '{{ index .Labels "testbench.dockerfile-sha256" }}' "$sandbox_image" 2>/dev/null || true)"
  if [ "$podman_hash" != "$wanted_hash" ]; then
    echo "start-docker: podman has no $sandbox_image built from $dockerfile; source .ci/start-podman.sh first (it builds it)" >&2
    return 1
  fi
  echo "start-docker: loading $sandbox_image from podman (podman save | docker load)"
  if ! podman save --format docker-archive "$sandbox_image" | engine load >"$dir/load.log" 2>&1; then
    echo "start-docker: podman save | docker load failed; the end of $dir/load.log:" >&2
    tail -20 "$dir/load.log" >&2
    return 1
  fi
  echo "start-docker: $sandbox_image is ready"
  export TESTBENCH_DOCKER_ENGINE_HOST="unix://$socket"
  echo "start-docker: TESTBENCH_DOCKER_ENGINE_HOST=$TESTBENCH_DOCKER_ENGINE_HOST"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  testbench_start_docker
else
  testbench_start_docker
fi
