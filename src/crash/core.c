/* Reading an ELF core file's notes and program headers into the crash
 * model (see crash.h).  libelf parses the headers and walks the notes; the
 * note bodies are x86_64 kernel structures, read here at fixed offsets so
 * that nothing depends on the host's headers.
 *
 * A core is untrusted input: every count is capped, every length checked
 * against the note or the image, and damage that leaves something useful
 * (a truncated core, a short note) is written to c->problems instead of
 * failing the read. */
#include <endian.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crash/crash.h"
#include "util/util.h"

#ifdef __x86_64__
#include <stddef.h>
#include <sys/procfs.h>
#endif

/* The x86_64 layouts of struct elf_prstatus and struct elf_prpsinfo (the
 * kernel's and gdb's: the same), checked against glibc's on x86_64. */
enum {
	PRSTATUS_CURSIG = 12,		/* short pr_cursig */
	PRSTATUS_PID = 32,		/* pid_t pr_pid: the thread's tid */
	PRSTATUS_REG = 112,		/* elf_gregset_t pr_reg */
	PRSTATUS_REG_END = PRSTATUS_REG + RC_CRASH_NREGS * 8,
	PRPSINFO_PID = 24,
	PRPSINFO_FNAME = 40,
	PRPSINFO_FNAME_LEN = 16,
	PRPSINFO_PSARGS = 56,
	PRPSINFO_PSARGS_LEN = 80,
	SIGINFO_SIGNO = 0,
	SIGINFO_CODE = 8,
	SIGINFO_ADDR = 16,
};

#ifdef __x86_64__
_Static_assert(offsetof(struct elf_prstatus, pr_cursig) == PRSTATUS_CURSIG, "pr_cursig");
_Static_assert(offsetof(struct elf_prstatus, pr_pid) == PRSTATUS_PID, "pr_pid");
_Static_assert(offsetof(struct elf_prstatus, pr_reg) == PRSTATUS_REG, "pr_reg");
_Static_assert(sizeof(elf_gregset_t) == RC_CRASH_NREGS * 8, "elf_gregset_t");
_Static_assert(offsetof(struct elf_prpsinfo, pr_pid) == PRPSINFO_PID, "prpsinfo pr_pid");
_Static_assert(offsetof(struct elf_prpsinfo, pr_fname) == PRPSINFO_FNAME, "pr_fname");
_Static_assert(offsetof(struct elf_prpsinfo, pr_psargs) == PRPSINFO_PSARGS, "pr_psargs");
_Static_assert(sizeof(((struct elf_prpsinfo *)0)->pr_psargs) == PRPSINFO_PSARGS_LEN, "pr_psargs");
#endif

/* Bounds on the note walk (a core has one PT_NOTE and a few notes per
 * thread; these leave room for every thread the model can hold). */
#define MAX_NOTE_SEGMENTS 64
#define MAX_NOTES (RC_CRASH_MAX_THREADS * 32)

/* One NT_FILE entry; path points into the note, valid while the Elf is. */
struct file_entry {
	uint64_t start, end, offset;
	const char *path;
};

/* Problems reported once per core, however many notes have them. */
enum {
	P_PRSTATUS_SHORT = 1 << 0,
	P_PRSTATUS_NOREGS = 1 << 1,
	P_THREADS_CAP = 1 << 2,
	P_NOTES_CAP = 1 << 3,
	P_MAPS_CAP = 1 << 4,
	P_OVERLAP = 1 << 5,
	P_BAD_LOAD = 1 << 6,
	P_NOTES_CUT = 1 << 7,
	P_NOTES_BAD = 1 << 8,
	P_PHDRS_CUT = 1 << 9,
};

struct reader {
	struct rc_crash *c;
	const unsigned char *image;
	size_t size;
	Elf *elf;
	unsigned reported;		/* P_* */

