# Sourced by every scenario's run script.  The harness (../run) sets:
#   RC_SRC     the scenario's directory (programs, expect)
#   RC_WORK    an empty scratch directory, mode 0755, removed afterwards
#   RC_LIB     this directory
#   RC_FLAGSET RC_LOG RC_STATUS   read by ./trace
#   RC_VARS    KEY=VALUE lines the expect file may use as ${KEY}
#   RC_SKIP    where skip() leaves its reason
# A run script sets the situation up in RC_WORK, runs the program under
# `rc_trace`, and exits 0; 77 means skipped; anything else means the
# scenario itself is broken.
set -eu

: "${RC_SRC:?}" "${RC_WORK:?}" "${RC_LIB:?}" "${RC_VARS:?}" "${RC_SKIP:?}"

PY=/usr/bin/python3
CC=${CC:-cc}

# Cleanup actions run in reverse order on any exit, so a failing or
# interrupted scenario leaves no listener, namespace or mount behind.
_rc_cleanup=""
on_exit() { _rc_cleanup="$1
$_rc_cleanup"; }
_rc_run_cleanup() {
	_rc_st=$?
	trap - EXIT INT TERM
	printf '%s\n' "$_rc_cleanup" | while IFS= read -r _rc_c; do
		[ -n "$_rc_c" ] && eval "$_rc_c" >/dev/null 2>&1 || :
	done
	exit "$_rc_st"
}
trap _rc_run_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

skip() {
	printf '%s\n' "$*" > "$RC_SKIP"
	exit 77
}

need_root() {
	[ "$(id -u)" = 0 ] || skip "needs root ($*)"
}

need_cmd() {
	for _c; do
		command -v "$_c" >/dev/null 2>&1 || skip "no '$_c' on this machine"
	done
}

# A minimal Debian root of this machine's release (debootstrap
# --variant=minbase, which fetches from the machine's Debian mirror), made
# once and kept in $RC_ROOT_CACHE (default /var/cache/rootcause-tests), in
# DEBIAN_ROOT. Scenarios never change it: what they add inside, they
# bind-mount in a mount namespace of their own. Skipped when it cannot be
# made in 10 minutes.
debian_root() {
	need_root "debootstrap"
	need_cmd debootstrap
	_cache=${RC_ROOT_CACHE:-/var/cache/rootcause-tests}
	_suite=$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-}")
	[ -n "$_suite" ] || skip "no VERSION_CODENAME in /etc/os-release"
	DEBIAN_ROOT=$_cache/$_suite
	[ -f "$DEBIAN_ROOT/.rootcause-made" ] && return 0
	mkdir -p "$_cache"
	rm -rf "$DEBIAN_ROOT.tmp"
	if ! timeout 600 debootstrap --variant=minbase "$_suite" "$DEBIAN_ROOT.tmp" \
		>"$_cache/debootstrap.log" 2>&1; then
		rm -rf "$DEBIAN_ROOT.tmp"
		skip "debootstrap could not make a $_suite root (see $_cache/debootstrap.log)"
	fi
	touch "$DEBIAN_ROOT.tmp/.rootcause-made"
	rm -rf "$DEBIAN_ROOT"
	mv "$DEBIAN_ROOT.tmp" "$DEBIAN_ROOT"
}

# A cgroup (v2) of the scenario's own, named as ENGINE's container with
# id ID would be by systemd's cgroup driver ("libpod-ID.scope" for podman,
# "docker-ID.scope"), under a slice of the scenario's: its directory in
# CONTAINER_CGROUP, removed on exit. Skipped without a writable cgroup2.
container_cgroup() {
	need_root "cgroups"
	_cg2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	[ -n "$_cg2" ] && [ -w "$_cg2" ] || skip "no writable cgroup2 mount"
	_slice="$_cg2/rootcause-test-$$.slice"
	CONTAINER_CGROUP="$_slice/$1-$2.scope"
	mkdir -p "$CONTAINER_CGROUP" || skip "cannot make a cgroup under $_cg2"
	on_exit "rmdir '$CONTAINER_CGROUP' '$_slice'"
}

rc_trace() {
	"$RC_LIB/trace" "$@"
}

setvar() {
	printf '%s=%s\n' "$1" "$2" >> "$RC_VARS"
}

# build OUT SOURCE... [CFLAGS...]: compile into RC_WORK with the system cc.
build() {
	_out=$1
	shift
	"$CC" -O0 -g -Wall -o "$RC_WORK/$_out" "$@"
}

# A TCP port on 127.0.0.1 nobody listens on right now.
free_port() {
	"$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_file FILE: wait up to 10 s for a helper to write FILE.
wait_file() {
	_n=0
	while [ ! -s "$1" ]; do
		_n=$((_n + 1))
		[ "$_n" -le 100 ] || { echo "timed out waiting for $1" >&2; return 1; }
		sleep 0.1
	done
}

# bg CMD...: start a helper in the background, killed on exit.
bg() {
	"$@" &
	on_exit "kill $! 2>/dev/null; wait $! 2>/dev/null"
}
