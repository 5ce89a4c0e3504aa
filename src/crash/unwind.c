/* The libdwfl adapter (see unwind.h for the contract).
 *
 * The walk has two halves.  libdwfl unwinds each thread and we keep only
 * the raw pcs; then every pc is turned into frames (module, symbol,
 * file:line, inlined calls).  The second half is cached by address,
 * because a deep recursion repeats a handful of pcs a hundred thousand
 * times and a symbol or DWARF scope look-up costs far more than a hash. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <unistd.h>

#include "crash/rules.h"
#include "crash/procmap.h"
#include "crash/symindex.h"
#include "crash/unwind.h"
#include "util/hmap.h"
#include "util/procfs.h"
#include "util/util.h"

/* Where separate debuginfo is looked for: next to the file, in .debug/,
 * and under /usr/lib/debug (by build id and by path). */
#define DEBUG_DIR "/usr/lib/debug"
static char *debuginfo_path = ":.debug:" DEBUG_DIR;

static bool exists(const char *path)
{
	return access(path, R_OK) == 0;
}

/* Whether MOD (the file FILE_NAME, whose .gnu_debuglink names
 * DEBUGLINK_FILE) has separate debuginfo on this machine, where
 * debuginfo_path says: by build id under DEBUG_DIR/.build-id, or by its
 * debuglink next to the file, in its .debug/, or under DEBUG_DIR. */
static bool debuginfo_here(Dwfl_Module *mod, const char *file_name, const char *debuglink_file)
{
	const unsigned char *id;
	GElf_Addr at;
	int n = dwfl_module_build_id(mod, &id, &at);
	char path[PATH_MAX], hex[2 * 64 + 1];

	if (n > 1 && n <= 64) {
		for (int i = 1; i < n; i++)
			snprintf(hex + 2 * (i - 1), 3, "%02x", id[i]);
		if (snprintf(path, sizeof(path), DEBUG_DIR "/.build-id/%02x/%s.debug", id[0], hex) < (int)sizeof(path) &&
		    exists(path))
			return true;
	}
	if (!debuglink_file || !file_name || strchr(debuglink_file, '/'))
		return false;
	const char *slash = strrchr(file_name, '/');
	int dir = slash ? (int)(slash - file_name) : 0;
	return (snprintf(path, sizeof(path), "%.*s/%s", dir, file_name, debuglink_file) < (int)sizeof(path) &&
		exists(path)) ||
	       (snprintf(path, sizeof(path), "%.*s/.debug/%s", dir, file_name, debuglink_file) < (int)sizeof(path) &&
		exists(path)) ||
	       (snprintf(path, sizeof(path), DEBUG_DIR "%.*s/%s", dir, file_name, debuglink_file) <
			(int)sizeof(path) &&
		exists(path));
}

/* Separate debuginfo from this machine only. libdwfl's standard search
 * asks a debuginfod server when its own finds nothing: that loads
 * libdebuginfod and libcurl with some thirty libraries (10 to 15 ms of
 * every run, at the first module without debuginfo), and with
 * DEBUGINFOD_URLS set (Debian's libdebuginfod-common offers to) it would
 * send the build id of every such module of a traced program over the
 * network. rootcause reads what is here. */
static int find_debuginfo_here(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			       const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
			       char **debuginfo_file_name)
{
	if (!debuginfo_here(mod, file_name, debuglink_file))
		return -1;
	return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file, debuglink_crc,
					    debuginfo_file_name);
}

/* The root a core's files are opened in (rc_crash.root_fd), for the
 * callback below, which libdwfl gives no pointer of ours: set while one
 * core is unwound, -1 otherwise. */
static int core_root_fd = -1;

/* A core's module, as its NT_FILE note names it: inside the crashed
 * process's root when it had one of its own (a container's), where the
 * path on this machine is another file or none. libdwfl checks the build
 * id of what it is given. */
static int find_elf_in_root(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			    char **file_name, Elf **elfp)
{
	if (core_root_fd < 0 || !modname || modname[0] != '/')
		return dwfl_build_id_find_elf(mod, userdata, modname, base, file_name, elfp);
	struct rc_crash view;
	memset(&view, 0, sizeof(view));
	view.root_fd = core_root_fd;
	int fd = crash_open_file(&view, modname);
	if (fd < 0)
		return dwfl_build_id_find_elf(mod, userdata, modname, base, file_name, elfp);
	*file_name = xstrdup(modname);
	*elfp = NULL;
	return fd;
}

static const Dwfl_Callbacks core_callbacks = {
	.find_elf = find_elf_in_root,
	.find_debuginfo = find_debuginfo_here,
	.debuginfo_path = &debuginfo_path,
};

static const Dwfl_Callbacks proc_callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = find_debuginfo_here,
	.debuginfo_path = &debuginfo_path,
};

/* The call stacks' unwinder (crash_thread_unwind) runs at every call a
 * finding may quote, in every process: there the C runtime's separate
 * debuginfo, which libdwfl loads to look for CFI where .eh_frame has none
 * (the loader's _start, at the bottom of every stack), costs more than
 * the rest of the stack (5 ms a process, decompressing it) and adds
 * nothing: the runtime's names come from its symbol table (want_dwarf),
 * and its .eh_frame unwinds it. */
static int find_debuginfo_not_runtime(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
				      const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
				      char **debuginfo_file_name)
{
	if (crash_runtime_module(modname))
		return -1;
	return find_debuginfo_here(mod, userdata, modname, base, file_name, debuglink_file, debuglink_crc,
				   debuginfo_file_name);
}

static const Dwfl_Callbacks call_callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = find_debuginfo_not_runtime,
	.debuginfo_path = &debuginfo_path,
};

/* x86_64's DWARF register numbers 0-16 (rax, rdx, rcx, rbx, rsi, rdi, rbp,
 * rsp, r8-r15, rip) as indexes into user_regs_struct (crash.h's regs). */
#define NDWARF_REGS 17
static const int dwarf_to_user[NDWARF_REGS] = {
	10, 12, 11, 5, 13, 14, 4, 19, 9, 8, 7, 6, 3, 2, 1, 0, 16,
};

#define RSP_DWARF 7

/* Every thread may go to RC_CRASH_MAX_FRAMES, but not all of them: a
 * hostile core with thousands of threads would hold billions of frames. */
#define MAX_TOTAL_FRAMES (5 * (size_t)RC_CRASH_MAX_FRAMES)

/* A PT_LOAD segment of the core whose bytes are in the image. */
struct segment {
	uint64_t vaddr, size, offset;
};

struct raw_frame {
	uint64_t pc;
	bool activation;
};

/* What one look-up address turns into: N frames, the inlined calls first
 * and the function holding them last.  Strings are the cache's; frames
 * get copies (crash_release frees each frame's own). */
struct sym_frame {
	char *function;
	char *file;
	int line;
	bool has_start;
	uint64_t start;		/* the function's (or inlined block's) entry */
	bool inlined;
};

struct sym {
	size_t module;		/* its index in c->modules + 1; 0: none */
	size_t n;
	struct sym_frame f[];
};

struct unwinder;
/* A thread walked while the process was stopped, symbolized after. */
struct pending {
	int tid;
	struct raw_frame *raw;
	size_t nraw;
	bool capped;
	char *err;
};

struct thread_arg {
	struct unwinder *u;
	struct rc_thread *t;
};

struct unwinder {
	struct rc_crash *c;
	Dwfl *dwfl;
	struct hmap syms;	/* look-up address -> struct sym * */

	/* The core read directly (unwind.h says why). */
	bool own_threads;	/* threads are c->threads, in order */
	size_t next_thread;	/* own_threads: index of the next one */
	size_t cur_thread;	/* own_threads: the one being unwound */
	const unsigned char *image;
	size_t size;
	struct segment *segs;	/* sorted by vaddr */
	size_t nsegs;

	bool live;
	pid_t pid;
	/* Live, in two steps: the walks while the process is stopped, the
	 * symbols (the slow part: symbol tables, DWARF) once it runs again. */
	bool defer;
	struct pending *pending;
	size_t npending, apending;

	/* The thread being walked. */
	struct raw_frame *raw;
	size_t nraw, araw;
	bool capped;
	bool have_sp;		/* sp: the last frame's stack pointer */
	uint64_t sp;
	char *frame_err;

