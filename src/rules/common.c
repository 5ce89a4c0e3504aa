#include "rules/common.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "gen/tables.h"

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
	       c == '-' || (unsigned char)c >= 0x80;
}

bool rule_names_word(const char *text, const char *word)
{
	size_t n = strlen(word);

	if (!n)
		return false;
	for (const char *p = text; (p = strcasestr(p, word)) != NULL; p++) {
		if (p > text && (name_char(p[-1]) || p[-1] == '.'))
			continue;
		const char *q = p + n;
		if (name_char(*q) || (*q == '.' && name_char(q[1])))
			continue;
		return true;
	}
	return false;
}

static bool contains_phrase(const char *hay, const char *phrase)
{
	return phrase[0] && strcasestr(hay, phrase) != NULL;
}

bool rule_text_echoes(const struct rc_finding *f, const char *text, bool names_only)
{
	if (!text)
		return false;
	for (size_t w = 0; w < ARRAY_SIZE(f->echo_words); w++)
		if (f->echo_words[w] && (f->echo_whole[w] ? rule_names_word(text, f->echo_words[w])
						       : !names_only && contains_phrase(text, f->echo_words[w])))
			return true;
	return false;
}

bool rule_output_counts(const struct rc_procs *m, const struct rc_output *o)
{
	if (!o->discarded)
		return true;
	const struct rc_proc *culprit = NULL;
	if (!procs_image_failed(m, o->pid, o->image, &culprit) || !culprit)
		return false;
	const struct rc_proc *writer = procs_leader(m, o->pid), *failed = procs_leader(m, culprit->pid);
	return writer && failed && writer->pid == failed->pid && procs_failed(m, m->root, NULL);
}

const char *rule_output_naming(const struct rc_procs *m, const char *word, uint64_t seq)
{
	const char *last = NULL;

	for (size_t i = 0; i < m->out_count; i++) {
		const struct rc_output *o = &m->out[(m->out_head + i) % RC_OUTPUT_KEEP];
		if (o->seq >= seq && o->text && rule_output_counts(m, o) && rule_names_word(o->text, word))
			last = o->text;
	}
	return last;
}

const char *rule_proc_key(struct strbuf *sb, const struct rc_ctx *ctx, int pid, const char *name,
			  size_t len)
{
	strbuf_reset(sb);
	strbuf_addf(sb, "%d/", rule_leader(ctx, pid));
	strbuf_add(sb, name, len);
	return sb->buf;
}

char *rule_addr_format(int family, const char *host, int port, bool abstract)
{
	struct strbuf sb = STRBUF_INIT;

	if (!host)
		host = "?";
	if (family == AF_UNIX)
		strbuf_addf(&sb, "%s%s", abstract ? "@" : "", host);
	else if (family == AF_INET6 && port >= 0)
		strbuf_addf(&sb, "[%s]:%d", host, port);
	else if (port >= 0)
		strbuf_addf(&sb, "%s:%d", host, port);
	else
		strbuf_adds(&sb, host);
	return strbuf_detach(&sb);
}

char *rule_socket_peer(const struct rc_event *e, int fd, const struct rc_fdinfo *fi)
{
	if (fi->f && fi->f->peer_host)
		return rule_addr_format(fi->f->family, fi->f->peer_host, fi->f->peer_port, fi->f->abstract);
	if (fd == e->fd && e->sa.host &&
	    (e->sa.family == AF_INET || e->sa.family == AF_INET6 || e->sa.family == AF_UNIX))
		return rule_addr_format(e->sa.family, e->sa.host, e->sa.port, e->sa.abstract);
	return NULL;
}

void rule_add_end(struct strbuf *sb, const struct rc_sockaddr *sa)
{
	char *a = rule_addr_format(sa->family, sa->host, sa->port, sa->abstract);

	strbuf_adds(sb, a);
	free(a);
}

/* An inet socket whose decoration shows its ends or, with no address
 * yet, its inode. */
static bool inet_shown(const struct rc_fdfacts *h)
{
	return h && h->kind == RC_FD_SOCKET && (h->family == AF_INET || h->family == AF_INET6) &&
	       (h->local.family || h->inode);
}

