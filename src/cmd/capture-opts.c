/* Choosing and running the capture for run, attach and trace: the
 * calls to trace (-e trace=), the backend and its ring (--backend,
 * --ring-size), the session with what the user must know of it, and a
 * traced command's exit status as a shell gives it (cmd.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "capture/session.h"
#include "cmd/cmd.h"
#include "util/strbuf.h"
#include "util/util.h"

unsigned char *trace_selection(const char *expr)
{
	unsigned char *sel = select_new();
	struct strbuf err = STRBUF_INIT;

	if (!expr) {
		select_rules(sel);
	} else if (select_parse(sel, expr, &err) < 0) {
		error_msg("%s", strbuf_str(&err));
		free(sel);
		sel = NULL;
	}
	strbuf_release(&err);
	return sel;
}

/* Said while it happens, before any record is refused: the program is
 * slowed from here (capture.bpf.c's hold_for_room), or, where it cannot
 * be held, loses records. */
static void backlog_warning(void)
{
	error_msg("the program makes calls faster than rootcause writes them out (the ring buffer is three "
		  "quarters full): its threads wait for room from now on where rootcause can hold them, and "
		  "records are lost where it cannot (a larger --ring-size, or --backend ptrace)");
}

int trace_session(const struct session_opts *so, struct session_result *res, bool reported, struct strbuf *err)
{
	struct session_opts o = *so;

	o.on_backlog = backlog_warning;
	int r = session_run(&o, res, err);

	if (res->fallback[0] && !reported)
		error_msg("using ptrace, not eBPF: %s", res->fallback);
	if (res->no_stacks[0] && !reported)
		error_msg("a crash would have no stacks: %s", res->no_stacks);
	if (res->no_syscall_info)
		error_msg("this kernel lacks PTRACE_GET_SYSCALL_INFO (Linux 5.3): no call could be decoded");
	if (res->held_for_room)
		error_msg("the program was held %llu time%s until rootcause had written out what it did "
			  "(as strace holds it): no call was lost for it",
			  (unsigned long long)res->held_for_room, res->held_for_room == 1 ? "" : "s");
	if (session_losses(res))
		error_msg("the eBPF capture lost %llu record%s (the ring buffer was full), %llu call entr%s and "
			  "%llu child%s; %llu record%s %s not well formed",
			  (unsigned long long)res->lost_records, res->lost_records == 1 ? "" : "s",
			  (unsigned long long)res->lost_entries, res->lost_entries == 1 ? "y" : "ies",
			  (unsigned long long)res->lost_follows, res->lost_follows == 1 ? "" : "ren",
			  (unsigned long long)res->bad_records, res->bad_records == 1 ? "" : "s",
			  res->bad_records == 1 ? "was" : "were");
	if (res->nlost_who) {
		struct strbuf sb = STRBUF_INIT;
		loss_describe(&sb, res->lost_who, res->nlost_who);
		error_msg("the records lost, by thread and call: %s", sb.buf);
		strbuf_release(&sb);
	}
	return r;
}

static int ring_size_parse(const char *arg, size_t *out)
{
	char *end;
	unsigned long long v = strtoull(arg, &end, 10);

	if (end != arg && *end && !end[1]) {
		switch (*end) {
		case 'K': case 'k': v <<= 10; end++; break;
		case 'M': case 'm': v <<= 20; end++; break;
		case 'G': case 'g': v <<= 30; end++; break;
		default: break;
		}
	}
	if (end == arg || *end || v < 4096 || v > (1ULL << 30) || (v & (v - 1))) {
		error_msg("invalid --ring-size '%s' (a power of two from 4K to 1G)", arg);
		return -1;
	}
	*out = (size_t)v;
	return 0;
}

static int backend_parse(const char *arg, int *out)
{
	if (strcmp(arg, "ptrace") == 0)
		*out = BACKEND_PTRACE;
	else if (strcmp(arg, "ebpf") == 0)
		*out = BACKEND_EBPF;
	else if (strcmp(arg, "auto") == 0)
		*out = BACKEND_AUTO;
	else {
		error_msg("invalid --backend '%s' (ptrace, ebpf or auto)", arg);
		return -1;
	}
	return 0;
}

int command_status(const struct session_result *res, bool started)
{
	int ws = res->child_status;

	if (!started)
		return res->spawn_errno == ENOENT ? 127 : 126;
	if (ws == -1)
		return RC_EXIT_INTERNAL;
	return WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : WEXITSTATUS(ws);
}

void report_session(struct rc_report *rep, const struct session_result *res)
{
	rep->events = res->events;
	rep->summed = res->summed;
	rep->seconds = res->seconds;
	rep->backend = res->backend == BACKEND_EBPF ? "ebpf" : "ptrace";
	rep->backend_fallback = res->fallback[0] ? res->fallback : NULL;
	rep->no_stacks = res->no_stacks[0] ? res->no_stacks : NULL;
}

int backend_getopt(int opt, const char *arg, struct backend_opts *b)
{
	if (opt == OPT_NO_STACKS) {
		b->no_stacks = true;
		return 0;
	}
	return opt == OPT_BACKEND ? backend_parse(arg, &b->backend) : ring_size_parse(arg, &b->ring_bytes);
}
