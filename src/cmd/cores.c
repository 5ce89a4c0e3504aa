/* rootcause cores install|uninstall|list|show ID (and receive, which the
 * kernel runs): a crash store fed by kernel.core_pattern. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "crash/store.h"
#include "diagnose/diagnose.h"
#include "lookup/lookup.h"
#include "util/json.h"
#include "util/util.h"

static const char cores_usage[] =
	"usage: rootcause cores install [--dir DIR] [--max-size SIZE] [--keep-free SIZE]\n"
	"                               [--keep N] [--max-age DAYS]\n"
	"       rootcause cores uninstall\n"
	"       rootcause cores list [--dir DIR]\n"
	"       rootcause cores show [--dir DIR] [--format FORMAT] ID\n"
	"\n"
	"Keep every crash of the machine with its diagnosis. install points\n"
	"kernel.core_pattern at rootcause (remembering the value it had, which\n"
	"uninstall puts back): each core is stored zstd-compressed under DIR\n"
	"(default " STORE_DEFAULT_DIR "), mode 0600, with a JSON report\n"
	"beside it. A core larger than --max-size (default 8G) is cut there; a core\n"
	"that would leave less than --keep-free (default 1G) on the disk is cut\n"
	"short. The newest --keep (default 20) cores younger than --max-age days\n"
	"(default 30) are kept. list shows them, newest last; show ID prints one's\n"
	"report (--format text, json, html or perfetto, as for core). SIZE takes K,\n"
	"M and G suffixes. 'rootcause watch' keeps its incidents here too, one entry\n"
	"per signature with how often it was seen (incident.SIG; show prints its\n"
	"report as text or json); the same limits hold for them.\n"
	"\n"
	"options:\n"
	"  --dir DIR            the store (default: the one core_pattern feeds, else\n"
	"                       " STORE_DEFAULT_DIR ")\n"
	"  --max-size SIZE      install: cut a core larger than SIZE (default 8G)\n"
	"  --keep-free SIZE     install: leave SIZE free on the disk (default 1G)\n"
	"  --keep N             install: keep the newest N cores (default 20)\n"
	"  --max-age DAYS       install: drop cores older than DAYS (default 30)\n"
	"for show, as for core:\n"
	REPORT_OPTIONS_HELP
	"\n"
	"exit status: 0 done; 2 usage error; 3 the store or core_pattern cannot be\n"
	"read or written (install and uninstall need root).\n";

enum { OPT_DIR = 0x200, OPT_MAX_SIZE, OPT_KEEP_FREE, OPT_KEEP, OPT_MAX_AGE };

/* The store in use: --dir, else the one core_pattern names, else the
 * default. */
static void store_dir(const char *opt, struct strbuf *dir)
{
	struct strbuf pat = STRBUF_INIT, err = STRBUF_INIT;

	strbuf_reset(dir);
	if (opt)
		strbuf_adds(dir, opt);
	else if (store_read_pattern(&pat, &err) < 0 || !store_dir_of_pattern(pat.buf, dir))
		strbuf_adds(dir, STORE_DEFAULT_DIR);
	strbuf_release(&pat);
	strbuf_release(&err);
}

static int install(const char *dir, const struct store_config *cfg)
{
	struct strbuf err = STRBUF_INIT, cur = STRBUF_INIT, pat = STRBUF_INIT, ours = STRBUF_INIT;
	char bin[PATH_MAX], prev[4096];
	int status = RC_EXIT_INPUT;

	ssize_t n = readlink("/proc/self/exe", bin, sizeof(bin) - 1);
	if (n <= 0) {
		error_msg("cannot find rootcause's own path: %s", strerror(errno));
		return RC_EXIT_INPUT;
	}
	bin[n] = '\0';
	if (dir[0] != '/') {
		error_msg("the store directory must be an absolute path, not '%s'", dir);
		return RC_EXIT_USAGE;
	}
	if (store_pattern(bin, dir, &pat) < 0) {
		error_msg("core_pattern '%s' would be longer than the kernel's 127 bytes: use a shorter --dir",
			  pat.buf);
		return RC_EXIT_USAGE;
	}
	/* Each level made private: cores hold the crashed programs' memory. */
	char tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s", dir);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(tmp, 0755);
		*p = '/';
	}
	if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
		error_msg("cannot make store '%s': %s", dir, strerror(errno));
		return RC_EXIT_INPUT;
	}
	chmod(dir, 0700);
	if (store_read_pattern(&cur, &err) < 0 || store_config_save(dir, cfg, &err) < 0)
		goto out;
	/* Remember the pattern to restore, unless it is already ours (a
	 * second install must not make uninstall restore itself). */
	if (!store_dir_of_pattern(cur.buf, &ours)) {
		snprintf(prev, sizeof(prev), "%s/previous-core-pattern", dir);
		int fd = open(prev, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!f || fprintf(f, "%s\n", cur.buf) < 0 || fclose(f) != 0) {
			strbuf_addf(&err, "cannot write '%s': %s", prev, strerror(errno));
			goto out;
		}
	}
	if (store_write_pattern(pat.buf, &err) < 0)
		goto out;
	printf("kernel.core_pattern = %s\n(was: %s); cores go to %s\n", pat.buf, cur.buf, dir);
	status = RC_EXIT_OK;
