#!/bin/bash
# The rootcause demo (make demo): story 1 on this machine.  A small voice
# service finds its weights missing from the model cache, tries to
# download them from a CDN that never answers, then cannot write its cache
# directory -- and exits with nothing but "model load failed".  The demo
# records it with strace, as a user would, and lets rootcause say why.
#
# Everything lives in a temp dir and on 127.0.0.1; the fake CDN and the
# temp dir are removed on exit.  rootcause's exit status 1 ("errors
# found") is the expected outcome: the demo exits 0 when it ran.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
rootcause=${RC_BIN:-$root/build/rootcause}
# Debian's python3, as the service's users have it, not a pyenv one.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

die() {
	echo "demo: $*" >&2
	exit 1
}
[ -x "$rootcause" ] || die "no $rootcause: build it first (make)"
command -v strace >/dev/null || die "strace is not installed (make deps)"
[ -x /usr/bin/python3 ] || die "python3 is not installed (make deps)"

work=$(mktemp -d /tmp/rootcause-demo.XXXXXX)
cdn_pid=""
cleanup() {
	if [ -n "$cdn_pid" ]; then
		kill "$cdn_pid" 2>/dev/null || :
		wait "$cdn_pid" 2>/dev/null || :
	fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The service runs as nobody: it must be able to read its own files.
chmod 755 "$work"
app=$work/voice-service
cp -r "$root/examples/voice-service" "$app"
chmod -R a+rX "$app"

# The cache directory belongs to root (someone ran the first install with
# sudo).  Root ignores mode bits, so as root the service runs as nobody;
# otherwise the directory is made read-only instead.
mkdir "$app/cache_hub"
runas=()
if [ "$(id -u)" = 0 ]; then
	chmod 755 "$app/cache_hub"
	runas=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
else
	chmod 555 "$app/cache_hub"
fi

/usr/bin/python3 "$app/fake_cdn.py" "$work/cdn.port" 300 &
cdn_pid=$!
for _ in $(seq 100); do
	[ -s "$work/cdn.port" ] && break
	sleep 0.1
done
[ -s "$work/cdn.port" ] || die "the fake CDN did not start"
cdn=127.0.0.1:$(cat "$work/cdn.port")

log=$work/voice-service.strace
echo "demo: running the voice service (CDN $cdn, which never answers) under strace:"
echo "demo:   strace -f -tt -T -y -s 256 -o voice-service.strace ${runas[*]:+${runas[*]} }bash start_app.sh"
status=0
(cd "$app" && VOICE_CDN=$cdn HOME=$app strace -f -tt -T -y -s 256 -o "$log" "${runas[@]}" bash start_app.sh) ||
	status=$?
echo "demo: the service exited with status $status; what happened?"
echo "demo:   rootcause analyze voice-service.strace"
echo
rc=0
"$rootcause" analyze "$log" || rc=$?
# 0 and 1 are answers (no errors, errors found); anything else is a
# failure of rootcause itself and must fail the demo.
[ $rc -le 1 ] || die "rootcause analyze failed (exit $rc)"

# The same report as a page to look at, kept beside the binary:
# the timeline shows the 3 s the CDN connect hung.
page=${RC_DEMO_HTML:-$(dirname "$rootcause")/voice-service.html}
rc=0
"$rootcause" analyze --format html -o "$page" "$log" || rc=$?
[ $rc -le 1 ] || die "rootcause analyze --format html failed (exit $rc)"
echo
echo "demo: the same as a page with its timeline: $page (open it in a browser)"

# The same without strace: rootcause's own tracer, the diagnosis on
# stderr when the service ends, and the service's own exit status.
echo
echo "demo: the same without strace, in one command:"
echo "demo:   rootcause run -- ${runas[*]:+${runas[*]} }bash start_app.sh"
echo
rc=0
(cd "$app" && VOICE_CDN=$cdn HOME=$app "$rootcause" run -- "${runas[@]}" bash start_app.sh) 2>&1 || rc=$?
[ $rc = "$status" ] || die "rootcause run exited $rc, the service itself $status"

# Where in the code: the ptrace tracer unwinds each call a finding quotes,
# Python frames and all, and says which line of the service made it.
echo
echo "demo: where in the code each call was made (the ptrace tracer unwinds them):"
echo "demo:   rootcause run --backend ptrace -- ${runas[*]:+${runas[*]} }bash start_app.sh"
echo
rc=0
(cd "$app" && VOICE_CDN=$cdn HOME=$app "$rootcause" run --backend ptrace -- "${runas[@]}" bash start_app.sh) 2>&1 ||
	rc=$?
[ $rc = "$status" ] || die "rootcause run --backend ptrace exited $rc, the service itself $status"
exit 0