	/* What core_set_initial_registers gets: the thread, and us. */
	struct thread_arg targ;
	bool bad_pc;		/* raw[0] is a pc the walk could not start from */
	bool *dwarf_read;	/* per module: its DWARF was asked for */
	struct module_symbols *msyms;	/* per module: its symbol index */
	size_t nmsyms;
	pid_t *tids;		/* live: the threads, from /proc/PID/task */
	size_t ntids, next_tid;
	pid_t cur_tid;
	/* Live: the registers to start the walk from, when the thread is
	 * not stopped (NULL: ptrace reads them). */
	const uint64_t *given_regs;
	Dwfl_Module **dmods;	/* libdwfl's module of each c->modules[i] */

	size_t unwound;		/* threads with at least one frame */
	size_t total_frames;	/* raw frames of all threads so far */
	char *first_err;	/* why the first failing thread failed */
};

/* A module's symbol index (symindex.h), made when libdwfl is asked for a
 * second pc in it: it costs about as much as two of libdwfl's look-ups,
 * and a module with two frames in a stack has more in the next. */
#define SYMINDEX_AFTER 2
struct module_symbols {
	struct crash_symindex *index;
	unsigned looks;
	bool tried;
};

static void sym_free(void *p)
{
	struct sym *s = p;

	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		free(s->f[i].function);
		free(s->f[i].file);
	}
	free(s);
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* A symbol name as it should be shown: without its symbol version
 * ("__libc_start_main@@GLIBC_2.34"), demangled when mangled. */
static char *nice_name(const char *name)
{
	if (!name || !*name)
		return NULL;

	const char *at = strchr(name, '@');
	char *bare = at && at != name ? xstrndup(name, (size_t)(at - name)) : xstrdup(name);
	char *d = crash_demangle(bare);
	if (!d)
		return bare;
	free(bare);
	return d;
}

/* ---- modules ---- */

struct module_list {
	struct rc_module *m;
	Dwfl_Module **dm;	/* libdwfl's module of each */
	size_t n, alloc;
	bool capped;
};

static int module_cb(Dwfl_Module *mod, void **userdata, const char *name, Dwarf_Addr start,
		     void *arg)
{
	struct module_list *ml = arg;

	(void)start;
	/* Known already (read again, after the process mapped more). */
	if (*userdata)
		return DWARF_CB_OK;
	if (ml->n >= RC_CRASH_MAX_MAPPINGS) {
		ml->capped = true;
		return DWARF_CB_ABORT;
	}
	if (ml->n == ml->alloc) {
		ml->alloc = ml->alloc ? 2 * ml->alloc : 16;
		ml->m = xrealloc(ml->m, ml->alloc * sizeof(*ml->m));
		ml->dm = xrealloc(ml->dm, ml->alloc * sizeof(*ml->dm));
	}
	ml->dm[ml->n] = mod;

	struct rc_module *rm = &ml->m[ml->n];
	Dwarf_Addr lo = 0, hi = 0;
	memset(rm, 0, sizeof(*rm));
	dwfl_module_info(mod, NULL, &lo, &hi, NULL, NULL, NULL, NULL);
	rm->name = xstrdup(name ? name : "");
	rm->start = lo;
	rm->end = hi;

	const unsigned char *bits;
	GElf_Addr vaddr;
	int len = dwfl_module_build_id(mod, &bits, &vaddr);
	for (int i = 0; i < len && i < (int)(sizeof(rm->build_id) - 1) / 2; i++)
		snprintf(rm->build_id + 2 * i, 3, "%02x", bits[i]);

	rm->has_symbols = dwfl_module_getsymtab(mod) > 0;
	/* has_debuginfo is settled after the walk (modules_debuginfo):
	 * loading every module's DWARF here would cost more than the whole
	 * unwinding of a core whose stacks touch three of them. */

	/* The index, for frames to find their module without a search. */
	*userdata = (void *)(uintptr_t)(ml->n + 1);
	ml->n++;
	return DWARF_CB_OK;
}

static void read_modules(struct unwinder *u)
{
	/* Those known already stay where they are: the symbol cache holds
	 * their indexes. */
	struct module_list ml = { u->c->modules, u->dmods, u->c->nmodules, u->c->nmodules, false };

	if (dwfl_getmodules(u->dwfl, module_cb, &ml, 0) == -1)
		crash_problem(u->c, "cannot list modules: %s", dwfl_errmsg(-1));
	if (ml.capped)
		crash_problem(u->c, "more than %d modules: the rest are left out",
			      RC_CRASH_MAX_MAPPINGS);
	size_t had = u->c->nmodules;
	u->c->modules = ml.m;
	u->c->nmodules = ml.n;
	u->dmods = ml.dm;
	u->dwarf_read = xrealloc(u->dwarf_read, (ml.n + 1) * sizeof(*u->dwarf_read));
	memset(u->dwarf_read + had, 0, (ml.n + 1 - had) * sizeof(*u->dwarf_read));
	u->msyms = xrealloc(u->msyms, (ml.n + 1) * sizeof(*u->msyms));
	memset(u->msyms + had, 0, (ml.n + 1 - had) * sizeof(*u->msyms));
	u->nmsyms = ml.n + 1;
}

/* A section named .debug_info (or .zdebug_info) in ELF. */
static bool has_debug_section(Elf *elf)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		if (gelf_getshdr(scn, &sh) && (name = elf_strptr(elf, shstrndx, sh.sh_name)) &&
		    (strcmp(name, ".debug_info") == 0 || strcmp(name, ".zdebug_info") == 0))
			return true;
	}
	return false;
}

/* has_debuginfo: for the modules in some stack, whether libdwfl found
 * their DWARF (the symbolizing loaded it, or found it missing, already);
 * for the others, whether the file itself carries it. */
static void modules_debuginfo(struct unwinder *u)
{
	struct rc_crash *c = u->c;
	bool *used = xcalloc(c->nmodules + 1, sizeof(*used));

	for (size_t i = 0; i < c->nthreads; i++)
		for (size_t k = 0; k < c->threads[i].nframes; k++)
			if (c->threads[i].frames[k].module)
				used[c->threads[i].frames[k].module - c->modules] = true;
	for (size_t i = 0; i < c->nmodules; i++) {
		Dwarf_Addr bias;
		const char *id = c->modules[i].build_id;
		char path[128];
		struct stat st;
		if (used[i] && u->dwarf_read && u->dwarf_read[i])
			c->modules[i].has_debuginfo = dwfl_module_getdwarf(u->dmods[i], &bias) != NULL;
		else if (has_debug_section(dwfl_module_getelf(u->dmods[i], &bias)))
			c->modules[i].has_debuginfo = true;
		else if (strlen(id) > 2 &&
			 snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%.2s/%s.debug", id, id + 2) <
			 (int)sizeof(path))
			/* Where Debian's -dbgsym packages put it: found without
			 * reading it. */
			c->modules[i].has_debuginfo = stat(path, &st) == 0;
	}
	free(used);
}

/* glibc's __abort_msg (GLIBC_PRIVATE, in libc's .dynsym, so found without
 * debuginfo): where abort() and assert() leave the message they printed.
 * And CPython's _PyRuntime (a dynsym of the python executable or of
 * libpython), where Python's threads and frames start. */
