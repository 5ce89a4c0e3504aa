/* A Python program's walk read from its files before any process runs
 * them (python.h, crash_python_program).
 *
 * The walk's offsets come from the same place as a live process's
 * (crash_python_walk): the version's row, or 3.13's debug offsets. Both
 * are in the file: Py_Version in .rodata, _Py_DebugOffsets at the start
 * of _PyRuntime's initialised data. So the file's loadable segments are
 * the program's memory before it runs, and are read as a core's are (an
 * rc_crash whose image is the file). Only where _PyRuntime will be is
 * left to the kernel: the distance from the base the file is placed at.
 *
 * The file is untrusted as a core is: every header, offset and size is
 * checked by libelf or here before a byte is read. */
#include "crash/python.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

/* Segments kept per file: executables and libraries have four or five. */
#define MAX_LOADS 16
/* A Python executable or libpython is a few MiB; far past it is no
 * program of ours to read. */
#define MAX_FILE (1ull << 30)
#define PAGE 4096ull
/* DT_NEEDED, DT_RPATH, DT_RUNPATH strings kept. */
#define MAX_DYN_STR 4096

struct elf_view {
	struct rc_mapping loads[MAX_LOADS];
	size_t nloads;
	uint64_t lowest_exec;		/* the lowest executable segment's address */
	uint64_t runtime, version;	/* _PyRuntime, Py_Version; 0 absent */
	char libpython[256];		/* the libpython it needs; "" none */
	char rpath[MAX_DYN_STR], runpath[MAX_DYN_STR];
};

static void copy_str(char *dst, size_t n, const char *s)
{
	snprintf(dst, n, "%s", s ? s : "");
}

/* The file's loadable segments, in address order; false when they are
 * not what a loader would accept (unordered, overlapping, past the file). */
static bool read_loads(Elf *elf, size_t size, struct elf_view *v)
{
	size_t n;

	if (elf_getphdrnum(elf, &n) != 0)
		return false;
	v->lowest_exec = UINT64_MAX;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (v->nloads == MAX_LOADS || ph.p_vaddr > UINT64_MAX - ph.p_memsz || ph.p_filesz > ph.p_memsz ||
		    ph.p_offset > size || ph.p_filesz > size - ph.p_offset)
			return false;
		if (v->nloads && ph.p_vaddr < v->loads[v->nloads - 1].end)
			return false;
		struct rc_mapping *m = &v->loads[v->nloads++];
		*m = (struct rc_mapping){
			.start = ph.p_vaddr, .end = ph.p_vaddr + ph.p_memsz, .offset = ph.p_offset,
			.read = ph.p_flags & PF_R, .write = ph.p_flags & PF_W, .exec = ph.p_flags & PF_X,
			.in_core = ph.p_filesz > 0, .core_offset = ph.p_offset, .core_size = ph.p_filesz,
		};
		if (m->exec && ph.p_vaddr < v->lowest_exec)
			v->lowest_exec = ph.p_vaddr;
	}
	return v->nloads > 0;
}

/* _PyRuntime and Py_Version from the symbol tables, and the libpython
 * the file needs and where its loader looks, from its dynamic section. */
static void read_sections(Elf *elf, struct elf_view *v)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		if (!gelf_getshdr(scn, &sh) || !sh.sh_entsize || !(d = elf_getdata(scn, NULL)))
			continue;
		size_t n = sh.sh_size / sh.sh_entsize;
		if (sh.sh_type == SHT_DYNSYM || sh.sh_type == SHT_SYMTAB) {
			for (size_t i = 1; i < n; i++) {
				GElf_Sym s;
				const char *name;
				if (!gelf_getsym(d, (int)i, &s) || s.st_shndx == SHN_UNDEF ||
				    GELF_ST_TYPE(s.st_info) != STT_OBJECT ||
				    !(name = elf_strptr(elf, sh.sh_link, s.st_name)))
					continue;
				if (crash_symbol_is(name, "_PyRuntime"))
					v->runtime = s.st_value;
				else if (crash_symbol_is(name, "Py_Version"))
					v->version = s.st_value;
			}
		} else if (sh.sh_type == SHT_DYNAMIC) {
			for (size_t i = 0; i < n; i++) {
				GElf_Dyn dyn;
				const char *s;
				if (!gelf_getdyn(d, (int)i, &dyn) || dyn.d_tag == DT_NULL)
					break;
				if (dyn.d_tag != DT_NEEDED && dyn.d_tag != DT_RPATH && dyn.d_tag != DT_RUNPATH)
					continue;
				if (!(s = elf_strptr(elf, sh.sh_link, dyn.d_un.d_val)))
					continue;
				if (dyn.d_tag == DT_RPATH)
					copy_str(v->rpath, sizeof(v->rpath), s);
				else if (dyn.d_tag == DT_RUNPATH)
					copy_str(v->runpath, sizeof(v->runpath), s);
				else if (strncmp(s, "libpython", 9) == 0 && !strchr(s, '/'))
					copy_str(v->libpython, sizeof(v->libpython), s);
			}
		}
	}
}

/* The walk of the Python that file PATH (its bytes IMAGE) defines, as an
 * rc_crash whose memory is the file's segments. */
static int walk_of(const char *path, const unsigned char *image, size_t size, const struct elf_view *v,
		   struct rc_py_walk *w, struct strbuf *err)
{
	struct rc_crash c;
	const char *base = crash_basename(path);