void rule_fd_words(struct strbuf *sb, const struct rc_fdinfo *fi, const struct rc_fdfacts *shown, const char *peer)
{
	switch (fi->kind) {
	case RC_FD_FILE:
		strbuf_addf(sb, "'%s'", fi->path ? fi->path : "?");
		return;
	case RC_FD_PIPE:
		strbuf_adds(sb, shown && shown->kind == RC_FD_PIPE ? shown->desc : "a pipe");
		return;
	case RC_FD_SOCKET: {
		/* Both ends, as -yy showed them: "TCP 127.0.0.1:5000->...". */
		if (inet_shown(shown)) {
			strbuf_addf(sb, "%s ", shown->proto);
			if (!shown->local.family) {
				strbuf_addf(sb, "%llu", shown->inode);
				return;
			}
			rule_add_end(sb, &shown->local);
			if (shown->peer.family) {
				strbuf_adds(sb, "->");
				rule_add_end(sb, &shown->peer);
			}
			return;
		}
		bool unix_sock = fi->f ? fi->f->family == AF_UNIX : shown && shown->family == AF_UNIX;
		if (peer && unix_sock)
			strbuf_addf(sb, "unix socket %s", peer);
		else if (peer)
			strbuf_addf(sb, "%s socket to %s", fi->f && fi->f->sock_type == SOCK_DGRAM ? "UDP" : "TCP",
				    peer);
		else if (shown)
			strbuf_adds(sb, shown->desc);
		else
			strbuf_adds(sb, unix_sock ? "unix socket" : "socket");
		return;
	}
	default:
		strbuf_adds(sb, shown ? shown->desc : "an eventfd, timerfd or similar");
		return;
	}
}

void rule_add_seconds(struct strbuf *sb, double s)
{
	if (s < 0.01)
		strbuf_addf(sb, "%.1f ms", s * 1000);
	else
		strbuf_addf(sb, s < 10 ? "%.2f s" : "%.1f s", s);
}

bool rule_missing_dir(struct strbuf *sb, const struct rc_ctx *ctx, int pid, const char *path)
{
	const char *base = strrchr(path, '/');
	struct stat st;

	if (path[0] != '/' || !base)
		return false;
	strbuf_reset(sb);
	/* Each directory from the top: "/srv", "/srv/app", ... */
	for (const char *p = path + 1; p <= base; p++) {
		if (*p != '/' || p[-1] == '/')
			continue;
		strbuf_reset(sb);
		strbuf_add(sb, path, (size_t)(p - path));
		int r = lookup_stat(ctx->lookup, pid, sb->buf, &st);
		if (r == 1) {
			if (!S_ISDIR(st.st_mode))
				return false;
			continue;
		}
		return r == 0;
	}
	return false;
}

void rule_enter_failed(struct rule_enter_pending *p, int leader, const char *key)
{
	size_t i = p->next++ % RULE_ENTER_PENDING;

	free(p->key[i]);
	p->key[i] = xstrdup(key);
	p->pid[i] = leader;
}

void rule_enter_worked(struct rule_enter_pending *p, int leader, void (*found)(const char *key, void *arg),
		       void *arg)
{
	for (size_t i = 0; i < RULE_ENTER_PENDING; i++) {
		if (!p->key[i] || p->pid[i] != leader)
			continue;
		found(p->key[i], arg);
		free(p->key[i]);
		p->key[i] = NULL;
	}
}

void rule_enter_release(struct rule_enter_pending *p)
{
	for (size_t i = 0; i < RULE_ENTER_PENDING; i++)
		free(p->key[i]);
	memset(p, 0, sizeof(*p));
}

struct rc_finding *rule_finding(struct rc_findings *out, const char *rule, enum rc_severity severity,
				enum rc_severity severity_ok, struct strbuf *sb)
{
	struct rc_finding *f = finding_add(out, rule, severity, severity_ok, "%s", strbuf_str(sb));

	strbuf_release(sb);
	return f;
}

struct rc_finding *rule_dropped(struct rc_findings *out, const char *rule, enum rc_severity severity,
				enum rc_severity severity_ok, uint64_t count, const char *summary,
				const char *advice)
{
	struct rc_finding *f = finding_add(out, rule, severity, severity_ok, summary,
					   (unsigned long long)count);

	f->count = (long long)count;
	finding_set(&f->advice, advice);
	return f;
}

void rule_note_rest(struct rc_findings *out, size_t shown, long long rest, const char *what)
{
	if (!shown || rest <= 0)
		return;
	struct rc_finding *f = out->v[out->count - 1];
	/* A message of the finding's own (the loader's words) says more. */
	if (!f->message)
		finding_setf(&f->message, "%lld more %s not listed", rest, what);
}

void **rule_values(const struct hmap *map, rule_keep_fn *keep, const void *arg, size_t *n)
{
	void **v = xcalloc(map->count + 1, sizeof(*v));
	struct hmap_iter it;
	size_t k = 0;

	for (struct hmap_node *node = hmap_first(map, &it); node; node = hmap_next(map, &it))
		if (!keep || keep(node->value, arg))
			v[k++] = node->value;
	*n = k;
	return v;
}

/* ELEM points at a record pointer; the record holds a uint64_t at OFFSET. */
static uint64_t seq_at(const void *elem, size_t offset)
{
	const char *value = *(void *const *)elem;

	return *(const uint64_t *)(value + offset);
}

