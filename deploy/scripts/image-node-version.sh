#!/usr/bin/env bash
# Prints the Node version of the container image (deploy/Dockerfile's `ARG NODE_IMAGE=node:<version>-...`), which
# .ci/run installs from the npm registry to run the tests, the image build steps and the fault test on.
set -euo pipefail
version=$(sed -n 's/^ARG NODE_IMAGE=node:\([0-9][0-9.]*\)-.*/\1/p' "$(dirname "$0")/../Dockerfile")
[ -n "$version" ] || { echo "no node:<version>-<variant> in deploy/Dockerfile's ARG NODE_IMAGE" >&2; exit 1; }
echo "$version"