static int abort_msg_cb(Dwfl_Module *mod, void **userdata, const char *name, Dwarf_Addr start,
			void *arg)
{
	struct unwinder *u = arg;
	const char *base = name ? strrchr(name, '/') : NULL;

	(void)userdata;
	(void)start;
	base = base ? base + 1 : name;
	if (!base)
		return DWARF_CB_OK;
	bool libc = strncmp(base, "libc.so", 7) == 0 || strncmp(base, "libc-", 5) == 0;
	/* "python3.11", "libpython3.11.so.1.0": the version is in the name,
	 * but a venv's copied "python" has none; Py_Version (3.11+) or the
	 * debug offsets (3.13+) tell it then (python.c). */
	int major = 0, minor = 0;
	bool python = strncmp(base, "python", 6) == 0 || strncmp(base, "libpython", 9) == 0;
	if (!libc && !python)
		return DWARF_CB_OK;
	if (python)
		crash_python_name_version(base, &major, &minor);
	/* Before 3.7 there is no _PyRuntime: the name alone says this is a
	 * Python whose frames are not read. */
	if (python && major && !u->c->sym_py_runtime) {
		u->c->py_major = major;
		u->c->py_minor = minor;
	}
	int n = dwfl_module_getsymtab(mod);
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *sn = dwfl_module_getsym_info(mod, i, &sym, &addr, NULL, NULL, NULL);
		if (!sn || GELF_ST_TYPE(sym.st_info) != STT_OBJECT)
			continue;
		if (libc && crash_symbol_is(sn, "__abort_msg")) {
			u->c->sym_abort_msg = addr;
			break;
		}
		if (python && crash_symbol_is(sn, "_PyRuntime")) {
			u->c->sym_py_runtime = addr;
			u->c->py_major = major;
			u->c->py_minor = minor;
		} else if (python && crash_symbol_is(sn, "Py_Version")) {
			u->c->sym_py_version = addr;
		}
	}
	return u->c->sym_abort_msg && u->c->sym_py_runtime ? DWARF_CB_ABORT : DWARF_CB_OK;
}

static void find_symbols(struct unwinder *u)
{
	dwfl_getmodules(u->dwfl, abort_msg_cb, u, 0);
}

/* A core names its modules by path and build id: a file at that path
 * with another build id was rebuilt or upgraded since the crash, and
 * libdwfl rightly refuses it, leaving its frames without symbols.  Say so,
 * rather than leave the user to wonder why they are missing. */
static void changed_files(struct unwinder *u)
{
	struct rc_crash *c = u->c;

	for (size_t i = 0; i < c->nmodules; i++) {
		const struct rc_module *m = &c->modules[i];
		const struct rc_mapping *map = crash_mapping_at(c, m->start);
		const char *path = map && map->path ? map->path : NULL;
		if (!m->build_id[0] || !path)
			continue;
		int fd = crash_open_file(c, path);
		if (fd < 0) {
			crash_problem(c, "'%s' is gone since the crash: its frames have no symbols", path);
			continue;
		}
		Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
		const void *id = NULL;
		ssize_t n = elf ? dwelf_elf_gnu_build_id(elf, &id) : -1;
		char hex[41] = "";
		for (ssize_t k = 0; k < n && k < 20; k++)
			snprintf(hex + 2 * k, 3, "%02x", ((const unsigned char *)id)[k]);
		if (n > 0 && strcmp(hex, m->build_id) != 0)
			crash_problem(c, "'%s' has changed since the crash (build id %s in the core, %s on "
				      "disk): its frames have no symbols; find the build that crashed "
				      "(debuginfod, a package cache)%s", path, m->build_id, hex,
				      map->offset == 0 && c->exe && strcmp(path, c->exe) == 0 ?
				      " and pass it with --exe" : "");
		if (elf)
			elf_end(elf);
		close(fd);
	}
}

/* MOD's index in c->modules + 1; 0 for none. */
static size_t module_index(struct unwinder *u, Dwfl_Module *mod)
{
	void **ud = NULL;

	if (!mod || !dwfl_module_info(mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL) || !ud)
		return 0;
	uintptr_t idx = (uintptr_t)*ud;
	return idx <= u->c->nmodules ? idx : 0;
}

static const struct rc_module *module_of(struct unwinder *u, Dwfl_Module *mod)
{
	size_t idx = module_index(u, mod);

	return idx ? &u->c->modules[idx - 1] : NULL;
}

/* ---- symbols ---- */

static bool is_cplusplus(Dwarf_Die *die)
{
	Dwarf_Die cu;

	if (!dwarf_diecu(die, &cu, NULL, NULL))
		return false;
	switch (dwarf_srclang(&cu)) {
	case DW_LANG_C_plus_plus:
	case DW_LANG_C_plus_plus_03:
	case DW_LANG_C_plus_plus_11:
	case DW_LANG_C_plus_plus_14:
		return true;
	default:
		return false;
	}
}

/* A C++ function without a linkage name (static, or inline only) is
 * named by its enclosing namespaces and classes, as gdb does:
 * "ns::helper" rather than "helper". */
static char *qualified_name(Dwarf_Die *die, const char *name)
{
	Dwarf_Die decl = *die, ref, *scopes = NULL;
	Dwarf_Attribute attr;
	struct strbuf sb = STRBUF_INIT;

	/* The declaration sits in the namespace; the inlined or concrete
	 * instance points at it (a bounded chain: DWARF is input). */
	for (int i = 0; i < 8; i++) {
		if (!dwarf_attr(&decl, DW_AT_abstract_origin, &attr) &&
		    !dwarf_attr(&decl, DW_AT_specification, &attr))
			break;
		if (!dwarf_formref_die(&attr, &ref))
			break;
		decl = ref;
	}
	int n = dwarf_getscopes_die(&decl, &scopes);
	for (int i = n - 1; i > 0; i--) {
		int tag = dwarf_tag(&scopes[i]);
		if (tag != DW_TAG_namespace && tag != DW_TAG_class_type &&
		    tag != DW_TAG_structure_type && tag != DW_TAG_union_type)
			continue;
		const char *scope = dwarf_diename(&scopes[i]);
		strbuf_adds(&sb, scope ? scope : "(anonymous namespace)");
		strbuf_adds(&sb, "::");
	}
	free(scopes);
	strbuf_adds(&sb, name);
	return strbuf_detach(&sb);
}

/* A function's name from DWARF: the mangled linkage name for C++ (so
 * that it demangles like the symbol table's names do), else DW_AT_name.
 * A C linkage name is an asm label (glibc's "__GI_raise" for raise): the
 * symbol table shows such functions by their public name, and so do we. */
static char *die_function_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &attr));

	if (!name)
		name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr));
	if (name && strncmp(name, "_Z", 2) == 0)
		return nice_name(name);
	name = dwarf_diename(die);
	if (name && is_cplusplus(die))
		return qualified_name(die, name);
	return nice_name(name);
}

/* The call site of an inlined subroutine: its DW_AT_call_file (an index
 * into its unit's file table) and DW_AT_call_line. */
static void call_site(Dwarf_Die *die, const char **file, int *line)
{
	Dwarf_Attribute attr;
	Dwarf_Word fidx, l;
	Dwarf_Die cu;
	Dwarf_Files *files;
	size_t nfiles;

	*file = NULL;
	*line = 0;
	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &attr), &l) == 0 && l <= INT32_MAX)
		*line = (int)l;
	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &attr), &fidx) == 0 &&
	    dwarf_diecu(die, &cu, NULL, NULL) && dwarf_getsrcfiles(&cu, &files, &nfiles) == 0 &&
	    fidx < nfiles)
		*file = dwarf_filesrc(files, fidx, NULL, NULL);
}

static void sym_push(struct sym **sp, size_t *alloc, const struct sym_frame *f)
{
	struct sym *s = *sp;

	if (s->n == *alloc) {
		*alloc *= 2;
		s = xrealloc(s, sizeof(*s) + *alloc * sizeof(s->f[0]));
		*sp = s;
	}
	s->f[s->n++] = *f;
}

/* At most this many inlined calls are shown per pc: DWARF is input too. */
#define MAX_INLINE_DEPTH 64

/* The symbol at ADDR in MOD (module index IDX, 0: none known), as
 * dwfl_module_addrinfo names it. */
static const char *symbol_at(struct unwinder *u, Dwfl_Module *mod, size_t idx, uint64_t addr, GElf_Off *off)
{
	GElf_Sym esym;

	if (idx && idx < u->nmsyms) {
		struct module_symbols *ms = &u->msyms[idx - 1];
		if (!ms->tried && ++ms->looks >= SYMINDEX_AFTER) {
			ms->tried = true;
			ms->index = crash_symindex_new(mod);
		}
		if (ms->index)
			return crash_symindex_name(ms->index, mod, addr, off);
	}
	return dwfl_module_addrinfo(mod, addr, off, &esym, NULL, NULL, NULL);
}

static struct sym *symbolize(struct unwinder *u, uint64_t addr, bool dwarf)
{
	size_t alloc = 2;
	struct sym *s = xcalloc(1, sizeof(*s) + alloc * sizeof(s->f[0]));
	Dwfl_Module *mod = dwfl_addrmodule(u->dwfl, addr);
	struct sym_frame outer = { 0 };

