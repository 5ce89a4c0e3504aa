/* Writing a standard ELF core of a live, stopped process (run/attach
 * --core-out), as the kernel would have: the notes gdb and eu-stack read
 * (NT_PRSTATUS and NT_PRFPREG per thread, the crashed one first; NT_PRPSINFO,
 * NT_SIGINFO, NT_AUXV, NT_FILE) and a PT_LOAD per mapping.  Like the
 * kernel, the bytes of file-backed mappings that were never written are
 * left out (the files hold them), except the first page of each, which
 * carries an ELF header and its build id. */
#include "crash/corewrite.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/procfs.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/user.h>
#include <unistd.h>

#include "util/util.h"

#define PAGE 4096ULL

static void note(struct strbuf *sb, uint32_t type, const void *desc, size_t n)
{
	static const char name[8] = "CORE";
	Elf64_Nhdr h = { .n_namesz = 5, .n_descsz = (Elf64_Word)n, .n_type = type };
	static const char zero[8];

	strbuf_add(sb, &h, sizeof(h));
	strbuf_add(sb, name, 8);	/* "CORE\0" padded to 4 */
	strbuf_add(sb, desc, n);
	strbuf_add(sb, zero, (4 - n % 4) % 4);
}

/* What to dump of a mapping: all of anonymous memory and of file-backed
 * data (relocated, or made read-only after relocation: gdb finds the
 * shared libraries through it); of code only the first page at offset 0,
 * which holds the ELF header and build id (the file has the rest).
 * Unreadable ones ([vvar], guard pages) not at all. */
static uint64_t dump_size(const struct rc_mapping *m)
{
	if (!m->read)
		return 0;
	if (!m->path || !m->exec)
		return m->end - m->start;
	return m->offset == 0 ? PAGE : 0;
}