out:
	if (status != RC_EXIT_OK)
		error_msg("%s", err.buf);
	strbuf_release(&err);
	strbuf_release(&cur);
	strbuf_release(&pat);
	strbuf_release(&ours);
	return status;
}

static int uninstall(const char *opt_dir)
{
	struct strbuf err = STRBUF_INIT, cur = STRBUF_INIT, dir = STRBUF_INIT;
	char prev[4096], line[512];
	int status = RC_EXIT_INPUT;

	if (store_read_pattern(&cur, &err) < 0)
		goto out;
	if (!store_dir_of_pattern(cur.buf, &dir)) {
		error_msg("kernel.core_pattern is '%s', not rootcause's: nothing to uninstall", cur.buf);
		goto done;
	}
	if (opt_dir && strcmp(opt_dir, dir.buf) != 0) {
		error_msg("kernel.core_pattern feeds store '%s', not '%s'", dir.buf, opt_dir);
		goto done;
	}
	snprintf(prev, sizeof(prev), "%s/previous-core-pattern", dir.buf);
	FILE *f = fopen(prev, "re");
	/* Without a remembered value, the kernel's default. */
	const char *old = "core";
	if (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		old = line;
	}
	if (f)
		fclose(f);
	if (store_write_pattern(old, &err) < 0)
		goto out;
	unlink(prev);
	printf("kernel.core_pattern = %s (restored); stored cores stay in %s\n", old, dir.buf);
	status = RC_EXIT_OK;
	goto done;
out:
	error_msg("%s", err.buf);
done:
	strbuf_release(&err);
	strbuf_release(&cur);
	strbuf_release(&dir);
	return status;
}

/* The first finding's summary and the signal, from ID's JSON report. */
static void report_summary(const char *dir, const char *id, struct strbuf *out)
{
	char path[4096];
	static char buf[1 << 16];

	snprintf(path, sizeof(path), "%s/%s.json", dir, id);
	FILE *f = fopen(path, "re");
	if (!f) {
		strbuf_adds(out, "(no report)");
		return;
	}
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* The writer is ours and pretty-prints one key a line: a look for
	 * the first "summary" needs no JSON parser. */
	const char *p = strstr(buf, "\"summary\": \"");
	if (!p) {
		strbuf_adds(out, "(no finding)");
		return;
	}
	p += strlen("\"summary\": \"");
	for (; *p && *p != '"' && out->len < 200; p++) {
		if (*p == '\\' && p[1])
			p++;
		strbuf_addc(out, *p);
	}
}