	s->module = module_index(u, mod);
	if (!mod) {
		sym_push(&s, &alloc, &outer);
		return s;
	}

	/* The function itself is named from the symbol table, which gives
	 * the same (public) name whether or not debuginfo is installed;
	 * DWARF names it only when no symbol covers the pc. */
	GElf_Off off = 0;
	const char *name = symbol_at(u, mod, s->module, addr, &off);
	if (name) {
		outer.function = nice_name(name);
		outer.has_start = true;
		outer.start = addr - off;
	}

	if (!dwarf) {
		sym_push(&s, &alloc, &outer);
		return s;
	}
	if (s->module && u->dwarf_read)
		u->dwarf_read[s->module - 1] = true;

	/* The line table names the innermost source line: the inlined
	 * function's when the pc is in inlined code. */
	const char *file = NULL;
	int line = 0;
	Dwfl_Line *dl = dwfl_module_getsrc(mod, addr);
	if (dl)
		file = dwfl_lineinfo(dl, NULL, &line, NULL, NULL, NULL);

	Dwarf_Addr bias = 0;
	Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, &bias);
	Dwarf_Die *scopes = NULL;
	int nscopes = cu ? dwarf_getscopes(cu, addr - bias, &scopes) : 0;
	size_t depth = 0;

	/* Innermost scope first.  Every inlined subroutine is a frame at
	 * the line we are at in it; the caller's line is where it was
	 * called from, as gdb shows it. */
	for (int i = 0; i < nscopes; i++) {
		Dwarf_Die *sc = &scopes[i];
		int tag = dwarf_tag(sc);

		if (tag == DW_TAG_subprogram) {
			if (!outer.function)
				outer.function = die_function_name(sc);
			break;
		}
		if (tag != DW_TAG_inlined_subroutine || depth >= MAX_INLINE_DEPTH)
			continue;

		struct sym_frame in = { .inlined = true };
		Dwarf_Addr entry;
		in.function = die_function_name(sc);
		in.file = dup_or_null(file);
		in.line = line;
		if (dwarf_entrypc(sc, &entry) == 0 && entry + bias <= addr) {
			in.has_start = true;
			in.start = entry + bias;
		}
		sym_push(&s, &alloc, &in);
		depth++;
		call_site(sc, &file, &line);
	}
	free(scopes);

	outer.file = dup_or_null(file);
	outer.line = line;
	sym_push(&s, &alloc, &outer);
	return s;
}

static const struct sym *lookup(struct unwinder *u, uint64_t addr, bool dwarf)
{
	bool created;
	/* Addresses are below 2^63: the low bit says which kind. */
	void **slot = hmap_put_int(&u->syms, (long long)((addr << 1) | dwarf), &created);

	if (created)
		*slot = symbolize(u, addr, dwarf);
	return *slot;
}

/* Whether the frame at ADDR gets DWARF: always outside the C runtime;
 * inside it only with full_debuginfo.  The runtime's names come from its
 * symbol table either way; its file:line and inlined frames cost loading
 * libc's compressed debug info, more than all the rest of a core. */
static bool want_dwarf(struct unwinder *u, uint64_t addr)
{
	if (u->c->full_debuginfo)
		return true;
	const struct rc_module *m = module_of(u, dwfl_addrmodule(u->dwfl, addr));
	return !m || !crash_runtime_module(m->name);
}

/* ---- threads ---- */

static struct rc_thread *add_thread(struct rc_crash *c, int tid)
{
	c->threads = xrealloc(c->threads, (c->nthreads + 1) * sizeof(*c->threads));
	struct rc_thread *t = &c->threads[c->nthreads++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	return t;
}

static struct rc_thread *thread_for(struct unwinder *u, pid_t tid)
{
	struct rc_crash *c = u->c;

	if (u->own_threads)
		return u->cur_thread < c->nthreads ? &c->threads[u->cur_thread] : NULL;
	for (size_t i = 0; i < c->nthreads; i++)
		if (c->threads[i].tid == tid)
			return &c->threads[i];
	if (c->nthreads >= RC_CRASH_MAX_THREADS)
		return NULL;
	return add_thread(c, tid);
}

static void add_frames(struct unwinder *u, struct rc_thread *t)
{
	size_t alloc = 0;

	crash_thread_release_native(t);
	t->truncated = u->capped;
	for (size_t i = 0; i < u->nraw; i++) {
		const struct raw_frame *r = &u->raw[i];
		/* A return address points after the call: the call itself
		 * (and its line and inlined scopes) is one byte before. */
		uint64_t addr = r->activation || r->pc == 0 ? r->pc : r->pc - 1;
		const struct sym *s = lookup(u, addr, want_dwarf(u, addr));

		for (size_t k = 0; k < s->n; k++) {
			if (t->nframes >= RC_CRASH_MAX_FRAMES) {
				t->truncated = true;
				return;
			}
			if (t->nframes == alloc) {
				alloc = alloc ? 2 * alloc : 64;
				t->frames = xrealloc(t->frames, alloc * sizeof(*t->frames));
			}
			const struct sym_frame *sf = &s->f[k];
			struct rc_frame *f = &t->frames[t->nframes++];
			f->pc = r->pc;
			f->module = s->module ? &u->c->modules[s->module - 1] : NULL;
			f->function = dup_or_null(sf->function);
			f->file = dup_or_null(sf->file);
			f->line = sf->line;
			f->inlined = sf->inlined;
			if (sf->has_start)
				f->offset = r->pc - sf->start;
			else if (f->module && r->pc >= f->module->start)
				f->offset = r->pc - f->module->start;
			else
				f->offset = 0;
		}
	}
}

/* Where a stack legitimately ends.  Below these there is nothing to
 * unwind to, so a failure to go further is no failure. */
static bool stack_bottom(const char *fn)
{
	static const char *const bottoms[] = {
		"_start", "__libc_start_main", "__libc_start_call_main", "start_thread",
		"clone", "__clone", "clone3", "__clone3", "thread_start",
	};

	if (!fn)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(bottoms); i++)
		if (strcmp(fn, bottoms[i]) == 0)
			return true;
	return false;
}

static void push_raw(struct unwinder *u, uint64_t pc, bool activation)
{
	if (u->nraw == u->araw) {
		u->araw = u->araw ? 2 * u->araw : 256;
		u->raw = xrealloc(u->raw, u->araw * sizeof(*u->raw));
	}
	u->raw[u->nraw].pc = pc;
	u->raw[u->nraw].activation = activation;
	u->nraw++;
}

static int frame_cb(Dwfl_Frame *frame, void *arg)
{
	struct unwinder *u = arg;
	Dwarf_Addr pc;
	bool activation;

	if (!dwfl_frame_pc(frame, &pc, &activation)) {
		u->frame_err = xstrdup(dwfl_errmsg(-1));
		return DWARF_CB_ABORT;
	}
	if (u->nraw >= RC_CRASH_MAX_FRAMES) {
		u->capped = true;
		return DWARF_CB_ABORT;
	}

	/* A caller's frame is above its callee's on the stack.  One that is
	 * not would be a corrupt stack walking in circles until the cap
	 * (gdb's "previous frame inner to this frame").  A frame a signal
	 * interrupted may be anywhere, as the handler can run on another
	 * stack, but it cannot be the very frame we are in. */
	Dwarf_Word sp;
	bool have_sp = dwfl_frame_reg(frame, RSP_DWARF, &sp) == 0;
	bool inner = activation ? u->nraw && sp == u->sp && pc == u->raw[u->nraw - 1].pc : sp <= u->sp;
	if (have_sp && u->have_sp && inner) {
		u->frame_err = xstrdup("corrupt stack: a caller's frame is not above its callee's");
		return DWARF_CB_ABORT;
	}
	u->have_sp = have_sp;
	u->sp = sp;

	if (u->total_frames >= MAX_TOTAL_FRAMES) {
		u->frame_err = xstrdup("too many frames in all: the rest of the stacks are left out");
		return DWARF_CB_ABORT;
	}
	u->total_frames++;
	push_raw(u, pc, activation);
	return DWARF_CB_OK;
}