	size_t nprstatus;		/* NT_PRSTATUS notes seen (kept or not) */
	size_t threads_alloc;
	bool seen_siginfo, seen_psinfo, seen_auxv, seen_file;
	size_t nnotes;
	size_t note_segments;
	struct strbuf notes_cut;	/* why the notes are cut, for the error */

	struct file_entry *files;	/* NT_FILE, in note order */
	size_t nfiles;

	size_t maps_alloc;
};

static bool once(struct reader *r, unsigned what)
{
	if (r->reported & what)
		return false;
	r->reported |= what;
	return true;
}

static uint16_t get16(const unsigned char *p)
{
	uint16_t v;
	memcpy(&v, p, sizeof(v));
	return le16toh(v);
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

static const char *machine_name(unsigned m)
{
	switch (m) {
	case EM_386: return "i386";
	case EM_ARM: return "arm";
	case EM_AARCH64: return "aarch64";
	case EM_PPC: return "ppc";
	case EM_PPC64: return "ppc64";
	case EM_S390: return "s390";
	case EM_RISCV: return "riscv";
	case EM_MIPS: return "mips";
	case EM_SPARCV9: return "sparc64";
	case EM_LOONGARCH: return "loongarch";
	case EM_IA_64: return "ia64";
	default: return NULL;
	}
}

/* An executable (PIE or not) asks for an interpreter; a shared library
 * does not.  Static PIEs lack one too and are called shared objects:
 * either way, the message says it is no core. */
static bool has_interp(Elf *elf)
{
	size_t n;

	if (elf_getphdrnum(elf, &n) < 0)
		return false;
	for (size_t i = 0; i < n && i < 4096; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_INTERP)
			return true;
	}
	return false;
}

/* Is this an x86_64 core?  The messages say what it is instead. */
static int check_header(Elf *elf, struct strbuf *err)
{
	GElf_Ehdr eh;
	size_t idlen;
	const char *id = elf_getident(elf, &idlen);

	if (elf_kind(elf) != ELF_K_ELF || !id || idlen < EI_NIDENT) {
		strbuf_adds(err, "not an ELF file");
		return -1;
	}
	if (!gelf_getehdr(elf, &eh)) {
		strbuf_addf(err, "a damaged ELF file: %s", elf_errmsg(-1));
		return -1;
	}
	switch (eh.e_type) {
	case ET_CORE:
		break;
	case ET_EXEC:
		strbuf_adds(err, "an ELF executable, not a core");
		return -1;
	case ET_DYN:
		strbuf_adds(err, has_interp(elf) ? "an ELF executable, not a core" :
			    "an ELF shared object, not a core");
		return -1;
	case ET_REL:
		strbuf_adds(err, "an ELF object file, not a core");
		return -1;
	default:
		strbuf_addf(err, "an ELF file of type %u, not a core", (unsigned)eh.e_type);
		return -1;
	}
	if (eh.e_machine != EM_X86_64) {
		const char *m = machine_name(eh.e_machine);
		if (m)
			strbuf_addf(err, "a core for %s, not x86_64", m);
		else
			strbuf_addf(err, "a core for machine %u, not x86_64", (unsigned)eh.e_machine);
		return -1;
	}
	if (id[EI_CLASS] != ELFCLASS64) {
		strbuf_adds(err, "a 32-bit (x32) core, not x86_64");
		return -1;
	}
	if (id[EI_DATA] != ELFDATA2LSB) {
		strbuf_adds(err, "a big-endian core, not x86_64");
		return -1;
	}
	return 0;
}

