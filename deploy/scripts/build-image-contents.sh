#!/usr/bin/env bash
# The steps that make the container image's /app, shared by deploy/Dockerfile and CI (deploy/scripts/check-deploy.sh
# runs them outside Docker), so a step that breaks shows in CI although CI cannot build images.
#   install        npm ci of the lockfile
#   build          TypeScript to dist/
#   prune          drop devDependencies from node_modules
#   stage <dir>    copy what runs (package.json, dist/, node_modules/, deploy/docker/) to <dir>
#   all <dir>      all four, in that order
# Runs in the current directory, which it changes (node_modules, dist): use a copy of the repository, never a checkout
# someone works in.
set -euo pipefail

install_dependencies() {
  npm ci --no-audit --no-fund
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