static void live_thread_info(struct unwinder *u, struct rc_thread *t)
{
	struct user_regs_struct regs;
	struct iovec iov = { &regs, sizeof(regs) };

	if (!t->name)
		t->name = procfs_comm(u->pid, t->tid);
	/* NT_PRSTATUS through the regset interface: the same bytes. */
	if (ptrace(PTRACE_GETREGSET, t->tid, (void *)NT_PRSTATUS, &iov) == 0 &&
	    iov.iov_len == sizeof(regs))
		memcpy(t->regs, &regs, MIN(sizeof(regs), sizeof(t->regs)));
}

/* Frames, errors and verdicts of thread T, from the raw frames in U. */
static void thread_done(struct unwinder *u, struct rc_thread *t, char *err)
{
	add_frames(u, t);
	free(t->unwind_error);
	t->unwind_error = NULL;

	/* "-1 may just be the end": an error after the thread's entry
	 * point is the walk running off the stack's bottom. */
	if (err && t->nframes && stack_bottom(t->frames[t->nframes - 1].function)) {
		free(err);
		err = NULL;
	}
	if (u->capped)
		crash_problem(u->c, "thread %d: stack cut after %d frames", t->tid,
			      RC_CRASH_MAX_FRAMES);
	if (err) {
		t->truncated = true;
		if (t->nframes)
			crash_problem(u->c, "thread %d: unwinding stopped after %zu frames: %s", t->tid,
				      t->nframes, err);
		else
			crash_problem(u->c, "thread %d: cannot unwind: %s", t->tid, err);
		if (!t->nframes && !u->first_err)
			u->first_err = xstrdup(err);
		t->unwind_error = err;
	}
	if (t->nframes)
		u->unwound++;
}

static int thread_cb(Dwfl_Thread *thread, void *arg)
{
	struct unwinder *u = arg;
	pid_t tid = dwfl_thread_tid(thread);

	u->nraw = 0;
	u->bad_pc = false;
	u->capped = false;
	u->have_sp = false;
	free(u->frame_err);
	u->frame_err = NULL;

	int r = dwfl_thread_getframes(thread, frame_cb, u);
	/* The caller of a bad jump is a return address, though the walk
	 * began there: look it up as one (at the call). */
	if (u->bad_pc && u->nraw > 1)
		u->raw[1].activation = false;
	char *err = NULL;
	if (r == -1)
		err = xstrdup(dwfl_errmsg(-1));
	else if (u->frame_err)
		err = xstrdup(u->frame_err);

	struct rc_thread *t = thread_for(u, tid);
	if (!t) {
		crash_problem(u->c, "more than %d threads: thread %d is left out", RC_CRASH_MAX_THREADS,
			      (int)tid);
		free(err);
		return DWARF_CB_OK;
	}
	if (u->live)
		live_thread_info(u, t);
	if (u->defer) {
		/* Symbols later, with the process let go: keep the pcs. */
		if (u->npending == u->apending) {
			u->apending = u->apending ? 2 * u->apending : 16;
			u->pending = xrealloc(u->pending, u->apending * sizeof(*u->pending));
		}
		struct pending *p = &u->pending[u->npending++];
		p->tid = t->tid;
		p->raw = xmalloc((u->nraw ? u->nraw : 1) * sizeof(*p->raw));
		memcpy(p->raw, u->raw, u->nraw * sizeof(*p->raw));
		p->nraw = u->nraw;
		p->capped = u->capped;
		p->err = err;
		return DWARF_CB_OK;
	}
	thread_done(u, t, err);
	return DWARF_CB_OK;
}

static void unwind_threads(struct unwinder *u)
{
	if (dwfl_getthreads(u->dwfl, thread_cb, u) == -1) {
		const char *msg = dwfl_errmsg(-1);
		crash_problem(u->c, "cannot list threads: %s", msg);
		if (!u->first_err)
			u->first_err = xstrdup(msg);
	}
}

static void unwinder_release(struct unwinder *u)
{
	if (u->dwfl)
		dwfl_end(u->dwfl);
	hmap_release(&u->syms, sym_free);
	free(u->segs);
	free(u->raw);
	free(u->frame_err);
	free(u->first_err);
	free(u->dmods);
	free(u->dwarf_read);
	for (size_t i = 0; i < u->nmsyms; i++)
		crash_symindex_free(u->msyms[i].index);
	free(u->msyms);
	free(u->tids);
	for (size_t i = 0; i < u->npending; i++) {
		free(u->pending[i].raw);
		free(u->pending[i].err);
	}
	free(u->pending);
}

static void modules_debuginfo(struct unwinder *u);

static int finish(struct unwinder *u, struct strbuf *err)
{
	modules_debuginfo(u);
	if (u->unwound)
		return 0;
	if (u->c->nthreads == 0 && !u->first_err)
		strbuf_addf(err, "cannot unwind: no threads found");
	else
		strbuf_addf(err, "cannot unwind any thread: %s",
			    u->first_err ? u->first_err : "no frames");
	return -1;
}

/* ---- cores ---- */

static int seg_cmp(const void *a, const void *b)
{
	const struct segment *x = a, *y = b;

	return x->vaddr < y->vaddr ? -1 : x->vaddr > y->vaddr;
}

/* The PT_LOAD segments whose bytes the image holds, cut to what is
 * actually inside it (a truncated core loses its tail). */
static void read_segments(struct unwinder *u, Elf *elf)
{
	size_t phnum;

	if (elf_getphdrnum(elf, &phnum) != 0)
		return;
	if (phnum > RC_CRASH_MAX_MAPPINGS)
		phnum = RC_CRASH_MAX_MAPPINGS;
	u->segs = xcalloc(phnum ? phnum : 1, sizeof(*u->segs));
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD || ph.p_filesz == 0)
			continue;
		if (ph.p_offset >= u->size)
			continue;
		uint64_t n = MIN(ph.p_filesz, MIN(ph.p_memsz, u->size - ph.p_offset));
		if (n == 0 || ph.p_vaddr + n < ph.p_vaddr)
			continue;
		u->segs[u->nsegs++] = (struct segment){ ph.p_vaddr, n, ph.p_offset };
	}
	qsort(u->segs, u->nsegs, sizeof(*u->segs), seg_cmp);
}

static bool core_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct unwinder *u = arg;
	size_t lo = count_le_u64(u->segs, u->nsegs, sizeof(*u->segs), offsetof(struct segment, vaddr), addr);

	(void)dwfl;
	if (lo == 0)
		return false;
	const struct segment *s = &u->segs[lo - 1];
	uint64_t rel = addr - s->vaddr;
	if (rel >= s->size || s->size - rel < sizeof(*result))
		return false;
	memcpy(result, u->image + s->offset + rel, sizeof(*result));
	return true;
}

static pid_t core_next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct unwinder *u = arg;

	(void)dwfl;
	if (u->next_thread >= u->c->nthreads)
		return 0;
	u->cur_thread = u->next_thread++;
	u->targ.u = u;
	u->targ.t = &u->c->threads[u->cur_thread];
	*thread_argp = &u->targ;
	/* libdwfl wants a positive id; ours is matched by index anyway. */
	int tid = u->c->threads[u->cur_thread].tid;
	return tid > 0 ? tid : (pid_t)(INT32_MAX - (int)u->cur_thread);
}

static bool live_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg);

/* Hands libdwfl a thread's registers (user_regs_struct order in USER). */
static bool start_walk(struct unwinder *u, Dwfl_Thread *thread, const uint64_t *regs_in)
{
	Dwarf_Word regs[NDWARF_REGS];
	uint64_t user[RC_CRASH_NREGS];

	memcpy(user, regs_in, sizeof(user));
	/* A pc in no executable mapping (a call through a NULL or stale
	 * pointer) has no unwind info: the walk would stop there or guess.
	 * The call that jumped pushed its return address: frame 0 is the bad
	 * pc, and the walk starts over from the caller, as after a return. */
	const struct rc_mapping *m = crash_mapping_at(u->c, user[RC_REG_RIP]);
	Dwarf_Word ret;
	bool got = u->live ? live_memory_read(NULL, user[RC_REG_RSP], &ret, u)
			   : core_memory_read(NULL, user[RC_REG_RSP], &ret, u);
	if ((!m || !m->exec) && u->c->nmaps && got && crash_mapping_at(u->c, ret) &&
	    crash_mapping_at(u->c, ret)->exec) {
		push_raw(u, user[RC_REG_RIP], true);
		u->bad_pc = true;
		user[RC_REG_RIP] = ret;
		user[RC_REG_RSP] += 8;
	}
	for (int r = 0; r < NDWARF_REGS; r++)
		regs[r] = user[dwarf_to_user[r]];
	if (!dwfl_thread_state_registers(thread, 0, NDWARF_REGS, regs))
		return false;
	dwfl_thread_state_register_pc(thread, user[RC_REG_RIP]);
	return true;
}

