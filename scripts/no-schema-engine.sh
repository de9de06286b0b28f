#!/bin/sh
# Prisma 7's CLI wants a native schema-engine path even for `generate`, which never runs it.
# The binary would be downloaded from a host unreachable offline; migrations use src/db/migrate.ts (WASM engine).
echo "native schema engine not available offline; use npm run migrate:dev / migrate:deploy" >&2
exit 1
