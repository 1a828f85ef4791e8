#!/usr/bin/env bash
# Installs what tick's tests need on a fresh Debian machine: the Jupyter
# clients from Debian's packages (PyPI is not reachable) and the Go modules.
# jupyter-notebook and chromium are for tests/jupyter/test_notebook_server.py
# (the notebook server, and its page in headless Chromium); without recommends
# they took 5 s and 8 s to install here. TICK_NO_BROWSER=1 leaves chromium out
# (the browser test then skips). npm installs JupyterLab's renderer packages
# into tests/lab (the Lab ranking test). jupyterhub (Debian's 3.0, with its
# configurable-http-proxy) is for tests/jupyter/test_hub.py. pocl (OpenCL on
# the CPU) with the ICD loader is the CL device's driver for the OpenCL tests
# (runtime/backend/cl, DEVICE=CL); clinfo, pyopencl and numpy for comparisons.
set -euo pipefail
cd "$(dirname "$0")/.."
pkgs="python3-jupyter-client jupyter-client python3-ipykernel python3-jupyter-kernel-test
python3-nbclient python3-nbformat python3-nbconvert jupyter-nbconvert jupyter-console
jupyter-notebook tmux jupyterhub
pocl-opencl-icd ocl-icd-libopencl1 ocl-icd-opencl-dev clinfo python3-pyopencl python3-numpy"
[ "${TICK_NO_BROWSER:-}" = 1 ] || pkgs="$pkgs chromium"
missing=""
for p in $pkgs; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "installing Debian packages:$missing"
  # apt-get-wait.sh waits (up to TICK_APT_LOCK_WAIT s, 600) for another
  # apt-get or an unattended upgrade to release the package locks.
  scripts/apt-get-wait.sh update -q
  scripts/apt-get-wait.sh install -y -q --no-install-recommends $missing
fi
if ! command -v cc >/dev/null 2>&1 && ! command -v gcc >/dev/null 2>&1; then
  echo "note: no C compiler; the native CPU backend is tested only where one exists"
fi
# JupyterLab's renderer packages (and esbuild, to bundle them for the
# browser) for tests/jupyter/test_lab_ranking.py: pinned by
# tests/lab/package-lock.json; about 90 MB, 40 s on a cold cache.
if command -v npm >/dev/null 2>&1; then
  if ! cmp -s tests/lab/package-lock.json tests/lab/node_modules/.tick-installed 2>/dev/null; then
    (cd tests/lab && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error &&
      cp package-lock.json node_modules/.tick-installed)
  fi
else
  echo "note: npm is missing; the JupyterLab ranking test will fail (install node and npm)"
fi
go mod download
# The linters scripts/lint.sh runs (a stage of test.sh), pinned, built from
# the Go module proxy into $(go env GOPATH)/bin.
go install honnef.co/go/tools/cmd/staticcheck@v0.8.2
go install golang.org/x/tools/cmd/deadcode@v0.52.0