/* For qsort_r: the offset, which differs from rule to rule, is ARG. */
static int cmp_seq(const void *a, const void *b, void *arg)
{
	size_t offset = *(const size_t *)arg;
	uint64_t x = seq_at(a, offset), y = seq_at(b, offset);

	return (x > y) - (x < y);
}

void rule_report_in_order(const struct hmap *map, rule_keep_fn *keep, size_t seq_offset,
			  void (*emit)(const void *value, const void *arg, struct rc_findings *out),
			  const void *arg, struct rc_findings *out)
{
	size_t n;
	void **v = rule_values(map, keep, arg, &n);

	qsort_r(v, n, sizeof(*v), cmp_seq, &seq_offset);
	for (size_t i = 0; i < n; i++)
		emit(v[i], arg, out);
	free(v);
}

void rule_report_top(const struct hmap *map, rule_keep_fn *keep, int (*cmp)(const void *, const void *),
		     size_t max, void (*report)(const void *value, struct rc_findings *out),
		     struct rc_findings *out)
{
	size_t n;
	void **v = rule_values(map, keep, NULL, &n);

	qsort(v, n, sizeof(*v), cmp);
	for (size_t i = 0; i < n && i < max; i++)
		report(v[i], out);
	free(v);
}

int rule_cmp_rank(const void *a, const void *b)
{
	const struct rule_rank *x = a, *y = b;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return (x->seq < y->seq) - (x->seq > y->seq);
}

void rule_evict(struct hmap *map, bool (*drop)(const void *value), void (*free_value)(void *))
{
	struct hmap_iter it;
	struct hmap_node *n = hmap_first(map, &it);

	while (n) {
		struct hmap_node *next = hmap_next(map, &it);
		if (drop(n->value))
			free_value(hmap_del(map, n->key, n->keylen));
		n = next;
	}
}

void *rule_top_slot(void *top, int *n, int cap, size_t size, size_t weight_offset, double weight,
		    void (*drop)(void *entry))
{
	char *base = top;
	int pos = *n;

	while (pos > 0) {
		double w;
		memcpy(&w, base + (size_t)(pos - 1) * size + weight_offset, sizeof(w));
		if (w >= weight)
			break;
		pos--;
	}
	if (pos >= cap)
		return NULL;
	if (*n == cap)
		drop(base + (size_t)(cap - 1) * size);
	else
		(*n)++;
	char *slot = base + (size_t)pos * size;
	memmove(slot + size, slot, (size_t)(*n - 1 - pos) * size);
	return slot;
}

void *rule_int_value(struct hmap *map, long long key, bool create, size_t size, size_t cap,
		     bool *created)
{
	void **slot = hmap_get_int_hot(map, key);

	if (created)
		*created = false;
	if (slot || !create)
		return slot ? *slot : NULL;
	if (map->count >= cap)
		return NULL;
	void *v = xcalloc(1, size);
	*hmap_put_int(map, key, NULL) = v;
	if (created)
		*created = true;
	return v;
}

void rule_thread_time_add(struct hmap *map, int tid, double dur, size_t cap)
{
	void **slot = hmap_get_int_hot(map, tid);

	if (!slot && map->count < cap) {
		slot = hmap_put_int(map, tid, NULL);
		struct rule_thread_time *t = xcalloc(1, sizeof(*t));
		t->tid = tid;
		*slot = t;
	}
	if (slot) {
		struct rule_thread_time *t = *slot;
		t->total += dur;
		t->count++;
	}
}

/* Words that make a stderr line an error report. */
static const char *const error_words[] = {
	"error", "fatal", "panic", "failed", "failure", "cannot ", "can't ", "could not", "couldn't",
	"unable to", "no such file", "permission denied", "not permitted", "not found", "segmentation fault",
	"core dumped", "aborted", "exception", "refused", "timed out", "out of memory", "killed",
	"traceback", "errno", "denied", "unreachable", "invalid", "missing",
	"terminate called",	/* libstdc++: an uncaught exception, a joinable std::thread destroyed */
};

/* Standard output carries results; only unmistakable error lines count. */
static bool stdout_error(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	static const char *const starts[] = { "error", "fatal", "panic", "exception", "traceback (most recent" };
	for (size_t i = 0; i < ARRAY_SIZE(starts); i++)
		if (strncasecmp(s, starts[i], strlen(starts[i])) == 0)
			return true;
	return strcasestr(s, " failed") || strcasestr(s, "segmentation fault") ||
	       strcasestr(s, "error while loading shared libraries");
}

bool rule_error_line(const struct rc_output *o)
{
	if (!o->text || !o->text[0])
		return false;
	if (o->fd == 1)
		return stdout_error(o->text);
	for (size_t i = 0; i < ARRAY_SIZE(error_words); i++)
		if (strcasestr(o->text, error_words[i]))
			return true;
	return false;
}