static bool core_set_initial_registers(Dwfl_Thread *thread, void *thread_arg)
{
	const struct thread_arg *ta = thread_arg;

	return start_walk(ta->u, thread, ta->t->regs);
}

static const Dwfl_Thread_Callbacks core_thread_callbacks = {
	.next_thread = core_next_thread,
	.memory_read = core_memory_read,
	.set_initial_registers = core_set_initial_registers,
};

/* x86_64's struct elf_prstatus: pr_cursig, pr_pid and pr_reg. */
#define PRSTATUS_CURSIG 12
#define PRSTATUS_PID 32
#define PRSTATUS_REGS 112
#define PRSTATUS_MIN (PRSTATUS_REGS + RC_CRASH_NREGS * 8)

/* The threads of the core's NT_PRSTATUS notes that C lacks (all of them
 * when core.c has not read the notes), with their registers: we give
 * libdwfl the threads ourselves, so we must know every one. */
static void add_note_threads(struct rc_crash *c, Elf *elf)
{
	size_t phnum;
	bool had_none = c->nthreads == 0;
	struct hmap known;

	if (elf_getphdrnum(elf, &phnum) != 0)
		return;
	hmap_init(&known);
	for (size_t k = 0; k < c->nthreads; k++)
		hmap_put_int(&known, c->threads[k].tid, NULL);
	for (size_t i = 0; i < phnum && i < RC_CRASH_MAX_MAPPINGS; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE)
			continue;
		Elf_Data *d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset, ph.p_filesz, ELF_T_NHDR);
		if (!d)
			continue;

		size_t off = 0, name_off, desc_off;
		GElf_Nhdr nh;
		while (off < d->d_size && (off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
			if (nh.n_type != NT_PRSTATUS || nh.n_descsz < PRSTATUS_MIN ||
			    nh.n_namesz != sizeof("CORE") ||
			    memcmp((const char *)d->d_buf + name_off, "CORE", sizeof("CORE")) != 0)
				continue;

			const unsigned char *desc = (const unsigned char *)d->d_buf + desc_off;
			int32_t tid;
			int16_t cursig;
			memcpy(&tid, desc + PRSTATUS_PID, sizeof(tid));
			memcpy(&cursig, desc + PRSTATUS_CURSIG, sizeof(cursig));
			if (hmap_get_int(&known, tid))
				continue;
			if (c->nthreads >= RC_CRASH_MAX_THREADS) {
				/* core.c has said so when it read the notes. */
				if (had_none)
					crash_problem(c, "more than %d threads: the rest are left out",
						      RC_CRASH_MAX_THREADS);
				goto out;
			}
			hmap_put_int(&known, tid, NULL);
			struct rc_thread *t = add_thread(c, tid);
			t->cursig = cursig;
			memcpy(t->regs, desc + PRSTATUS_REGS, sizeof(t->regs));
			/* The kernel writes the thread that took the signal
			 * first. */
			if (had_none && c->nthreads == 1 && !c->crashed_tid && cursig) {
				t->crashed = true;
				c->crashed_tid = tid;
			}
		}
	}
out:
	hmap_release(&known, NULL);
}

int crash_unwind_core(struct rc_crash *c, const void *image, size_t size, const char *exe,
		      struct strbuf *err)
{
	struct unwinder u = { .c = c, .own_threads = true, .image = image, .size = size };
	GElf_Ehdr eh;
	int ret = -1;

	if (c->nmodules) {
		strbuf_addf(err, "cannot unwind core: modules were already read");
		return -1;
	}
	hmap_init(&u.syms);
	elf_version(EV_CURRENT);
	Elf *elf = elf_memory((char *)image, size);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) || eh.e_type != ET_CORE) {
		strbuf_addf(err, "cannot unwind core: %s", elf && elf_kind(elf) == ELF_K_ELF ?
			    "not a core file" : "not an ELF file");
		goto out;
	}

	u.dwfl = dwfl_begin(&core_callbacks);
	if (!u.dwfl) {
		strbuf_addf(err, "cannot unwind core: %s", dwfl_errmsg(-1));
		goto out;
	}
	dwfl_report_begin(u.dwfl);
	/* Until the end: libdwfl opens a module's file when first asked. */
	core_root_fd = exe ? -1 : c->root_fd;
	if (dwfl_core_file_report(u.dwfl, elf, exe) < 0)
		crash_problem(c, "cannot find the core's modules: %s", dwfl_errmsg(-1));
	if (dwfl_report_end(u.dwfl, NULL, NULL) != 0)
		crash_problem(c, "cannot find the core's modules: %s", dwfl_errmsg(-1));
	read_modules(&u);
	find_symbols(&u);
	changed_files(&u);

	add_note_threads(c, elf);
	if (!c->nthreads) {
		strbuf_addf(err, "cannot unwind core: no threads found");
		goto out;
	}
	read_segments(&u, elf);
	pid_t pid = c->pid > 0 ? c->pid : (c->threads[0].tid > 0 ? c->threads[0].tid : 1);
	if (!dwfl_attach_state(u.dwfl, elf, pid, &core_thread_callbacks, &u)) {
		strbuf_addf(err, "cannot unwind core: %s", dwfl_errmsg(-1));
		goto out;
	}
	unwind_threads(&u);
	ret = finish(&u, err);
out:
	unwinder_release(&u);
	if (elf)
		elf_end(elf);
	core_root_fd = -1;
	return ret;
}

/* ---- live processes ---- */

/* Live threads through our own callbacks rather than libdwfl's pid
 * attach, so that a walk from a bad pc starts at its caller, as for a
 * core.  The threads are ours (ptrace-stopped by the caller). */
static bool live_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct unwinder *u = arg;

	if (u->c->pages && u->c->live_pid == u->pid)
		return crash_read_mem(u->c, addr, result, sizeof(*result)) == sizeof(*result);
	struct iovec local = { result, sizeof(*result) };
	struct iovec remote = { (void *)(uintptr_t)addr, sizeof(*result) };

	(void)dwfl;
	return process_vm_readv(u->pid, &local, 1, &remote, 1, 0) == (ssize_t)sizeof(*result);
}

static pid_t live_next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct unwinder *u = arg;

	(void)dwfl;
	if (!u->tids) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/task", (int)u->pid);
		DIR *d = opendir(path);
		if (!d)
			return -1;
		struct dirent *de;
		size_t alloc = 0;
		while ((de = readdir(d)) && u->ntids < RC_CRASH_MAX_THREADS) {
			long tid = strtol(de->d_name, NULL, 10);
			if (tid <= 0)
				continue;
			if (u->ntids == alloc) {
				alloc = alloc ? 2 * alloc : 16;
				u->tids = xrealloc(u->tids, alloc * sizeof(*u->tids));
			}
			u->tids[u->ntids++] = (pid_t)tid;
		}
		closedir(d);
		if (!u->tids)
			u->tids = xcalloc(1, sizeof(*u->tids));
	}
	if (u->next_tid >= u->ntids)
		return 0;
	u->targ.u = u;
	u->targ.t = NULL;
	u->cur_tid = u->tids[u->next_tid++];
	*thread_argp = &u->targ;
	return u->cur_tid;
}

static bool live_set_initial_registers(Dwfl_Thread *thread, void *thread_arg)
{
	const struct thread_arg *ta = thread_arg;
	struct unwinder *u = ta->u;
	struct user_regs_struct regs;
	uint64_t user[RC_CRASH_NREGS] = { 0 };
	struct iovec iov = { &regs, sizeof(regs) };

	if (u->given_regs)
		return start_walk(u, thread, u->given_regs);
	if (ptrace(PTRACE_GETREGSET, u->cur_tid, (void *)NT_PRSTATUS, &iov) != 0 ||
	    iov.iov_len != sizeof(regs))
		return false;
	memcpy(user, &regs, MIN(sizeof(regs), sizeof(user)));
	return start_walk(u, thread, user);
}