static bool write_at(int fd, const void *p, size_t n, off_t off)
{
	const char *s = p;

	while (n) {
		ssize_t w = pwrite(fd, s, n, off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		s += w;
		n -= (size_t)w;
		off += w;
	}
	return true;
}

static void prpsinfo(struct strbuf *sb, const struct rc_crash *c)
{
	struct elf_prpsinfo p;

	memset(&p, 0, sizeof(p));
	p.pr_pid = c->pid;
	p.pr_sname = 'R';
	const char *comm = c->exe ? strrchr(c->exe, '/') : NULL;
	snprintf(p.pr_fname, sizeof(p.pr_fname), "%s", comm ? comm + 1 : c->exe ? c->exe : "");
	size_t at = 0;
	for (int i = 0; i < c->argc && at < sizeof(p.pr_psargs) - 1; i++) {
		int w = snprintf(p.pr_psargs + at, sizeof(p.pr_psargs) - at, "%s%s", i ? " " : "", c->argv[i]);
		if (w < 0)
			break;
		at += (size_t)w;
	}
	note(sb, NT_PRPSINFO, &p, sizeof(p));
}

static void file_note(struct strbuf *sb, const struct rc_crash *c)
{
	struct strbuf d = STRBUF_INIT, names = STRBUF_INIT;
	uint64_t count = 0, page = PAGE;

	for (size_t i = 0; i < c->nmaps; i++)
		count += c->maps[i].path != NULL;
	strbuf_add(&d, &count, 8);
	strbuf_add(&d, &page, 8);
	for (size_t i = 0; i < c->nmaps; i++) {
		const struct rc_mapping *m = &c->maps[i];
		if (!m->path)
			continue;
		uint64_t v[3] = { m->start, m->end, m->offset / PAGE };
		strbuf_add(&d, v, sizeof(v));
		strbuf_add(&names, m->path, strlen(m->path) + 1);
	}
	strbuf_add(&d, names.buf, names.len);
	note(sb, NT_FILE, d.buf, d.len);
	strbuf_release(&d);
	strbuf_release(&names);
}

static void auxv_note(struct strbuf *sb, pid_t pid)
{
	char path[64], buf[4096];

	snprintf(path, sizeof(path), "/proc/%d/auxv", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n > 0)
		note(sb, NT_AUXV, buf, (size_t)n);
}

int crash_write_core(const struct rc_crash *c, pid_t pid, const char *path, struct strbuf *err)
{
	struct strbuf notes = STRBUF_INIT;

	/* One NT_PRSTATUS per thread, the crashed one first (gdb's current
	 * thread); registers fresh from the stopped thread. */
	for (size_t i = 0; i < c->nthreads; i++) {
		const struct rc_thread *t = &c->threads[i];
		struct elf_prstatus ps;
		memset(&ps, 0, sizeof(ps));
		ps.pr_pid = t->tid;
		ps.pr_ppid = 0;
		ps.pr_cursig = (short)(t->crashed ? c->signo : 0);
		ps.pr_info.si_signo = t->crashed ? c->signo : 0;
		struct user_regs_struct regs;
		if (ptrace(PTRACE_GETREGS, t->tid, 0L, &regs) == 0)
			memcpy(&ps.pr_reg, &regs, sizeof(regs));
		else
			memcpy(&ps.pr_reg, t->regs, MIN(sizeof(ps.pr_reg), sizeof(t->regs)));
		note(&notes, NT_PRSTATUS, &ps, sizeof(ps));
		/* The x87/SSE state, as the kernel writes it after each
		 * thread's status: gdb shows the float and vector registers. */
		struct user_fpregs_struct fp;
		if (ptrace(PTRACE_GETFPREGS, t->tid, 0L, &fp) == 0)
			note(&notes, NT_PRFPREG, &fp, sizeof(fp));
		if (i > 0)
			continue;
		/* The process's notes follow the first thread's, in the
		 * kernel's order (readers take the first thread's siginfo). */
		prpsinfo(&notes, c);
		if (c->signo) {
			siginfo_t si;
			memset(&si, 0, sizeof(si));
			si.si_signo = c->signo;
			si.si_code = c->si_code;
			si.si_addr = (void *)(uintptr_t)c->fault_addr;
			note(&notes, NT_SIGINFO, &si, sizeof(si));
		}
		auxv_note(&notes, pid);
		file_note(&notes, c);
	}

	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		strbuf_addf(err, "cannot write core '%s': %s", path, strerror(errno));
		strbuf_release(&notes);
		return -1;
	}
	fchmod(fd, 0600);
	char mempath[64];
	snprintf(mempath, sizeof(mempath), "/proc/%d/mem", (int)pid);
	int mem = open(mempath, O_RDONLY | O_CLOEXEC);

	/* e_phnum is 16 bits; past that the kernel's extended numbering
	 * would be needed: the last mappings are left out instead. */
	size_t nmaps = MIN(c->nmaps, (size_t)PN_XNUM - 2);
	size_t nph = 1 + nmaps;
	Elf64_Ehdr eh;
	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_ident[EI_OSABI] = ELFOSABI_NONE;
	eh.e_type = ET_CORE;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_phoff = sizeof(eh);
	eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = (Elf64_Half)nph;

	Elf64_Phdr *ph = xcalloc(nph, sizeof(*ph));
	uint64_t off = sizeof(eh) + nph * sizeof(Elf64_Phdr);
	ph[0].p_type = PT_NOTE;
	ph[0].p_offset = off;
	ph[0].p_filesz = notes.len;
	ph[0].p_align = 4;
	off = (off + notes.len + PAGE - 1) & ~(PAGE - 1);
	for (size_t i = 0; i < nmaps; i++) {
		const struct rc_mapping *m = &c->maps[i];
		Elf64_Phdr *p = &ph[1 + i];
		p->p_type = PT_LOAD;
		p->p_vaddr = m->start;
		p->p_memsz = m->end - m->start;
		p->p_flags = (m->read ? PF_R : 0) | (m->write ? PF_W : 0) | (m->exec ? PF_X : 0);
		p->p_align = PAGE;
		p->p_offset = off;
		p->p_filesz = mem >= 0 ? dump_size(m) : 0;
		off += p->p_filesz;
	}

	bool ok = write_at(fd, &eh, sizeof(eh), 0) &&
		  write_at(fd, ph, nph * sizeof(*ph), sizeof(eh)) &&
		  write_at(fd, notes.buf, notes.len, (off_t)ph[0].p_offset);
	unsigned char *page = xmalloc(PAGE * 16);
	for (size_t i = 0; ok && i < nmaps; i++) {
		const Elf64_Phdr *p = &ph[1 + i];
		for (uint64_t done = 0; ok && done < p->p_filesz;) {
			size_t want = (size_t)MIN(PAGE * 16, p->p_filesz - done);
			ssize_t got = pread(mem, page, want, (off_t)(p->p_vaddr + done));
			if (got <= 0) {
				/* An unreadable page reads as zeros, as in a
				 * kernel core. */
				memset(page, 0, PAGE);
				got = (ssize_t)MIN(PAGE, want);
			}
			ok = write_at(fd, page, (size_t)got, (off_t)(p->p_offset + done));
			done += (uint64_t)got;
		}
	}
	free(page);
	free(ph);
	if (mem >= 0)
		close(mem);
	if (close(fd) != 0)
		ok = false;
	strbuf_release(&notes);
	if (!ok) {
		strbuf_addf(err, "cannot write core '%s': %s", path, strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}
