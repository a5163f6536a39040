#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# perpkt-bisect never loses the user's work (issue 47, findings 2-4), on
# a fake kernel tree with a fake make (--make) and a fake perpkt
# ($PERPKT): nothing is built or booted. Each commit's "vmlinux" is its
# file `cost`; the fake make mimics make olddefconfig (a CONFIG_ symbol
# the commit's Kconfig lacks becomes "is not set", the old .config goes
# to .config.old), the fake perpkt records the cost and diffs two costs.
# Checked: Ctrl-C (SIGINT to the script's process group, as a terminal
# sends it) at four points and SIGTERM to the script alone end the
# bisect, go back to the branch and put .config back; every build starts
# from the user's .config, which is the same file afterwards; a tag
# named like the branch does not detach it; a detached start ends
# detached where it began; an ignored or untracked file that a commit of
# the range tracks makes it refuse to start; a tree it cannot put back
# is said loudly, exit 3; the copy of .config a killed run left is not
# taken over. BISECT=FILE runs another perpkt-bisect (an
# older one, to see these checks fail on it).
# Long by nature (git bisect runs on a fake tree, each interrupted and
# put back: 20 s quiet, 79-211 s beside the suite): label slow, out of
# make check, run by CI's check part (.ci/run: CHECK_SLOW=1); t0809
# bisects a real tree in make check-lab.
# ctest-label: slow
# It runs no perpkt code built here (a fake perpkt, a fake make): label
# no-sanitize, so check-sanitize leaves it out (61 s under it on CI's
# fresh machine, for nothing ASan could see).
# ctest-label: no-sanitize
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
command -v git >/dev/null || skip "needs git"
command -v setsid >/dev/null || skip "needs setsid (util-linux)"
BISECT=${BISECT:-$SRCDIR/src/lab/perpkt-bisect}
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t \
	GIT_COMMITTER_EMAIL=t@example.org GIT_CONFIG_NOSYSTEM=1 HOME=$TMP
FAKE=$TMP/fake
mkdir -p "$TMP/bin" "$FAKE"

# The fake make: one build. FAKE_BLOCK=make:N makes the Nth build say it
# is ready (the file $FAKE/ready, its pid) and wait to be stopped;
# FAKE_LEAVE=FILE leaves an untracked FILE where the commit lacks it.
cat >"$TMP/bin/fake-make" <<'EOF'
#!/bin/bash
n=$(($(cat "$FAKE/makes" 2>/dev/null || echo 0) + 1))
echo $n >"$FAKE/makes"
echo "$(git log -1 --format=%s) $(grep -E 'CONFIG_NEW[ =]' .config)" >>"$FAKE/builds"
if [ "${FAKE_BLOCK:-}" = make:$n ]; then echo $$ >"$FAKE/ready.tmp"; mv "$FAKE/ready.tmp" "$FAKE/ready"; exec sleep 300; fi
cp .config .config.old
while IFS= read -r l; do
	case $l in CONFIG_*=*) s=${l%%=*}; grep -qx "${s#CONFIG_}" Kconfig || l="# $s is not set" ;; esac
	printf '%s\n' "$l"
done <.config.old >.config
cp cost vmlinux
if [ -n "${FAKE_LEAVE:-}" ] && ! git ls-files --error-unmatch "$FAKE_LEAVE" >/dev/null 2>&1; then
	echo generated >"$FAKE_LEAVE"
fi
EOF
# The fake perpkt: record writes the cost as the profile (FAKE_BLOCK=
# record:N blocks the Nth); diff --fail-if: 1 when B costs more than A
cat >"$TMP/bin/fake-perpkt" <<'EOF'
#!/bin/bash
case $1 in
--version) echo "perpkt fake" ;;
record)
	n=$(($(cat "$FAKE/records" 2>/dev/null || echo 0) + 1))
	echo $n >"$FAKE/records"
	if [ "${FAKE_BLOCK:-}" = record:$n ]; then echo $$ >"$FAKE/ready.tmp"; mv "$FAKE/ready.tmp" "$FAKE/ready"; exec sleep 300; fi
	while [ $# -gt 0 ]; do [ "$1" = -o ] && o=$2; shift; done
	cat vmlinux >"$o" ;;
diff)
	for a; do :; done
	case " $* " in *" --by line "*) echo "line diff"; exit 0 ;; esac
	a=$(cat "${@: -2:1}") b=$(cat "${@: -1}")
	[ "$b" -gt "$a" ] || exit 0
	echo "perpkt: fail-if 'total > +1%' holds for 'instructions': +100%" >&2
	exit 1 ;;
*) exit 2 ;;
esac
EOF
chmod +x "$TMP/bin/fake-make" "$TMP/bin/fake-perpkt"

