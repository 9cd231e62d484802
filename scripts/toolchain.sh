# Source this file (bash): it puts a project-local Node.js first on PATH and makes `pnpm` the pinned pnpm.
#
#   source scripts/toolchain.sh        # Node 24 (what the project develops and tests with)
#   source scripts/toolchain.sh 22     # Node 22 (the floor)
#
# Node comes from the npm registry's `node` package into .tools/node<major>/, so a machine whose own Node is
# older (or absent from PATH) needs only npm. pnpm runs through npx: corepack's signature check fails against
# some registries.

SWITCHYARD_NODE_24=24.21.0
SWITCHYARD_NODE_22=22.23.3
SWITCHYARD_PNPM=10.34.8

switchyard_toolchain() {
  local major=${1:-24}
  local version_var="SWITCHYARD_NODE_${major}"
  local version=${!version_var:-}
  if [[ -z $version ]]; then
    echo "toolchain: no pinned Node for major version '$major' (choose 24 or 22)" >&2
    return 2
  fi
  local root
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  local prefix="$root/.tools/node$major"
  local node_bin="$prefix/node_modules/node/bin"
  if [[ ! -x $node_bin/node ]] || [[ $("$node_bin/node" --version) != "v$version" ]]; then
    echo "toolchain: installing Node $version from the npm registry into .tools/node$major" >&2
    mkdir -p "$prefix"
    npm install --prefix "$prefix" --no-save --no-audit --no-fund --loglevel=error "node@$version" >&2 || return 1
    if [[ ! -x $node_bin/node ]]; then
      echo "toolchain: the node@$version package installed no binary at $node_bin/node" >&2
      return 1
    fi
  fi
  # A pnpm shim on PATH, so that turbo, tests that pack packages and the README's commands all find the same pnpm.
  local shim_dir="$root/.tools/bin"
  mkdir -p "$shim_dir"
  printf '#!/usr/bin/env bash\nexec npx -y pnpm@%s "$@"\n' "$SWITCHYARD_PNPM" >"$shim_dir/pnpm"
  chmod +x "$shim_dir/pnpm"
  export PATH="$node_bin:$shim_dir:$PATH"
  export TURBO_TELEMETRY_DISABLED=1
  hash -r
}

switchyard_toolchain "$@"