static void note_prstatus(struct reader *r, const unsigned char *d, size_t len)
{
	struct rc_crash *c = r->c;

	r->nprstatus++;
	if (len < PRSTATUS_PID + 4) {
		if (once(r, P_PRSTATUS_SHORT))
			crash_problem(c, "a thread's NT_PRSTATUS note is too short (%zu bytes): thread skipped",
				      len);
		return;
	}
	if (c->nthreads >= RC_CRASH_MAX_THREADS) {
		if (once(r, P_THREADS_CAP))
			crash_problem(c, "more than %d threads: the rest are left out", RC_CRASH_MAX_THREADS);
		return;
	}
	if (c->nthreads == r->threads_alloc) {
		r->threads_alloc = r->threads_alloc ? 2 * r->threads_alloc : 16;
		c->threads = xrealloc(c->threads, r->threads_alloc * sizeof(*c->threads));
	}
	struct rc_thread *t = &c->threads[c->nthreads++];
	memset(t, 0, sizeof(*t));
	t->tid = (int)get32(d + PRSTATUS_PID);
	t->cursig = (int16_t)get16(d + PRSTATUS_CURSIG);
	/* Without every register the thread still counts (it existed);
	 * its zero registers make the unwinder give up on it. */
	if (len >= PRSTATUS_REG_END) {
		for (int i = 0; i < RC_CRASH_NREGS; i++)
			t->regs[i] = get64(d + PRSTATUS_REG + 8 * i);
	} else if (once(r, P_PRSTATUS_NOREGS)) {
		crash_problem(c, "thread %d's NT_PRSTATUS note is too short for its registers (%zu bytes)",
			      t->tid, len);
	}
}

static bool fault_signal(int signo)
{
	return signo == SIGSEGV || signo == SIGBUS || signo == SIGILL || signo == SIGFPE ||
	       signo == SIGTRAP;
}

static bool stop_signal(int signo)
{
	return signo == SIGSTOP || signo == SIGTSTP || signo == SIGTTIN || signo == SIGTTOU;
}

/* The kernel writes one NT_SIGINFO, after the first thread's NT_PRSTATUS;
 * gdb writes one per thread.  Either way, the first thread's is the one. */
static void note_siginfo(struct reader *r, const unsigned char *d, size_t len)
{
	struct rc_crash *c = r->c;

	if (r->seen_siginfo || r->nprstatus > 1 || len < SIGINFO_CODE + 4)
		return;
	r->seen_siginfo = true;
	c->has_siginfo = true;
	c->signo = (int)get32(d + SIGINFO_SIGNO);
	c->si_code = (int)get32(d + SIGINFO_CODE);
	/* si_addr only means an address when the kernel sent the signal for
	 * a fault (si_code > 0); for kill() or tgkill() (SI_USER, SI_TKILL)
	 * the same bytes hold the sender's pid and uid. */
	if (fault_signal(c->signo) && c->si_code > 0 && len >= SIGINFO_ADDR + 8)
		c->fault_addr = get64(d + SIGINFO_ADDR);
	else if (c->si_code <= 0 && len >= SIGINFO_ADDR + 4)
		c->sender_pid = (int)get32(d + SIGINFO_ADDR);
}

/* pr_psargs is the command line with its NULs turned into spaces, cut to
 * 79 characters: arguments with spaces in them cannot be told apart. */
static void set_argv(struct rc_crash *c, const char *s, size_t n)
{
	char **argv = xcalloc(RC_CRASH_MAX_ARGS + 1, sizeof(*argv));
	int argc = 0;
	size_t i = 0;

	while (i < n && argc < RC_CRASH_MAX_ARGS) {
		while (i < n && s[i] == ' ')
			i++;
		size_t b = i;
		while (i < n && s[i] != ' ')
			i++;
		if (i > b)
			argv[argc++] = xstrndup(s + b, i - b);
	}
	if (!argc) {
		free(argv);
		return;
	}
	c->argv = xrealloc(argv, (size_t)(argc + 1) * sizeof(*argv));
	c->argc = argc;
}

