#!/usr/bin/env bash
# Run what CI runs on a new machine: clone this repository's HEAD commit into a temporary
# directory (with shared/ beside it, as CI has it), and run `make test` there, which builds
# its virtualenv from nothing but python3. Uncommitted changes are not part of the clone.
#   usage: scripts/ci_fresh_clone.sh [make targets...]   (default: test)
#   KEEP=1 keeps the temporary directory for a look afterwards.
set -euo pipefail
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
head=$(git -C "$repo" rev-parse HEAD)
if [ -n "$(git -C "$repo" status --porcelain --untracked-files=no)" ]; then
    echo "note: uncommitted changes in $repo are not tested" >&2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/scratchlearn-ci.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then
    echo "keeping $tmp" >&2
else
    trap 'rm -rf "$tmp"' EXIT
fi
git clone --quiet --no-checkout "$repo" "$tmp/repo"
git -C "$tmp/repo" checkout --quiet --detach "$head"
# shared/ sits beside the main checkout (a worktree's ../ may be elsewhere)
shared="$(dirname "$(git -C "$repo" rev-parse --path-format=absolute --git-common-dir)")/../shared"
if [ -d "$shared" ]; then
    ln -s "$(cd "$shared" && pwd)" "$tmp/shared"
fi
echo "fresh clone of $(git -C "$tmp/repo" log -1 --format='%h %s') in $tmp/repo"
start=$SECONDS
(cd "$tmp/repo" && CI=true make "${@:-test}")
echo "fresh clone: make ${*:-test} passed in $((SECONDS - start)) s"