static const Dwfl_Thread_Callbacks live_thread_callbacks = {
	.next_thread = live_next_thread,
	.memory_read = live_memory_read,
	.set_initial_registers = live_set_initial_registers,
};

struct crash_live_unwind {
	struct unwinder u;
};

struct crash_live_unwind *crash_unwind_pid_begin(struct rc_crash *c, pid_t pid, struct strbuf *err)
{
	struct crash_live_unwind *w = xcalloc(1, sizeof(*w));
	struct unwinder *u = &w->u;
	int r;

	u->c = c;
	u->live = true;
	u->defer = true;
	u->pid = pid;
	hmap_init(&u->syms);
	if (c->nmodules) {
		strbuf_addf(err, "cannot unwind process %d: modules were already read", (int)pid);
		goto fail;
	}
	elf_version(EV_CURRENT);
	u->dwfl = dwfl_begin(&proc_callbacks);
	if (!u->dwfl) {
		strbuf_addf(err, "cannot unwind process %d: %s", (int)pid, dwfl_errmsg(-1));
		goto fail;
	}
	dwfl_report_begin(u->dwfl);
	r = dwfl_linux_proc_report(u->dwfl, pid);
	if (r != 0) {
		strbuf_addf(err, "cannot read the modules of process %d: %s", (int)pid,
			    r > 0 ? strerror(r) : dwfl_errmsg(-1));
		goto fail;
	}
	if (dwfl_report_end(u->dwfl, NULL, NULL) != 0)
		crash_problem(c, "cannot read the modules of process %d: %s", (int)pid,
			      dwfl_errmsg(-1));
	if (!dwfl_attach_state(u->dwfl, NULL, pid, &live_thread_callbacks, u)) {
		strbuf_addf(err, "cannot unwind process %d: %s", (int)pid, dwfl_errmsg(-1));
		goto fail;
	}
	if (!c->pid)
		c->pid = pid;
	unwind_threads(u);
	/* While the threads are held: what rules and the Python reader look
	 * up (__abort_msg, _PyRuntime) must be read from this moment. */
	find_symbols(u);
	return w;
fail:
	unwinder_release(u);
	free(w);
	return NULL;
}

int crash_unwind_pid_end(struct crash_live_unwind *w, struct strbuf *err)
{
	struct unwinder *u = &w->u;
	struct raw_frame *own = u->raw;
	size_t own_alloc = u->araw;

	read_modules(u);
	for (size_t i = 0; i < u->npending; i++) {
		struct pending *p = &u->pending[i];
		struct rc_thread *t = NULL;
		for (size_t k = 0; k < u->c->nthreads && !t; k++)
			if (u->c->threads[k].tid == p->tid)
				t = &u->c->threads[k];
		if (!t)
			continue;
		u->raw = p->raw;
		u->nraw = p->nraw;
		u->capped = p->capped;
		thread_done(u, t, p->err);
		p->err = NULL;
	}
	u->raw = own;
	u->araw = own_alloc;
	int ret = finish(u, err);
	unwinder_release(u);
	free(w);
	return ret;
}

/* ---- one thread at a time, across calls ---- */

/* Drops the cached look-ups that found no module. */
static void forget_moduleless(struct unwinder *u)
{
	struct hmap_iter it;
	struct hmap keep;

	hmap_init(&keep);
	for (struct hmap_node *n = hmap_first(&u->syms, &it); n; n = hmap_next(&u->syms, &it)) {
		struct sym *sy = n->value;
		if (sy && sy->module)
			*hmap_put_int(&keep, hmap_node_int(n), NULL) = sy;
		else
			sym_free(sy);
	}
	hmap_release(&u->syms, NULL);
	u->syms = keep;
}

static bool live_get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	struct unwinder *u = arg;

	(void)dwfl;
	u->targ.u = u;
	u->targ.t = NULL;
	u->cur_tid = tid;
	*thread_argp = &u->targ;
	return true;
}

static pid_t no_next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	(void)dwfl;
	(void)arg;
	(void)thread_argp;
	return 0;
}

static const Dwfl_Thread_Callbacks one_thread_callbacks = {
	.next_thread = no_next_thread,
	.get_thread = live_get_thread,
	.memory_read = live_memory_read,
	.set_initial_registers = live_set_initial_registers,
};

struct crash_thread_unwind {
	struct unwinder u;
	struct rc_crash c;	/* the modules, the symbols Python needs */
	/* pcs in no module even after reading the modules again (JIT code,
	 * a thunk in anonymous memory): no reason to read them again. */
	struct hmap no_module;
	int maps_fd;		/* /proc/PID/maps, for PROCMAP_QUERY; -1 none */
};

/* What follows modules newly reported to libdwfl: the symbols cached
 * for addresses in no module may be in one now, the new modules join
 * C's list, and what Python and the rules look up may be found. */
static void modules_added(struct crash_thread_unwind *w)
{
	struct unwinder *u = &w->u;
	struct rc_crash *c = &w->c;

	if (c->nmodules)
		forget_moduleless(u);
	read_modules(u);
	if (!c->sym_py_runtime || !c->sym_abort_msg)
		find_symbols(u);
}

/* Whether PC is in no module libdwfl knows, and not one noted as in
 * none for good. */
static bool moduleless_pc(struct crash_thread_unwind *w, uint64_t pc)
{
	return pc && !dwfl_addrmodule(w->u.dwfl, pc) && !hmap_get_int(&w->no_module, (long long)(pc >> 1));
}

/* The process's modules, added to those reported before (libdwfl keeps
 * a module reported again, and what it parsed of it: its unwind tables
 * and symbols); the new ones appended to C's list (the symbol cache
 * holds indexes into it), and the cached look-ups that found no module
 * dropped: their address may be in a new one. */
static int report_modules(struct crash_thread_unwind *w, struct strbuf *err)
{
	struct unwinder *u = &w->u;

	dwfl_report_begin_add(u->dwfl);
	int r = dwfl_linux_proc_report(u->dwfl, u->pid);
	if (dwfl_report_end(u->dwfl, NULL, NULL) != 0 || r != 0) {
		strbuf_addf(err, "cannot read the modules of process %d: %s", (int)u->pid,
			    r > 0 ? strerror(r) : dwfl_errmsg(-1));
		return -1;
	}
	modules_added(w);
	return 0;
}

/* The libraries that hold U's pcs in no module, each reported as the
 * run of its file's mappings that dwfl_linux_proc_report would report
 * (procmap.h), without reading the process's whole maps; a pc in no
 * file's mapping (anonymous memory: JIT code, or a walk gone astray) is
 * in no module after reading them either. False, with nothing reported,
 * when the kernel cannot say: then the maps are read. */
static bool report_new_runs(struct crash_thread_unwind *w)
{
	struct unwinder *u = &w->u;
	struct run { uint64_t low, high; char *name; } runs[8];
	size_t n = 0;
	bool ok = w->maps_fd >= 0;

	for (size_t i = 0; ok && i < u->nraw; i++) {
		uint64_t pc = u->raw[i].pc;
		bool have = !moduleless_pc(w, pc);
		for (size_t k = 0; k < n && !have; k++)
			have = pc >= runs[k].low && pc < runs[k].high;
		if (have)
			continue;
		int r = n < ARRAY_SIZE(runs) ? crash_procmap_file_run(w->maps_fd, pc, &runs[n].low, &runs[n].high,
								     &runs[n].name) : 0;
		if (r < 0) {
			close(w->maps_fd);
			w->maps_fd = -1;
		}
		if (r == 1)
			n++;
		else if (r != 0)
			ok = false;
	}
	if (ok && n) {
		dwfl_report_begin_add(u->dwfl);
		for (size_t k = 0; k < n && ok; k++)
			ok = dwfl_report_module(u->dwfl, runs[k].name, runs[k].low, runs[k].high) != NULL;
		ok = dwfl_report_end(u->dwfl, NULL, NULL) == 0 && ok;
	}
	for (size_t k = 0; k < n; k++)
		free(runs[k].name);
	if (ok && n)
		modules_added(w);
	return ok;
}

