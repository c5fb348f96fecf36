/**
 * The script that takes a repository's future out of an instance image (SWE-bench#465): run in /testbed, it leaves the
 * base commit and its ancestors only. Every ref (branches, tags, remotes, remote-tracking refs, notes, the stash,
 * `refs/original`…) is deleted and one branch is set at the base commit, with HEAD on it; remotes, reflogs, the special
 * heads (`ORIG_HEAD`, `FETCH_HEAD`…), other worktrees, rerere's cache, commit-graph and multi-pack-index files, and the
 * last commit message are removed; alternates are copied in and cut; then every object the base commit (or the index)
 * cannot reach is dropped, loose or packed, `.keep` packs included. Only `.git` is touched: the working tree and the
 * index keep whatever uncommitted state the image has (an environment's setup files, a built extension). It checks its
 * own work: an object left that neither the base commit nor the index reaches, or a ref past the base, fails it.
 * A repository that already holds no future (SWE-bench's images since its PR #471) is left as it is, and says so.
 * Exit status 3: HEAD is not at the base commit (the image is not what the instance says); 4: the check failed.
 */
export const NO_FUTURE_SCRIPT = String.raw`
set -eu
base="$1"
cd /testbed
# Whoever owns /testbed, git may work in it; nothing is written to the image's git configuration but /testbed's own.
export GIT_TERMINAL_PROMPT=0 GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=safe.directory GIT_CONFIG_VALUE_0=/testbed
full=$(git rev-parse --verify --quiet "$base^{commit}") || { echo "the base commit $base is not in /testbed's repository" >&2; exit 3; }
head=$(git rev-parse --verify --quiet 'HEAD^{commit}') || head=none
if [ "$head" != "$full" ]; then echo "/testbed's HEAD is $head, not the base commit $full" >&2; exit 3; fi
branch=$(git symbolic-ref --quiet --short HEAD 2>/dev/null) || branch=main
gitdir=$(git rev-parse --absolute-git-dir)
# Objects in the repository that neither the base commit nor the index reaches (at most five).
unreached() {
  all=$(mktemp); reached=$(mktemp)
  git cat-file --batch-all-objects --batch-check='%(objectname)' | sort -u >"$all"
  git rev-list --objects --indexed-objects "$full" | cut -d' ' -f1 | sort -u >"$reached"
  comm -23 "$all" "$reached" | head -5
  rm -f "$all" "$reached"
}
# A repository that already holds no future (SWE-bench's images since its PR #471) is left as it is.
pristine() {
  [ "$(git symbolic-ref --quiet HEAD 2>/dev/null)" = "refs/heads/$branch" ] || return 1
  [ "$(git for-each-ref --format='%(refname) %(objectname)')" = "refs/heads/$branch $full" ] || return 1
  [ -z "$(git remote)" ] || return 1
  for path in ORIG_HEAD FETCH_HEAD MERGE_HEAD CHERRY_PICK_HEAD REVERT_HEAD BISECT_HEAD AUTO_MERGE REBASE_HEAD COMMIT_EDITMSG logs \
    rr-cache worktrees objects/info/alternates objects/info/commit-graph objects/info/commit-graphs objects/pack/multi-pack-index; do
    [ ! -e "$gitdir/$path" ] || return 1
  done
  [ -z "$(find "$gitdir/objects/pack" -name '*.keep' -o -name '*.promisor')" ] || return 1
  [ -z "$(unreached)" ]
}
if pristine; then echo "already without a future: $branch at $full, $(git rev-list --count "$full") commits"; exit 0; fi
# Objects borrowed from another repository come in before the link is cut.
if [ -s "$gitdir/objects/info/alternates" ]; then git repack -a -d -q; rm -f "$gitdir/objects/info/alternates"; fi
git worktree prune 2>/dev/null || true
rm -rf "$gitdir/worktrees"
for remote in $(git remote); do git config --remove-section "remote.$remote" 2>/dev/null || true; done
git for-each-ref --format='%(refname)' | while read -r ref; do git update-ref --no-deref -d "$ref"; done
rm -f "$gitdir/packed-refs"
find "$gitdir/refs" -type f -delete
for name in ORIG_HEAD FETCH_HEAD MERGE_HEAD CHERRY_PICK_HEAD REVERT_HEAD BISECT_HEAD AUTO_MERGE REBASE_HEAD COMMIT_EDITMSG MERGE_MSG SQUASH_MSG; do
  rm -f "$gitdir/$name"
done
rm -rf "$gitdir/logs" "$gitdir/rr-cache" "$gitdir/rebase-merge" "$gitdir/rebase-apply" "$gitdir/sequencer" "$gitdir/info/refs" \
  "$gitdir/objects/info/commit-graph" "$gitdir/objects/info/commit-graphs" "$gitdir/objects/pack/multi-pack-index" \
  "$gitdir/gitk.cache" "$gitdir/shallow.lock"
for section in $(git config --name-only --get-regexp '^branch\.' 2>/dev/null | sed 's/\.[^.]*$//' | sort -u); do
  git config --remove-section "$section" 2>/dev/null || true
done
git symbolic-ref HEAD "refs/heads/$branch"
git -c core.logAllRefUpdates=false update-ref "refs/heads/$branch" "$full"
rm -rf "$gitdir/logs"
rm -f "$gitdir"/objects/pack/*.keep "$gitdir"/objects/pack/*.promisor
git -c core.logAllRefUpdates=false -c repack.writeBitmaps=false repack -a -d -q
git -c gc.pruneExpire=now prune --expire=now
# The check: no ref but the branch, and no object that the base commit or the index does not reach.
refs=$(git for-each-ref --format='%(refname) %(objectname)')
if [ "$refs" != "refs/heads/$branch $full" ]; then echo "refs left: $refs" >&2; exit 4; fi
left=$(unreached)
if [ -n "$left" ]; then echo "objects the base commit does not reach are left: $left" >&2; exit 4; fi
echo "no future: $branch at $full, $(git rev-list --count "$full") commits"
`
