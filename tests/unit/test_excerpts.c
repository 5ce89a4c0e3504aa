/* Excerpts that users pasted into public issues about hangs, slowness and
 * start-up failures, kept as pasted (tests/fixtures/rules/public-*.log,
 * each .cmd names the thread and the cause its maintainers settled):
 * rootcause must name that cause, or what an strace reader would say of
 * the lines when the cause lies outside them. Made by nobody here, so
 * they test the principles on material that was never tuned for. */
#include "rule_test.h"

static const struct rt_expect pasted[] = {
	/* Hangs: the unfinished call at the end is the stall. */
	{ "public-flock-self-deadlock.log", "blocked-thread", "in flock on fd 3: waiting for a file lock", true },
	/* recv* reads only sockets, whoever made the fd: a peer that sends
	 * nothing, and the advice is a timeout (irrd's fix). */
	{ "public-workers-recvfrom.log", "blocked-thread",
	  "thread 15552 blocked all through the trace in recvfrom on fd 17: waiting for data from the peer", true },
	/* An exited child that wait4 never returns: its exit was lost. */
	{ "public-wait4-lost-exit.log", "blocked-thread", "its child pid 18860 exited and was never reaped", true },
	/* A loop that fails the same ioctl to the end: a spin, not a wait. */
	{ "public-urandom-ioctl-spin.log", "retry-loop",
	  "ioctl on '/dev/urandom' failed with ENOTTY 4 times in a row (with another call between)", true },
	/* Start-up in containers: a profile that refuses a call. */
	{ "public-clone3-eperm.log", "syscall-blocked", "'clone3' was refused (EPERM)", true },
	{ "public-faccessat2-eperm.log", "syscall-blocked", "'faccessat2' was refused (EPERM)", true },
	/* The newer version of a call refused with EPERM: a profile that
	 * predates it, not the file's owner. */
	{ "public-fchmodat2-eperm.log", "syscall-blocked", "'fchmodat2' was refused (EPERM)", true },
	/* A call a filter refused on a kernel before 4.8: number -1. */
	{ "public-seccomp-minus-one.log", "syscall-blocked", "'syscall_18446744073709551615' was refused (EPERM)",
	  true },
	/* On a terminal the program's text runs inside its write's line:
	 * the whole message, though -s cut the quoted string. */
	{ "public-armhf-eoverflow-terminal.log", "error-message",
	  "Error: Unknown system error -75: Unknown system error -75, stat 'myfile'", true },
	/* Slowness: a reader without a buffer shows itself in three lines
	 * of a paste, whatever they add up to. */
	{ "public-rsync-byte-reads.log", "small-io", "'/my-filelist' was read in 4 calls of typically 1 byte", true },
	{ "public-shada-tiny-reads.log", "small-io", "main.shada' was read in 3 calls of typically 1 byte", true },
	/* A close on every descriptor to the limit: the loop's first and
	 * last lines, the reporter's comment between them. */
	{ "public-close-to-rlimit.log", "fd-sweep",
	  "called close on every descriptor number from 3 to 1048575, one at a time (the log leaves out the lines "
	  "between): a loop up to an open-files limit of 1,048,576", true },
	/* A name resolved that is no host; the last line lost its return in
	 * the paste: strace printed its ")", so the call had returned. */
	{ "public-dns-per-template.log", "dns-failure", "customnodeprofile-2", true },
	{ "public-dns-per-template.log", "blocked-thread", NULL, false },
	/* Lines inside a shipper's records (logrus, from a VM's console):
	 * the strace lines they carry. */
	{ "public-getrandom-logrus.log", "blocked-thread",
	  "thread 737 blocked all through the trace in getrandom: the kernel's random pool is not ready yet", true },
	/* strace -p's old notice names the pid of the unprefixed lines. */
	{ "public-futex-attached.log", "blocked-thread", "thread 10999 blocked all through the trace in futex",
	  true },
};

static void pasted_causes_named(void **state)
{
	(void)state;
	rt_check_logs(pasted, ARRAY_SIZE(pasted));
}

/* A runtime that prints an errno by its number: the advice says which. */
static void errno_by_number_named(void **state)
{
	(void)state;
	struct rt t;
	const struct rc_finding *f =
		rt_expect_log(&t, "public-armhf-eoverflow-terminal.log", "error-message", "system error -75", true);
	assert_non_null(strstr(f->advice, "-75 is EOVERFLOW"));
	rt_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pasted_causes_named),
		cmocka_unit_test(errno_by_number_named),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