# new_tree: $T, branch work: c0 (the good end; no NEW in Kconfig),
# c1 (adds NEW), c2, c3 (costs more: the first bad), c4 (the bad end);
# the user's .config (and .config.old) beside, copies in $TMP/config*
T=$TMP/tree
commit() { git -C "$T" add -A && git -C "$T" commit -q -m "$1"; }
new_tree() {
	rm -rf "$T" "$FAKE" && mkdir -p "$T" "$FAKE" && git -C "$T" init -q -b work || fail "git init"
	printf '.config*\nvmlinux\n' >"$T/.gitignore"
	echo A >"$T/Kconfig"; echo 100 >"$T/cost"; commit c0
	echo NEW >>"$T/Kconfig"; commit c1
	echo x >"$T/file2"; commit c2
	echo 200 >"$T/cost"; commit c3
	echo y >"$T/file4"; commit c4
	printf 'CONFIG_A=y\nCONFIG_NEW=y\n' >"$T/.config"
	printf 'CONFIG_A=y\n' >"$T/.config.old"
	cp -p "$T/.config" "$TMP/config"; cp -p "$T/.config.old" "$TMP/config.old"
	C=($(git -C "$T" rev-list --reverse HEAD))
}
bisect() {
	PERPKT=$TMP/bin/fake-perpkt FAKE=$FAKE "$BISECT" -C "$T" --make "$TMP/bin/fake-make" \
		--fail-if 'total > +1%' "$@"
}
# spawn_bisect BLOCK ARGS...: in the background, in a process group of
# its own as a terminal's job (SIGINT not ignored), its pid in $pid
# (exec: the script's own, not a subshell's); returns when the fake
# BLOCK (make:N, record:N) says it is ready, its pid in $sleeper
spawn_bisect() {
	local at=$1; shift
	set -m
	FAKE_BLOCK=$at PERPKT=$TMP/bin/fake-perpkt FAKE=$FAKE exec "$BISECT" -C "$T" \
		--make "$TMP/bin/fake-make" --fail-if 'total > +1%' "$@" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	set +m
	WAIT_LINE_S=60 wait_file "$FAKE/ready" "$pid"
	sleeper=$(cat "$FAKE/ready")
}
# put_back WHAT [REF SAID]: no bisect running, HEAD on REF (default
# refs/heads/work), the user's .config and .config.old the same files,
# and it said so (SAID, a regex of stderr)
put_back() {
	local want=${2:-refs/heads/work} said=${3:-"back on branch 'work' (refs/heads/work)"} head
	[ ! -e "$T/.git/BISECT_START" ] || fail "$1: still in git bisect: $(cat "$TMP/err")"
	head=$(git -C "$T" symbolic-ref -q HEAD || echo "detached at $(git -C "$T" rev-parse HEAD)")
	[ "$head" = "$want" ] || fail "$1: HEAD is $head, not $want: $(cat "$TMP/err")"
	cmp -s "$T/.config" "$TMP/config" || fail "$1: .config changed: $(cat "$T/.config")"
	cmp -s "$T/.config.old" "$TMP/config.old" || fail "$1: .config.old changed"
	grep -q "$said" "$TMP/err" || fail "$1: does not say where it left the tree: $(cat "$TMP/err")"
}

# (1) Ctrl-C at four points: building the good end, recording the bad
# end, building the first step and recording it (inside git bisect run)
for at in make:1 record:2 make:3 record:3; do
	new_tree
	spawn_bisect $at "${C[0]}" "${C[4]}"
	kill -INT -- -"$pid"
	rc=0; wait "$pid" || rc=$?
	! alive "$sleeper" || { kill "$sleeper"; fail "SIGINT at $at: the fake $at still runs after the script ended"; }
	[ $rc = 130 ] || fail "SIGINT at $at: exit $rc, expected 130: $(cat "$TMP/err")"
	put_back "SIGINT at $at"
	grep -q "SIGINT" "$TMP/err" || fail "SIGINT at $at: not said: $(cat "$TMP/err")"
done
echo "SIGINT at four points: bisect ended, on work, .config put back"

# (2) SIGTERM to the script alone (kill PID, timeout): the build it
# started stops too, the tree goes back
new_tree
spawn_bisect make:3 "${C[0]}" "${C[4]}"
kill -TERM "$pid"
rc=0; wait "$pid" || rc=$?
if alive "$sleeper"; then kill "$sleeper"; fail "SIGTERM: the build still runs after the script ended"; fi
[ $rc = 143 ] || fail "SIGTERM: exit $rc, expected 143: $(cat "$TMP/err")"
put_back "SIGTERM"
echo "SIGTERM to the script: the build stopped, the tree put back"

# (3) a whole bisect: every build from the user's .config (c0 lacks NEW:
# the fake olddefconfig drops it there, and the next build must have it
# again), the .config the same file afterwards
new_tree
EXPECT_TIMEOUT=120 expect_exit 0 bisect "${C[0]}" "${C[4]}"
grep -q "^first bad commit: [0-9a-f]* c3" "$TMP/out" || fail "bisect: $(cat "$TMP/out" "$TMP/err")"
put_back "a whole bisect"
[ -s "$FAKE/builds" ] || fail "the fake make never ran"
while read -r c state; do
	[ "$c" = c0 ] || [ "$state" = CONFIG_NEW=y ] ||
		fail "$c was built from a .config without CONFIG_NEW=y ($state): the previous build's, not the user's"