static int list(const char *dir)
{
	struct strbuf err = STRBUF_INIT, sum = STRBUF_INIT;
	size_t n;
	char **ids = store_list(dir, &n, &err);

	if (!ids) {
		error_msg("%s", err.buf);
		strbuf_release(&err);
		return RC_EXIT_INPUT;
	}
	for (size_t i = 0; i < n; i++) {
		char path[4096], when[32];
		struct stat st;
		time_t t = (time_t)store_entry_time(dir, ids[i]);
		struct tm tm;
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", localtime_r(&t, &tm));
		strbuf_reset(&sum);
		report_summary(dir, ids[i], &sum);
		struct store_seen seen;
		if (store_incident_seen(dir, ids[i], &seen)) {
			/* An incident: when last seen, and how often since when. */
			char first[32];
			time_t f = (time_t)seen.first;
			strftime(first, sizeof(first), "%Y-%m-%d %H:%M:%S", localtime_r(&f, &tm));
			printf("%s  %s  %llu time%s since %s  %s\n", ids[i], when, seen.count,
			       seen.count == 1 ? "" : "s", first, sum.buf);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s.zst", dir, ids[i]);
		long long kib = stat(path, &st) == 0 ? (long long)st.st_size / 1024 : -1;
		printf("%s  %s  %lld KiB  %s\n", ids[i], when, kib, sum.buf);
	}
	if (!n)
		printf("no cores or incidents in %s\n", dir);
	store_list_free(ids, n);
	strbuf_release(&err);
	strbuf_release(&sum);
	return RC_EXIT_OK;
}

/* An incident's report, as watch stored it: text or JSON. */
static int show_incident(const char *dir, const char *id, const struct report_opts *ro)
{
	char path[4096];
	struct store_seen seen;

	if (!store_incident_seen(dir, id, &seen)) {
		error_msg("no incident '%s' in %s", id, dir);
		return RC_EXIT_INPUT;
	}
	if (ro->format != RC_FORMAT_TEXT && ro->format != RC_FORMAT_JSON) {
		error_msg("incident '%s' is kept as text and json only", id);
		return RC_EXIT_USAGE;
	}
	snprintf(path, sizeof(path), "%s/%s.%s", dir, id, ro->format == RC_FORMAT_JSON ? "json" : "txt");
	FILE *in = fopen(path, "re");
	if (!in) {
		error_msg("incident '%s' has no report (it was larger than max_size): seen %llu times", id,
			  seen.count);
		return RC_EXIT_INPUT;
	}
	FILE *out = ro->output ? open_private(ro->output) : stdout;
	if (!out) {
		error_msg("cannot write '%s': %s", ro->output, strerror(errno));
		fclose(in);
		return RC_EXIT_INPUT;
	}
	char buf[8192];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	fclose(in);
	if (ro->format == RC_FORMAT_TEXT)
		fprintf(out, "seen %llu time%s, last at %lld\n", seen.count, seen.count == 1 ? "" : "s", seen.last);
	int status = RC_EXIT_OK;
	/* fflush first for both: fclose's own error is then a write-back error too. */
	int bad = fflush(out) != 0;
	if (out != stdout)
		bad |= fclose(out) != 0;
	if (bad) {
		error_msg("cannot write report: %s", strerror(errno));
		status = RC_EXIT_INPUT;
	}
	return status;
}

static int show(const char *dir, const char *id, const struct report_opts *ro)
{
	char path[4096];
	struct stat st;

	if (!strchr(id, '/') && store_is_incident(id))
		return show_incident(dir, id, ro);
	if (strchr(id, '/') || strncmp(id, "core.", 5) != 0) {
		error_msg("no core '%s' (ids are as 'rootcause cores list' prints them)", id);
		return RC_EXIT_USAGE;
	}
	snprintf(path, sizeof(path), "%s/%s.zst", dir, id);
	if (stat(path, &st) < 0) {
		error_msg("no core '%s' in %s", id, dir);
		return RC_EXIT_INPUT;
	}
	return core_report(path, NULL, ro, NULL, NULL);
}

/* Run by the kernel, with the core on stdin: store it, write its report,
 * prune.  Nobody reads its stderr: what went wrong goes to DIR/errors. */
static int receive(int argc, char **argv)
{
	if (argc != 7)
		return RC_EXIT_USAGE;
	const char *dir = argv[1];
	struct store_crash sc = {
		.pid = strtol(argv[2], NULL, 10),
		.tid = strtol(argv[3], NULL, 10),
		.signo = (int)strtol(argv[4], NULL, 10),
		.time = strtoll(argv[5], NULL, 10),
		.comm = argv[6],
	};
	struct store_config cfg;
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT, note = STRBUF_INIT;
	int status = RC_EXIT_OK;

	umask(077);
	/* While its core is in the pipe the process is there to ask: its
	 * root, through which its files are read (a container's, whose
	 * libraries are not this machine's), and its container. */
	struct container cont;
	struct rc_report_container rc;
	int pid = sc.pid > 0 && sc.pid <= INT_MAX ? (int)sc.pid : 0;
	int ns_fd = -1;
	struct core_origin origin = { pid ? lookup_open_root(pid, &ns_fd) : -1, NULL };
	if (pid && lookup_container_now(pid, &cont)) {
		diagnose_container(&cont, &rc);
		rc.pids = xmalloc(sizeof(*rc.pids));
		rc.pids[0] = pid;
		rc.npids = 1;
		origin.container = &rc;
	}
	if (store_config_load(dir, &cfg, &err) < 0 ||
	    store_receive(dir, &cfg, &sc, stdin, &path, &note, &err) < 0) {
		char log[4096];
		snprintf(log, sizeof(log), "%s/errors", dir);
		FILE *f = fopen(log, "ae");
		if (f) {
			fprintf(f, "%lld pid %ld (%s): %s\n", sc.time, sc.pid, sc.comm, err.buf);
			fclose(f);
		}
		status = RC_EXIT_INPUT;
	} else {
		struct strbuf json = STRBUF_INIT;
		strbuf_add(&json, path.buf, path.len - 4);	/* ".zst" */
		strbuf_adds(&json, ".json");
		struct report_opts ro;
		report_opts_init(&ro);
		ro.format = RC_FORMAT_JSON;
		ro.output = json.buf;
		/* The report's own findings decide nothing here. */
		core_report(path.buf, NULL, &ro, note.len ? note.buf : NULL, &origin);
		strbuf_release(&json);
		store_prune(dir, &cfg);
	}
	if (origin.container)
		diagnose_container_release(&rc);
	if (origin.root_fd >= 0)
		close(origin.root_fd);
	if (ns_fd >= 0)
		close(ns_fd);
	strbuf_release(&err);
	strbuf_release(&path);
	strbuf_release(&note);
	return status;
}

int cmd_cores(int argc, char **argv)
{
	static const struct option longopts[] = {
		REPORT_LONG_OPTIONS,
		{ "dir", required_argument, NULL, OPT_DIR },
		{ "max-size", required_argument, NULL, OPT_MAX_SIZE },
		{ "keep-free", required_argument, NULL, OPT_KEEP_FREE },
		{ "keep", required_argument, NULL, OPT_KEEP },
		{ "max-age", required_argument, NULL, OPT_MAX_AGE },
		{ NULL, 0, NULL, 0 },
	};
	struct report_opts ro;
	struct store_config cfg;
	const char *dir_opt = NULL;
	int opt, done;

	if (argc >= 2 && strcmp(argv[1], "receive") == 0)
		return receive(argc - 1, argv + 1);
	report_opts_init(&ro);
	store_config_default(&cfg);
	optind = 1;
	while ((opt = report_getopt(argc, argv, "o:vh", longopts, &ro, cores_usage, &done)) != -1) {
		uint64_t v;
		switch (opt) {
		case RC_OPTS_EXIT:
			return done;
		case OPT_DIR:
			dir_opt = optarg;
			continue;
		case OPT_MAX_SIZE:
		case OPT_KEEP_FREE:
			if (!parse_size(optarg, &v)) {
				error_msg("invalid size '%s' (bytes, or with K, M or G)", optarg);
				return RC_EXIT_USAGE;
			}
			*(opt == OPT_MAX_SIZE ? &cfg.max_size : &cfg.keep_free) = v;
			continue;
		case OPT_KEEP:
		case OPT_MAX_AGE:
			if (!parse_size(optarg, &v) || v > 1000000) {
				error_msg("invalid number '%s'", optarg);
				return RC_EXIT_USAGE;
			}
			*(opt == OPT_KEEP ? &cfg.keep : &cfg.max_age_days) = (unsigned)v;
			continue;
		}
	}
	const char *sub = optind < argc ? argv[optind] : NULL;
	int nargs = argc - optind - 1;
	struct strbuf dir = STRBUF_INIT;
	int status;

	store_dir(dir_opt, &dir);
	if (sub && strcmp(sub, "install") == 0 && nargs == 0) {
		status = install(dir_opt ? dir_opt : STORE_DEFAULT_DIR, &cfg);
	} else if (sub && strcmp(sub, "uninstall") == 0 && nargs == 0) {
		status = uninstall(dir_opt);
	} else if (sub && strcmp(sub, "list") == 0 && nargs == 0) {
		status = list(dir.buf);
	} else if (sub && strcmp(sub, "show") == 0 && nargs == 1) {
		status = show(dir.buf, argv[optind + 1], &ro);
	} else {
		if (sub)
			error_msg("cores: unknown or incomplete command '%s'", sub);
		fputs(cores_usage, stderr);
		status = RC_EXIT_USAGE;
	}
	strbuf_release(&dir);
	return status;
}