struct crash_thread_unwind *crash_thread_unwind_new(pid_t pid, struct strbuf *err)
{
	struct crash_thread_unwind *w = xcalloc(1, sizeof(*w));
	struct unwinder *u = &w->u;
	char maps[64];

	snprintf(maps, sizeof(maps), "/proc/%d/maps", (int)pid);
	w->maps_fd = open(maps, O_RDONLY | O_CLOEXEC);

	crash_init(&w->c);
	w->c.pages = crash_pages_new();
	hmap_init(&w->no_module);
	w->c.pid = pid;
	u->c = &w->c;
	u->live = true;
	u->pid = pid;
	hmap_init(&u->syms);
	elf_version(EV_CURRENT);
	u->dwfl = dwfl_begin(&call_callbacks);
	if (!u->dwfl) {
		strbuf_addf(err, "cannot unwind process %d: %s", (int)pid, dwfl_errmsg(-1));
		goto fail;
	}
	if (report_modules(w, err) < 0)
		goto fail;
	if (!dwfl_attach_state(u->dwfl, NULL, pid, &one_thread_callbacks, u)) {
		strbuf_addf(err, "cannot unwind process %d: %s", (int)pid, dwfl_errmsg(-1));
		goto fail;
	}
	return w;
fail:
	crash_thread_unwind_free(w);
	return NULL;
}

int crash_thread_unwind_refresh(struct crash_thread_unwind *w, struct strbuf *err)
{
	return report_modules(w, err);
}

struct rc_crash *crash_thread_unwind_model(struct crash_thread_unwind *w)
{
	return &w->c;
}

/* Whether a frame's pc lies in no module: code mapped since the modules
 * were read (a library dlopen'ed).  With NOTE, those pcs are remembered
 * as lying in none for good. */
static bool unknown_pc(struct crash_thread_unwind *w, bool note)
{
	struct unwinder *u = &w->u;
	bool any = false;

	for (size_t i = 0; i < u->nraw; i++) {
		uint64_t pc = u->raw[i].pc;
		if (!moduleless_pc(w, pc))
			continue;
		any = true;
		if (note && w->no_module.count < 4096)
			hmap_put_int(&w->no_module, (long long)(pc >> 1), NULL);
	}
	return any;
}

static int walk_one(struct unwinder *u, pid_t tid, char **err)
{
	u->nraw = 0;
	u->bad_pc = false;
	u->capped = false;
	u->have_sp = false;
	u->total_frames = 0;
	free(u->frame_err);
	u->frame_err = NULL;
	*err = NULL;
	int r = dwfl_getthread_frames(u->dwfl, tid, frame_cb, u);
	if (u->bad_pc && u->nraw > 1)
		u->raw[1].activation = false;
	if (r == -1)
		*err = xstrdup(dwfl_errmsg(-1));
	else if (u->frame_err)
		*err = xstrdup(u->frame_err);
	return r;
}

/* The walk in U ended at the bottom of the stack (a walk that ran out of
 * what it knows, a register it lacked, may end with no error at all). */
static bool walk_whole(struct unwinder *u)
{
	if (!u->nraw)
		return false;
	const struct raw_frame *r = &u->raw[u->nraw - 1];
	const struct sym *sy = lookup(u, r->activation || !r->pc ? r->pc : r->pc - 1, false);
	return sy->n && stack_bottom(sy->f[sy->n - 1].function);
}

/* U's walk as it stands (NULL when empty), for the caller to keep. */
static struct raw_frame *raw_copy(const struct unwinder *u)
{
	struct raw_frame *r = u->nraw ? xmalloc(u->nraw * sizeof(*r)) : NULL;

	if (r)
		memcpy(r, u->raw, u->nraw * sizeof(*r));
	return r;
}

/* Frame pointers tried at most, and how far above sp they are looked for. */
#define FP_TRIES 4
#define FP_SCAN 8192

/* A thread asleep in a call, read from /proc, gives its sp and pc only.
 * A function built to keep a frame pointer (-O0, or
 * -fno-omit-frame-pointer) finds its caller through rbp, which the C
 * runtime's wrappers under it leave as it set it: the walk stops there.
 * Such a frame is a pair of words on the stack, the caller's rbp (0, or
 * further up the stack) and a return address into a module: the lowest
 * few such pairs above sp are tried as rbp, and the deepest walk kept.
 * WHY is the first walk's error; returns the kept walk's (freed or
 * passed on), the kept frames in U. */
static char *walk_with_frame_pointer(struct crash_thread_unwind *w, struct rc_thread *t, char *why)
{
	struct unwinder *u = &w->u;
	uint64_t sp = t->regs[RC_REG_RSP];
	size_t nbest = u->nraw, tries = 0;
	struct raw_frame *best = raw_copy(u);

	for (uint64_t a = sp; a < sp + FP_SCAN && tries < FP_TRIES; a += 8) {
		uint64_t pair[2];
		if (crash_read_mem(&w->c, a, pair, sizeof(pair)) != sizeof(pair))
			break;
		if ((pair[0] && (pair[0] <= a || pair[0] > sp + (1u << 20))) || !dwfl_addrmodule(u->dwfl, pair[1]))
			continue;
		tries++;
		t->regs[RC_REG_RBP] = a;
		char *err = NULL;
		walk_one(u, t->tid, &err);
		if (u->nraw > nbest) {
			free(best);
			best = raw_copy(u);
			nbest = u->nraw;
			free(why);
			why = err;
			if (walk_whole(u))
				break;
		} else {
			free(err);
		}
	}
	/* The kept walk back in U. */
	u->nraw = 0;
	for (size_t i = 0; i < nbest; i++)
		push_raw(u, best[i].pc, best[i].activation);
	free(best);
	return why;
}

int crash_thread_unwind(struct crash_thread_unwind *w, struct rc_thread *t, const uint64_t *regs_in,
			struct strbuf *err)
{
	struct unwinder *u = &w->u;
	char *why = NULL;

	/* The thread ran since the last walk: read its memory afresh. */
	crash_pages_forget(w->c.pages);
	w->c.live_pid = u->pid;
	/* Its registers, for what reads the thread besides the walk (the
	 * Python reader matches a thread state by its fs base). */
	struct user_regs_struct regs;
	struct iovec iov = { &regs, sizeof(regs) };
	if (regs_in)
		memcpy(t->regs, regs_in, sizeof(t->regs));
	else if (ptrace(PTRACE_GETREGSET, t->tid, (void *)NT_PRSTATUS, &iov) == 0 && iov.iov_len == sizeof(regs))
		memcpy(t->regs, &regs, MIN(sizeof(regs), sizeof(t->regs)));
	u->given_regs = regs_in ? t->regs : NULL;
	walk_one(u, t->tid, &why);
	/* A frame in code the modules lack: read them again, walk again. */
	if (unknown_pc(w, false)) {
		free(why);
		if (!report_new_runs(w) && report_modules(w, err) < 0)
			return -1;
		walk_one(u, t->tid, &why);
		unknown_pc(w, true);
	}
	if (regs_in && !regs_in[RC_REG_RBP] && !walk_whole(u))
		why = walk_with_frame_pointer(w, t, why);
	if (!u->nraw) {
		strbuf_addf(err, "%s", why ? why : "no frames");
		free(why);
		return -1;
	}
	add_frames(u, t);
	/* A walk that ran off the bottom of the stack is whole. */
	if (why && !(t->nframes && stack_bottom(t->frames[t->nframes - 1].function)))
		t->truncated = true;
	free(why);
	return 0;
}

void crash_thread_unwind_free(struct crash_thread_unwind *w)
{
	if (!w)
		return;
	unwinder_release(&w->u);
	crash_pages_free(w->c.pages);
	w->c.pages = NULL;
	crash_release(&w->c);
	hmap_release(&w->no_module, NULL);
	if (w->maps_fd >= 0)
		close(w->maps_fd);
	free(w);
}

int crash_unwind_pid(struct rc_crash *c, pid_t pid, struct strbuf *err)
{
	struct crash_live_unwind *w = crash_unwind_pid_begin(c, pid, err);

	return w ? crash_unwind_pid_end(w, err) : -1;
}

const char *crash_unwinder_version(void)
{
	return dwfl_version(NULL);
}
