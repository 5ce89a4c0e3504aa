/* The in-kernel capture alone, for what it costs the traced program
 * (bench/bpf-vs-untraced): runs CMD held until it is followed, reads
 * every record while it runs, turns each into an event with its line
 * (as a backend will), and writes the lines to FILE (-o) or only counts
 * them. At the end, on stderr: "events N lost-reserve N lost-entry N
 * lost-follow N". Not part of rootcause's commands: `run`, `attach`
 * and `trace` do not use the eBPF capture yet.
 *
 *     bpf-capture [-o FILE] CMD [ARG...]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture/bpf/bpf.h"

struct out {
	FILE *f;
	struct arena a;
	unsigned long long events;
	pid_t child;
	bool ended;
	double epoch;
};

static int on_record(void *user, const void *rec, size_t size)
{
	struct out *o = user;
	struct rc_event e;

	arena_reset(&o->a);
	if (bpf_record_event(rec, size, o->epoch, &e, &o->a) <= 0)
		return 0;
	o->events++;
	if (o->f)
		fprintf(o->f, "%d %s\n", e.pid, e.line);
	if (e.kind == RC_EV_EXIT && e.pid == o->child)
		o->ended = true;
	return 0;
}

int main(int argc, char **argv)
{
	struct out o = { 0 };
	int opt;

	while ((opt = getopt(argc, argv, "+o:")) != -1) {
		if (opt != 'o') {
			fputs("usage: bpf-capture [-o FILE] CMD [ARG...]\n", stderr);
			return 2;
		}
		o.f = fopen(optarg, "w");
		if (!o.f) {
			fprintf(stderr, "bpf-capture: cannot open '%s': %s\n", optarg, strerror(errno));
			return 2;
		}
	}
	if (optind >= argc) {
		fputs("usage: bpf-capture [-o FILE] CMD [ARG...]\n", stderr);
		return 2;
	}
	struct strbuf err = STRBUF_INIT;
	struct bpf_capture *c;
	if (bpf_capture_open(&c, NULL, &err) < 0) {
		fprintf(stderr, "bpf-capture: %s\n", err.buf);
		return 77;
	}
	int go[2];
	if (pipe(go) != 0)
		return 2;
	pid_t pid = fork();
	if (pid == 0) {
		char b;
		close(go[1]);
		if (read(go[0], &b, 1) != 1)
			_exit(127);
		close(go[0]);
		execvp(argv[optind], argv + optind);
		_exit(127);
	}
	close(go[0]);
	o.child = pid;
	o.epoch = bpf_capture_epoch(c);
	if (bpf_capture_follow(c, pid, &err) < 0) {
		fprintf(stderr, "bpf-capture: %s\n", err.buf);
		kill(pid, SIGKILL);
		return 2;
	}
	if (write(go[1], "x", 1) != 1)
		return 2;
	close(go[1]);
	int st = 0;
	bool reaped = false;
	/* Read while it runs (50 ms at most between reads: the kernel half
	 * wakes us only past a backlog), then what is left. */
	while (!o.ended || !reaped) {
		if (bpf_capture_poll(c, 50, on_record, &o, &err) < 0) {
			fprintf(stderr, "bpf-capture: %s\n", err.buf);
			break;
		}
		if (!reaped && waitpid(pid, &st, WNOHANG) == pid)
			reaped = true;
	}
	struct bpf_capture_losses l;
	bpf_capture_losses(c, &l);
	fprintf(stderr, "events %llu lost-reserve %llu lost-entry %llu lost-follow %llu\n", o.events,
		(unsigned long long)l.reserve, (unsigned long long)l.entry, (unsigned long long)l.follow);
	bpf_capture_close(c);
	arena_release(&o.a);
	if (o.f)
		fclose(o.f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