static void note_psinfo(struct reader *r, const unsigned char *d, size_t len)
{
	struct rc_crash *c = r->c;

	if (r->seen_psinfo)
		return;
	r->seen_psinfo = true;
	if (len >= PRPSINFO_PID + 4)
		c->pid = (int)get32(d + PRPSINFO_PID);
	if (len > PRPSINFO_FNAME) {
		const char *s = (const char *)d + PRPSINFO_FNAME;
		size_t n = strnlen(s, MIN(len - PRPSINFO_FNAME, (size_t)PRPSINFO_FNAME_LEN));
		if (n)
			c->fname = xstrndup(s, n);
	}
	if (len > PRPSINFO_PSARGS) {
		const char *s = (const char *)d + PRPSINFO_PSARGS;
		size_t n = strnlen(s, MIN(len - PRPSINFO_PSARGS, (size_t)PRPSINFO_PSARGS_LEN));
		set_argv(c, s, n);
	}
}

static void note_auxv(struct reader *r, const unsigned char *d, size_t len)
{
	struct rc_crash *c = r->c;

	if (r->seen_auxv)
		return;
	r->seen_auxv = true;
	for (size_t i = 0; i + 16 <= len; i += 16) {
		uint64_t type = get64(d + i), val = get64(d + i + 8);
		if (type == AT_NULL)
			break;
		if (type == AT_EXECFN)
			c->auxv_execfn = val;
		else if (type == AT_ENTRY)
			c->auxv_entry = val;
		else if (type == AT_PHDR)
			c->auxv_phdr = val;
	}
}

/* NT_FILE: count, page size, count x {start, end, page offset}, then
 * count NUL-terminated paths.  A count the note cannot hold means the
 * paths cannot be found: the note is dropped. */
static void note_file(struct reader *r, const unsigned char *d, size_t len)
{
	struct rc_crash *c = r->c;

	if (r->seen_file)
		return;
	r->seen_file = true;
	if (len < 16) {
		crash_problem(c, "the NT_FILE note is too short (%zu bytes): no file names for the mappings",
			      len);
		return;
	}
	uint64_t count = get64(d), page = get64(d + 8);
	if ((len - 16) / 24 < count) {
		crash_problem(c, "the NT_FILE note claims %llu files but holds at most %zu: "
			      "no file names for the mappings", (unsigned long long)count, (len - 16) / 24);
		return;
	}
	if (!page || (page & (page - 1)) || page > (1ULL << 30)) {
		crash_problem(c, "the NT_FILE note has a bad page size (%llu): no file names for the mappings",
			      (unsigned long long)page);
		return;
	}
	size_t n = (size_t)count, keep = MIN(n, (size_t)RC_CRASH_MAX_MAPPINGS);
	if (keep < n)
		crash_problem(c, "the NT_FILE note lists %zu files: only the first %zu are used", n, keep);
	size_t pos = 16 + n * 24;
	r->files = xcalloc(keep ? keep : 1, sizeof(*r->files));
	for (size_t i = 0; i < keep; i++) {
		const unsigned char *e = d + 16 + i * 24;
		const char *path = (const char *)d + pos;
		size_t plen = pos < len ? strnlen(path, len - pos) : 0;
		if (pos >= len || plen == len - pos) {
			crash_problem(c, "the NT_FILE note names %zu of its %zu files", i, n);
			break;
		}
		pos += plen + 1;
		uint64_t start = get64(e), end = get64(e + 8), pgoff = get64(e + 16);
		if (start >= end || !plen || pgoff > UINT64_MAX / page)
			continue;
		struct file_entry *f = &r->files[r->nfiles++];
		f->start = start;
		f->end = end;
		f->offset = pgoff * page;
		f->path = path;
	}
}

static bool is_core_name(const GElf_Nhdr *nh, const char *name)
{
	return nh->n_namesz == 5 && !memcmp(name, "CORE", 5);
}

