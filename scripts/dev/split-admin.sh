#!/usr/bin/env bash
# Issue 20, criterion 4: src/domain/admin/ split into the areas its files belong to (ARCHITECTURE.md's
# area list). Pure moves plus import-path rewrites; not run by anything — kept so the move can be
# re-run after merging branches that still edit the old paths (run it from the repository root, on a
# clean tree; then `npx tsc -p .`).
#
# Why each lands where it does: the admin API is a surface's grouping, not an area of rules. Staff
# actions on users are account rules (accounts/), with the sign-up blocklists and the warnings; report
# handling belongs with reports (reports/); known instances, their purge and domain blocks/allows are
# the instances area (instances/, not instance/, which is this server's own description); relays,
# invites, media-proxy bans, instance documents, frontends and statistics are areas of their own in the
# list (relays/, invites/, media-proxy/, documents/, frontends/, stats/); the admin view of OAuth apps
# joins oauth-apps/, the admin status actions statuses/.
set -euo pipefail

MOVES=(
  "users.ops.ts accounts/admin-users.ops.ts"
  "users.read.ts accounts/admin-users.read.ts"
  "users-credentials.ops.ts accounts/admin-credentials.ops.ts"
  "reference-accounts.ops.ts accounts/admin-reference.ops.ts"
  "account-warnings.ts accounts/warnings.ts"
  "warning-presets.ops.ts accounts/warning-presets.ops.ts"
  "blocklists.ops.ts accounts/blocklists.ops.ts"
  "reports.ops.ts reports/admin-reports.ops.ts"
  "reference-reports.ops.ts reports/admin-reference.ops.ts"
  "instances.ops.ts instances/instances.ops.ts"
  "instances.jobs.ts instances/instances.jobs.ts"
  "domain-blocks.ops.ts instances/domain-blocks.ops.ts"
  "relays.ops.ts relays/relays.ops.ts"
  "invites.ops.ts invites/invites.ops.ts"
  "media-proxy.ops.ts media-proxy/media-proxy.ops.ts"
  "documents.ops.ts documents/documents.ops.ts"
  "frontends.ops.ts frontends/frontends.ops.ts"
  "oauth-apps.ops.ts oauth-apps/admin-apps.ops.ts"
  "stats.ops.ts stats/stats.ops.ts"
  "metrics.ops.ts stats/metrics.ops.ts"
  "server-metrics.ops.ts stats/server-metrics.ops.ts"
  "statuses.ops.ts statuses/admin-statuses.ops.ts"
)

map_file=$(mktemp)
for m in "${MOVES[@]}"; do
  set -- $m
  mkdir -p "src/domain/$(dirname "$2")"
  git mv "src/domain/admin/$1" "src/domain/$2"
  echo "src/domain/admin/$1 src/domain/$2" >>"$map_file"
done
rmdir src/domain/admin 2>/dev/null || true

# Rewrites every relative import (`from "…"`, `import("…")`) that reaches a moved file, and the relative
# imports inside the moved files themselves; and mentions of the old paths in comments and docs.
python3 - "$map_file" <<'PY'
import os, re, subprocess, sys
moves = dict(line.split() for line in open(sys.argv[1]) if line.strip())
old_of = {new: old for old, new in moves.items()}
files = subprocess.run(["git", "ls-files", "*.ts", "*.tsx", "*.mts", "*.mjs", "*.md"], capture_output=True, text=True, check=True).stdout.split()
spec = re.compile(r'''((?:from|import)\s*\(?\s*["'])(\.{1,2}/[^"']+)(["'])''')
for path in files:
    if not os.path.exists(path): continue
    src = open(path).read()
    here = os.path.dirname(path)
    was_here = os.path.dirname(old_of.get(path, path))  # where the file was when its imports were written
    def fix(m):
        target = os.path.normpath(os.path.join(was_here, m.group(2)))
        target = moves.get(target, target)
        rel = os.path.relpath(target, here)
        if not rel.startswith("."): rel = "./" + rel
        return m.group(1) + rel + m.group(3) if rel != m.group(2) or was_here != here else m.group(0)
    out = spec.sub(fix, src) if path.endswith((".ts", ".tsx", ".mts", ".mjs")) else src
    for old, new in moves.items():
        out = out.replace(old, new)
    if out != src:
        open(path, "w").write(out)
PY
rm -f "$map_file"