	crash_init(&c);
	c.maps = (struct rc_mapping *)v->loads;
	c.nmaps = v->nloads;
	c.image = image;
	c.image_size = size;
	c.sym_py_runtime = v->runtime;
	c.sym_py_version = v->version;
	crash_python_name_version(base, &c.py_major, &c.py_minor);
	int r = crash_python_walk(&c, w, err);
	c.maps = NULL;
	c.nmaps = 0;
	crash_release(&c);
	return r;
}

/* File PATH as the loader sees it, into V; and when it defines
 * _PyRuntime, its program in P placed from BASE. 1: P filled; 0: not a
 * Python (V says what it needs); -1 with ERR: not readable as one. */
static int read_program(const char *path, enum rc_py_base base, struct elf_view *v, struct rc_py_program *p,
			struct strbuf *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	int r = -1;

	memset(v, 0, sizeof(*v));
	if (fd < 0) {
		strbuf_addf(err, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 || (uint64_t)st.st_size > MAX_FILE) {
		strbuf_addf(err, "'%s' is no program file", path);
		close(fd);
		return -1;
	}
	size_t size = (size_t)st.st_size;
	void *image = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	Elf *elf = image == MAP_FAILED ? NULL : elf_memory(image, size);
	GElf_Ehdr eh;
	if (!elf || !gelf_getehdr(elf, &eh) || eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64 ||
	    (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) || !read_loads(elf, size, v)) {
		strbuf_addf(err, "'%s' is not an x86-64 program or library", path);
		goto out;
	}
	read_sections(elf, v);
	r = 0;
	if (!v->runtime)
		goto out;
	/* The base the kernel knows: the lowest executable segment for a
	 * program exec placed; the mapping from offset 0 for a library,
	 * which the loader begins at its first segment's page. */
	const struct rc_mapping *first = &v->loads[0];
	uint64_t from = base == RC_PY_BASE_CODE ? v->lowest_exec : first->start & ~(PAGE - 1);
	if (from == UINT64_MAX || v->runtime < from || (base == RC_PY_BASE_FILE && first->offset >= PAGE)) {
		strbuf_addf(err, "'%s' is laid out as no loader would place it", path);
		r = -1;
		goto out;
	}
	r = walk_of(path, image, size, v, &p->walk, err);
	if (r == 1) {
		p->dev = st.st_dev;
		p->ino = st.st_ino;
		p->base = base;
		p->walk.runtime = v->runtime - from;
	}
out:
	if (elf)
		elf_end(elf);
	if (image != MAP_FAILED)
		munmap(image, size);
	close(fd);
	return r;
}

/* DIRS (a colon-separated search path, "$ORIGIN" being ORIGIN) into
 * OUT, after what it holds. */
static void add_dirs(struct strbuf *out, const char *dirs, const char *origin)
{
	while (dirs && *dirs) {
		const char *end = strchrnul(dirs, ':');
		size_t n = (size_t)(end - dirs);
		if (out->len)
			strbuf_addc(out, ':');
		if (n >= 7 && strncmp(dirs, "$ORIGIN", 7) == 0) {
			strbuf_adds(out, origin);
			strbuf_add(out, dirs + 7, n - 7);
		} else if (n >= 9 && strncmp(dirs, "${ORIGIN}", 9) == 0) {
			strbuf_adds(out, origin);
			strbuf_add(out, dirs + 9, n - 9);
		} else {
			strbuf_add(out, dirs, n);
		}
		dirs = *end ? end + 1 : end;
	}
}

/* Where the loader would find library NAME for program PATH: its
 * DT_RPATH (without DT_RUNPATH), LD_LIBRARY_PATH, its DT_RUNPATH, then
 * the system's directories (the cache of /etc/ld.so.conf is not read: a
 * wrong guess is a file no process maps, as the kernel matches files by
 * device and inode). NULL when none is there. */
static char *find_library(const char *path, const struct elf_view *v)
{
	static const char sys[] = "/usr/local/lib:/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:"
				  "/lib64:/usr/lib64:/lib:/usr/lib";
	char real[PATH_MAX], *origin = realpath(path, real) ? real : NULL;
	struct strbuf dirs = STRBUF_INIT, f = STRBUF_INIT;
	char *found = NULL;

	if (origin) {
		char *slash = strrchr(origin, '/');
		if (slash)
			*(slash == origin ? slash + 1 : slash) = '\0';
	}
	if (!v->runpath[0])
		add_dirs(&dirs, v->rpath, origin ? origin : ".");
	add_dirs(&dirs, getenv("LD_LIBRARY_PATH"), origin ? origin : ".");
	add_dirs(&dirs, v->runpath, origin ? origin : ".");
	add_dirs(&dirs, sys, "");
	for (const char *d = dirs.buf; d && *d && !found;) {
		const char *end = strchrnul(d, ':');
		struct stat st;
		strbuf_reset(&f);
		strbuf_add(&f, d, (size_t)(end - d));
		strbuf_addf(&f, "/%s", v->libpython);
		if (end > d && stat(f.buf, &st) == 0 && S_ISREG(st.st_mode))
			found = strbuf_detach(&f);
		d = *end ? end + 1 : end;
	}
	strbuf_release(&dirs);
	strbuf_release(&f);
	return found;
}

int crash_python_program(const char *path, struct rc_py_program *out, struct strbuf *err)
{
	struct elf_view *v = xcalloc(1, sizeof(*v));
	int r;

	elf_version(EV_CURRENT);
	memset(out, 0, sizeof(*out));
	r = read_program(path, RC_PY_BASE_CODE, v, out, err);
	if (r == 0 && v->libpython[0]) {
		char *lib = find_library(path, v);
		r = lib ? read_program(lib, RC_PY_BASE_FILE, v, out, err) : 0;
		free(lib);
	}
	free(v);
	return r;
}
