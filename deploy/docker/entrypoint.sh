#!/bin/sh
# The image runs one part of the platform, named by the first argument:
#   api-gateway | auth-service | assets-service | command-service | webhook-service | ocpp-gateway   a service
#   migrate [service ...]   the migrations of auth-service, assets-service, command-service and webhook-service (or those named)
#   admin <command> ...     the admin CLI (tenants, roles, users, API keys, signing keys)
# Services are exec'ed, so they are PID 1 and get SIGTERM directly (they shut down gracefully on it).
set -eu
cd "$(dirname "$0")/../.."
case "${1:-}" in
  # V8 flags per service: SERVICE_V8_FLAGS in libs/platform-launcher/src/platform-services.ts.
  ocpp-gateway)
    exec node --enable-source-maps --max-semi-space-size=64 "dist/apps/$1/src/main.js"
    ;;
  api-gateway | auth-service | assets-service | command-service | webhook-service)
    exec node --enable-source-maps "dist/apps/$1/src/main.js"
    ;;
  migrate)
    shift
    [ "$#" -gt 0 ] || set -- auth-service assets-service command-service webhook-service
    for service in "$@"; do
      case "$service" in
        auth-service | assets-service | command-service | webhook-service) ;;
        *) echo "no migrations for $service" >&2 && exit 64 ;;
      esac
      node --enable-source-maps "dist/apps/$service/src/migrate.js"
    done
    ;;
  admin)
    shift
    exec node --enable-source-maps dist/apps/auth-service/src/admin-cli/main.js "$@"
    ;;
  *)
    echo "usage: api-gateway|auth-service|assets-service|command-service|webhook-service|ocpp-gateway | migrate [service ...] | admin <command> ..." >&2
    exit 64
    ;;
esac