static void read_notes(struct reader *r, const GElf_Phdr *ph)
{
	struct rc_crash *c = r->c;

	if (++r->note_segments > MAX_NOTE_SEGMENTS)
		return;
	uint64_t off = ph->p_offset, len = ph->p_filesz;
	if (!len)
		return;
	if (off >= r->size || len > r->size - off) {
		if (once(r, P_NOTES_CUT)) {
			struct strbuf *sb = &r->notes_cut;
			strbuf_adds(sb, "core truncated: its notes are cut off (the core file is ");
			strbuf_add_bytes(sb, r->size);
			strbuf_adds(sb, ", its notes end at ");
			strbuf_add_bytes(sb, off + MIN(len, UINT64_MAX - off));
			strbuf_addc(sb, ')');
			crash_problem(c, "%s", sb->buf);
		}
		if (off >= r->size)
			return;
		len = r->size - off;
	}
	Elf_Data *data = elf_getdata_rawchunk(r->elf, (int64_t)off, (size_t)len,
					      ph->p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR);
	if (!data) {
		if (once(r, P_NOTES_BAD))
			crash_problem(c, "cannot read the core's notes: %s", elf_errmsg(-1));
		return;
	}
	size_t pos = 0, next;
	GElf_Nhdr nh;
	size_t name_off, desc_off;
	while (pos < data->d_size && (next = gelf_getnote(data, pos, &nh, &name_off, &desc_off)) > 0) {
		if (++r->nnotes > MAX_NOTES) {
			if (once(r, P_NOTES_CAP))
				crash_problem(c, "more than %d notes: the rest are left out", MAX_NOTES);
			return;
		}
		pos = next;
		/* gelf_getnote checked these; a second look costs nothing. */
		if (name_off > data->d_size || nh.n_namesz > data->d_size - name_off ||
		    desc_off > data->d_size || nh.n_descsz > data->d_size - desc_off)
			break;
		const char *name = (const char *)data->d_buf + name_off;
		const unsigned char *desc = (const unsigned char *)data->d_buf + desc_off;
		if (!is_core_name(&nh, name))
			continue;
		switch (nh.n_type) {
		case NT_PRSTATUS:
			note_prstatus(r, desc, nh.n_descsz);
			break;
		case NT_SIGINFO:
			note_siginfo(r, desc, nh.n_descsz);
			break;
		case NT_PRPSINFO:
			note_psinfo(r, desc, nh.n_descsz);
			break;
		case NT_AUXV:
			note_auxv(r, desc, nh.n_descsz);
			break;
		case NT_FILE:
			note_file(r, desc, nh.n_descsz);
			break;
		}
	}
}