done <"$FAKE/builds"
echo "a whole bisect: $(wc -l <"$FAKE/builds") builds, each from the user's .config; .config unchanged after"

# (4) a tag named like the branch: back on the branch, not detached
new_tree
git -C "$T" tag work "${C[0]}"
EXPECT_TIMEOUT=120 expect_exit 0 bisect "${C[0]}" "${C[4]}"
put_back "a tag named work"
echo "a tag named like the branch: back on refs/heads/work"

# (5) a detached start, interrupted in git bisect run: detached there
new_tree
git -C "$T" checkout -q --detach HEAD~1
at=$(git -C "$T" rev-parse HEAD)
spawn_bisect make:3 "${C[0]}" "${C[4]}"
kill -INT -- -"$pid"
rc=0; wait "$pid" || rc=$?
[ $rc = 130 ] || fail "detached, SIGINT: exit $rc: $(cat "$TMP/err")"
put_back "a detached start" "detached at $at" "back on the detached commit ${at:0:7}"
echo "a detached start: left detached at it"

# (6) an ignored NOTES of the user's, tracked by the good end: refused
# before any checkout, NOTES as it was
new_tree
git -C "$T" checkout -q -b notes "${C[0]}"
echo "old notes" >"$T/NOTES"; git -C "$T" add NOTES; git -C "$T" commit -q -m n0
git -C "$T" rm -q NOTES; echo NOTES >>"$T/.gitignore"; echo 200 >"$T/cost"; commit n1
echo "my notes, not committed anywhere" >"$T/NOTES"
cp "$T/NOTES" "$TMP/notes"
git -C "$T" status --porcelain | grep -q NOTES && fail "setup: NOTES is not ignored"
expect_exit 2 bisect notes~1 notes
cmp -s "$T/NOTES" "$TMP/notes" || fail "an ignored NOTES tracked by the good end was overwritten: $(cat "$T/NOTES" 2>&1)"
grep -q "would overwrite .*'NOTES'" "$TMP/err" || fail "ignored NOTES: not refused by name: $(cat "$TMP/err")"
[ ! -e "$FAKE/makes" ] || fail "ignored NOTES: it built before refusing"
[ "$(git -C "$T" symbolic-ref -q HEAD)" = refs/heads/notes ] || fail "ignored NOTES: HEAD moved"
echo "an ignored file tracked by a commit of the range: refused, kept"

# (7) an untracked scratch.c that c2 tracks and c3 removes: refused
new_tree
git -C "$T" checkout -q -b scratch "${C[2]}"
echo "theirs" >"$T/scratch.c"; commit s2
git -C "$T" rm -q scratch.c; echo 300 >"$T/cost"; commit s3
echo "mine" >"$T/scratch.c"
expect_exit 2 bisect "${C[0]}" scratch
grep -q "would overwrite .*'scratch.c'" "$TMP/err" || fail "untracked scratch.c: not refused by name: $(cat "$TMP/err")"
[ "$(cat "$T/scratch.c")" = mine ] || fail "untracked scratch.c changed"
echo "an untracked file tracked by a commit of the range: refused"

# (8) a build that leaves an untracked gen.h which the branch tracks: the
# tree cannot go back; said loudly (exit 3), .config put back still
new_tree
echo tracked >"$T/gen.h"; commit c5
cp -p "$T/.config" "$TMP/config"
FAKE_LEAVE=gen.h EXPECT_TIMEOUT=120 expect_exit 3 bisect "${C[0]}" work
grep -q "cannot put your tree back" "$TMP/err" || fail "a tree it could not put back: not said: $(cat "$TMP/err")"
grep -q "gen.h" "$TMP/err" || fail "a tree it could not put back: the reason (gen.h) not said: $(cat "$TMP/err")"
cmp -s "$T/.config" "$TMP/config" || fail "a tree it could not put back: .config not put back either"
echo "a tree it cannot put back: exit 3, said"

# (9) a run killed (SIGKILL: no trap) before it put .config back leaves
# the user's copy in --out: the next run says where, and does not take
# the .config the build left for the user's
new_tree
mkdir -p "$T/.git/perpkt-bisect"
printf 'CONFIG_A=y\nCONFIG_NEW=y\nCONFIG_MINE=y\n' >"$T/.git/perpkt-bisect/your.config"
expect_exit 2 bisect "${C[0]}" "${C[4]}"
grep -q "put your .config back (killed?): yours is '.*/your.config'" "$TMP/err" ||
	fail "a .config left by a killed run: not said: $(cat "$TMP/err")"
grep -q CONFIG_MINE "$T/.git/perpkt-bisect/your.config" || fail "a .config left by a killed run: overwritten"
[ ! -e "$FAKE/makes" ] || fail "a .config left by a killed run: it built"
echo "a .config left by a killed run: said, kept"
echo ok
