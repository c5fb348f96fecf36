# The container tier's image for BigCodeBench: the sandbox image plus the Python libraries the
# tasks import. Build from the repository root (the package list lives in .ci/):
#   podman build --build-arg BASE=localhost/testbench/sandbox:bookworm \
#     -t localhost/testbench/bigcodebench:bookworm -f adapters/sandbox/container/images/bigcodebench.Dockerfile .
# then run with SANDBOX=docker TESTBENCH_SANDBOX_IMAGE=localhost/testbench/bigcodebench:bookworm.
# Debian's python3-* packages cover most libraries; where a Python registry is reachable,
# --build-arg PIP_EXTRAS="tensorflow textblob librosa …" adds the ones Debian lacks (pip, into /usr/local).
ARG BASE=localhost/testbench/sandbox:bookworm
FROM ${BASE}
ARG PIP_EXTRAS=""
COPY .ci/bigcodebench-packages.txt /tmp/bigcodebench-packages.txt
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive xargs -a /tmp/bigcodebench-packages.txt apt-get install -y --no-install-recommends \
 && if [ -n "$PIP_EXTRAS" ]; then \
      DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-pip \
      && pip3 install --no-cache-dir --break-system-packages $PIP_EXTRAS; \
    fi \
 && rm -rf /var/lib/apt/lists/* /tmp/bigcodebench-packages.txt
LABEL testbench.languages="python"