static int cmp_file(const void *a, const void *b)
{
	const struct file_entry *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

static int cmp_map(const void *a, const void *b)
{
	const struct rc_mapping *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

/* The NT_FILE entry holding ADDR in R->files sorted by start, or NULL. */
static const struct file_entry *file_at(const struct reader *r, uint64_t addr)
{
	size_t lo = count_le_u64(r->files, r->nfiles, sizeof(*r->files), offsetof(struct file_entry, start), addr);

	if (!lo || addr >= r->files[lo - 1].end)
		return NULL;
	return &r->files[lo - 1];
}

static struct rc_mapping *add_map(struct reader *r)
{
	struct rc_crash *c = r->c;

	if (c->nmaps >= RC_CRASH_MAX_MAPPINGS) {
		if (once(r, P_MAPS_CAP))
			crash_problem(c, "more than %d mappings: the rest are left out", RC_CRASH_MAX_MAPPINGS);
		return NULL;
	}
	if (c->nmaps == r->maps_alloc) {
		r->maps_alloc = r->maps_alloc ? 2 * r->maps_alloc : 64;
		c->maps = xrealloc(c->maps, r->maps_alloc * sizeof(*c->maps));
	}
	struct rc_mapping *m = &c->maps[c->nmaps++];
	memset(m, 0, sizeof(*m));
	m->file_size = -1;
	return m;
}

/* Sorts the maps and drops any that overlap an earlier one: a real core
 * has none, and crash_mapping_at's binary search needs them disjoint. */
static void sort_maps(struct reader *r)
{
	struct rc_crash *c = r->c;
	size_t out = 0;

	if (c->nmaps > 1)
		qsort(c->maps, c->nmaps, sizeof(*c->maps), cmp_map);
	for (size_t i = 0; i < c->nmaps; i++) {
		if (out && c->maps[i].start < c->maps[out - 1].end) {
			if (once(r, P_OVERLAP))
				crash_problem(c, "the core has overlapping segments at 0x%llx: the later ones are left out",
					      (unsigned long long)c->maps[i].start);
			free(c->maps[i].path);
			continue;
		}
		c->maps[out++] = c->maps[i];
	}
	c->nmaps = out;
}

/* Is [start, end) free of MAPS[0..N)?  They are sorted and disjoint. */
static bool maps_free(const struct rc_mapping *maps, size_t n, uint64_t start, uint64_t end)
{
	size_t lo = 0, hi = n;

	/* The first map ending after START is the only one that can overlap
	 * first; maps are disjoint, so their ends are sorted too. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (maps[mid].end <= start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo == n || maps[lo].start >= end;
}

struct load_stats {
	size_t with_data, cut;
	uint64_t want;			/* the size the core should have */
};

static void add_load(struct reader *r, const GElf_Phdr *ph, struct load_stats *st)
{
	uint64_t want = ph->p_offset + ph->p_filesz;

	if (ph->p_filesz && want >= ph->p_offset) {
		st->with_data++;
		if (ph->p_offset > r->size || ph->p_filesz > r->size - ph->p_offset)
			st->cut++;
		st->want = MAX(st->want, want);
	}
	if (!ph->p_memsz)
		return;
	if (ph->p_vaddr + ph->p_memsz < ph->p_vaddr) {
		if (once(r, P_BAD_LOAD))
			crash_problem(r->c, "a segment at 0x%llx wraps around the address space: left out",
				      (unsigned long long)ph->p_vaddr);
		return;
	}
	struct rc_mapping *m = add_map(r);
	if (!m)
		return;
	m->start = ph->p_vaddr;
	m->end = ph->p_vaddr + ph->p_memsz;
	m->read = ph->p_flags & PF_R;
	m->write = ph->p_flags & PF_W;
	m->exec = ph->p_flags & PF_X;
	m->core_offset = ph->p_offset;
	m->core_size = MIN(ph->p_filesz, ph->p_memsz);
	m->in_core = m->core_size && ph->p_offset <= r->size && m->core_size <= r->size - ph->p_offset;
}

/* The permissions of a file mapping the core has no segment for (gdb
 * leaves out unmodified file text): those of the file's own PT_LOAD that
 * holds OFFSET, read from the file on disk.  Only regular files are
 * opened: opening a device or a FIFO named by a core could block or do
 * something.  Without the file, a mapped file is at least readable. */
struct perm_cache {
	const char *path;		/* the path the phdrs below are from */
	GElf_Phdr *loads;
	size_t nloads;
};

static void load_file_phdrs(struct perm_cache *pc, const char *path)
{
	struct stat st;

	free(pc->loads);
	pc->loads = NULL;
	pc->nloads = 0;
	pc->path = path;
	if (path[0] != '/' || stat(path, &st) || !S_ISREG(st.st_mode) || !st.st_size)
		return;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return;
	}
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	size_t n;
	if (elf && elf_kind(elf) == ELF_K_ELF && !elf_getphdrnum(elf, &n)) {
		n = MIN(n, (size_t)256);	/* an ELF file has a dozen */
		pc->loads = xcalloc(n ? n : 1, sizeof(*pc->loads));
		for (size_t i = 0; i < n; i++) {
			GElf_Phdr ph;
			if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
				pc->loads[pc->nloads++] = ph;
		}
	}
	elf_end(elf);
	close(fd);
}

static void file_perms(struct perm_cache *pc, struct rc_mapping *m)
{
	if (!pc->path || strcmp(pc->path, m->path))
		load_file_phdrs(pc, m->path);
	m->read = true;
	for (size_t i = 0; i < pc->nloads; i++) {
		const GElf_Phdr *ph = &pc->loads[i];
		/* Segments are mapped from their page-aligned offset. */
		uint64_t from = ph->p_offset & ~(uint64_t)0xfff;
		uint64_t to = ph->p_offset + ph->p_filesz;
		if (to >= ph->p_offset && m->offset >= from && m->offset < to) {
			m->read = ph->p_flags & PF_R;
			m->write = ph->p_flags & PF_W;
			m->exec = ph->p_flags & PF_X;
			return;
		}
	}
}

/* Names the maps from NT_FILE, adds the files no segment covers (gdb
 * leaves some out), and finds each file's size now. */
static void label_maps(struct reader *r)
{
	struct rc_crash *c = r->c;
	struct perm_cache pc = { 0 };

	if (r->nfiles > 1)
		qsort(r->files, r->nfiles, sizeof(*r->files), cmp_file);
	for (size_t i = 0; i < c->nmaps; i++) {
		struct rc_mapping *m = &c->maps[i];
		const struct file_entry *f = file_at(r, m->start);
		if (!f)
			continue;
		m->path = xstrdup(f->path);
		m->offset = f->offset + (m->start - f->start);
	}
	size_t nloads = c->nmaps;
	for (size_t i = 0; i < r->nfiles; i++) {
		const struct file_entry *f = &r->files[i];
		/* Only the segments are checked: NT_FILE entries that overlap
		 * one another are sorted out by sort_maps below. */
		if (!maps_free(c->maps, nloads, f->start, f->end))
			continue;
		struct rc_mapping *m = add_map(r);
		if (!m)
			break;
		m->start = f->start;
		m->end = f->end;
		m->offset = f->offset;
		m->path = xstrdup(f->path);
		file_perms(&pc, m);
	}
	free(pc.loads);
	if (c->nmaps > nloads)
		sort_maps(r);

	const char *last = NULL;
	int64_t last_size = -1;
	for (size_t i = 0; i < c->nmaps; i++) {
		struct rc_mapping *m = &c->maps[i];
		if (!m->path)
			continue;
		if (!last || strcmp(last, m->path)) {
			struct stat st;
			last = m->path;
			/* A device has no size to compare offsets with. */
			last_size = m->path[0] == '/' && !stat(m->path, &st) && S_ISREG(st.st_mode) ?
				    (int64_t)st.st_size : -1;
		}
		m->file_size = last_size;
	}
}

/* AT_EXECFN points at the path given to execve, on the stack. */
static char *read_execfn(const struct rc_crash *c)
{
	char buf[PATH_MAX];
	size_t n = c->auxv_execfn ? crash_read_mem(c, c->auxv_execfn, buf, sizeof(buf) - 1) : 0;

	buf[n] = '\0';
	n = strnlen(buf, n);
	return n ? xstrndup(buf, n) : NULL;
}

/* The executable: the file mapping the program headers (AT_PHDR) or the
 * entry point; else the first file mapped from offset 0 (the kernel lists
 * the executable first); else the path execve was given. */
static void find_exe(struct reader *r, const struct file_entry *first_whole)
{
	struct rc_crash *c = r->c;
	const struct file_entry *f = NULL;

	if (c->auxv_phdr)
		f = file_at(r, c->auxv_phdr);
	if (!f && c->auxv_entry)
		f = file_at(r, c->auxv_entry);
	if (!f)
		f = first_whole;
	if (f)
		c->exe = xstrdup(f->path);
	else
		c->exe = read_execfn(c);
}

static void report_cut(struct reader *r, const struct load_stats *st)
{
	if (!st->cut)
		return;
	struct strbuf sb = STRBUF_INIT;
	strbuf_add_bytes(&sb, r->size);
	strbuf_adds(&sb, ", it should be ");
	strbuf_add_bytes(&sb, st->want);
	crash_problem(r->c, "core truncated: %zu of %zu segments are cut off (the core file is %s)",
		      st->cut, st->with_data, sb.buf);
	strbuf_release(&sb);
}

static int read_core(struct reader *r, struct strbuf *err)
{
	struct rc_crash *c = r->c;
	GElf_Ehdr eh;
	size_t phnum;

	if (check_header(r->elf, err) < 0)
		return -1;
	if (!gelf_getehdr(r->elf, &eh) || elf_getphdrnum(r->elf, &phnum) < 0) {
		strbuf_addf(err, "cannot read its program headers: %s", elf_errmsg(-1));
		return -1;
	}
	/* libelf counts only the program headers inside the image. */
	if (eh.e_phnum != PN_XNUM && phnum < eh.e_phnum) {
		r->reported |= P_PHDRS_CUT;
		crash_problem(c, "core truncated: %zu of its %u program headers are cut off",
			      eh.e_phnum - phnum, (unsigned)eh.e_phnum);
	}

	bool have_notes = false;
	struct load_stats st = { 0 };
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(r->elf, (int)i, &ph)) {
			crash_problem(c, "cannot read program header %zu: %s", i, elf_errmsg(-1));
			break;
		}
		if (ph.p_type == PT_NOTE) {
			have_notes = true;
			read_notes(r, &ph);
		} else if (ph.p_type == PT_LOAD) {
			add_load(r, &ph, &st);
		}
		if (i >= (size_t)INT_MAX)
			break;
	}
	report_cut(r, &st);

	if (!c->nthreads) {
		if (r->reported & P_PHDRS_CUT) {
			strbuf_adds(err, "core truncated: its program headers are cut off (the core file is ");
			strbuf_add_bytes(err, r->size);
			strbuf_adds(err, "): no thread to read");
		} else if (r->reported & P_NOTES_CUT) {
			strbuf_addf(err, "%s: no thread to read", r->notes_cut.buf);
		} else if (!have_notes)
			strbuf_adds(err, "no notes (PT_NOTE) in the core: no thread to read");
		else
			strbuf_adds(err, "no thread (NT_PRSTATUS note) in the core");
		return -1;
	}
	c->threads[0].crashed = true;
	c->crashed_tid = c->threads[0].tid;
	/* A core that gdb made of a running process records the SIGSTOP it
	 * attached with: the process was stopped, not killed by a signal. */
	if (c->has_siginfo && stop_signal(c->signo)) {
		c->has_siginfo = false;
		c->si_code = 0;
		c->fault_addr = 0;
	}
	if (!c->has_siginfo)
		c->signo = stop_signal(c->threads[0].cursig) ? 0 : c->threads[0].cursig;

	/* The first entry mapped from offset 0, before sorting. */
	const struct file_entry *first_whole = NULL;
	for (size_t i = 0; i < r->nfiles && !first_whole; i++)
		if (!r->files[i].offset)
			first_whole = &r->files[i];
	struct file_entry first = first_whole ? *first_whole : (struct file_entry){ 0 };

	sort_maps(r);
	label_maps(r);
	c->image = r->image;
	c->image_size = r->size;
	find_exe(r, first_whole ? &first : NULL);
	return 0;
}

int crash_read_core(struct rc_crash *c, const void *image, size_t size, struct strbuf *err)
{
	struct reader r = { .c = c, .image = image, .size = size };

	if (!size) {
		strbuf_adds(err, "the file is empty");
		return -1;
	}
	if (size < SELFMAG || memcmp(image, ELFMAG, SELFMAG)) {
		strbuf_adds(err, "not an ELF file");
		return -1;
	}
	elf_version(EV_CURRENT);
	/* libelf only reads the image (ELF_C_READ_MMAP_PRIVATE semantics):
	 * the cast does not let it write the caller's bytes. */
	r.elf = elf_memory((char *)image, size);
	if (!r.elf) {
		strbuf_addf(err, "not a readable ELF file: %s", elf_errmsg(-1));
		return -1;
	}
	int ret = read_core(&r, err);
	elf_end(r.elf);
	free(r.files);
	strbuf_release(&r.notes_cut);
	if (ret < 0)
		crash_release(c);
	return ret;
}
