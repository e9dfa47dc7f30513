#!/usr/bin/env bash
# The steps that make the container image's /app, shared by deploy/Dockerfile and CI (deploy/scripts/check-deploy.sh
# runs them outside Docker), so a step that breaks shows in CI although CI cannot build images.
#   install        npm ci of the lockfile (with the npm/cli#9846 fallback of .ci/run; the lockfile must not change)
#   build          TypeScript to dist/
#   prune          drop devDependencies from node_modules
#   stage <dir>    copy what runs (package.json, dist/, node_modules/, deploy/docker/) to <dir>
#   all <dir>      all four, in that order
# Runs in the current directory, which it changes (node_modules, dist): use a copy of the repository, never a checkout
# someone works in.
set -euo pipefail

install_dependencies() {
  local log
  log=$(mktemp)
  if ! npm ci --no-audit --no-fund 2>&1 | tee "$log"; then
    grep -q 'Missing: .*@ from lock file' "$log" || { rm -f "$log"; exit 1; }
    echo "npm ci hit npm/cli#9846: installing with npm install, the lockfile must stay as it is"
    cp package-lock.json "$log"
    npm install --no-audit --no-fund
    cmp -s package-lock.json "$log" || { rm -f "$log"; echo "npm install changed package-lock.json"; exit 1; }
  fi
  rm -f "$log"
}

stage() {
  local target=${1:?stage needs a target directory}
  mkdir -p "$target/deploy"
  cp package.json "$target/"
  cp -R dist node_modules "$target/"
  cp -R deploy/docker "$target/deploy/"
  # Source maps stay (stack traces name the TypeScript lines); the compiled tests are not built at all.
  find "$target/node_modules" -name '*.md' -not -name 'LICENSE*' -delete
}

step=${1:?usage: build-image-contents.sh install|build|prune|stage <dir>|all <dir>}
case "$step" in
  install) install_dependencies ;;
  build) npm run build ;;
  prune) npm prune --omit=dev --no-audit --no-fund ;;
  stage) stage "${2:-}" ;;
  all)
    target=${2:?all needs a target directory}
    install_dependencies
    npm run build
    npm prune --omit=dev --no-audit --no-fund
    stage "$target"
    ;;
  *)
    echo "unknown step $step" >&2
    exit 64
    ;;
esac
