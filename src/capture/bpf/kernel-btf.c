/* The kernel's types, cut to those the capture's programs name (see
 * kernel-btf.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "capture/bpf/kernel-btf.h"
#include "util/hmap.h"
#include "util/util.h"

/* An enum in the cut that keeps the kernel's ids of the types the
 * programs hand to the kernel: named after them, valued by their ids. */
#define IDS_ENUM "rootcause_kernel_ids"

static int read_all(const char *path, char **out, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;

	*out = NULL;
	if (fd < 0)
		return -errno;
	/* sysfs gives the BTF's size; a short read is a changed file. */
	if (fstat(fd, &st) != 0 || st.st_size <= 0 || st.st_size > (1 << 30)) {
		close(fd);
		return -EINVAL;
	}
	char *buf = malloc((size_t)st.st_size);
	size_t n = 0;
	while (buf && n < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + n, (size_t)st.st_size - n);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	int e = !buf ? -ENOMEM : n != (size_t)st.st_size ? -EIO : 0;
	close(fd);
	if (e) {
		free(buf);
		return e;
	}
	*out = buf;
	*len = n;
	return 0;
}

/* A hash of the kernel's BTF, four words at a time: its 5 MiB are hashed
 * on every load; util's hash_bytes, one word a step, takes 3 ms on it,
 * four lanes under a third of that. Not a defence: the cache is the user's own. */
static uint64_t hash_btf(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h[4] = { 1, 2, 3, 4 };
	size_t i = 0;

	for (; i + 32 <= n; i += 32)
		for (int k = 0; k < 4; k++) {
			uint64_t w;
			memcpy(&w, b + i + 8 * k, 8);
			h[k] = (h[k] ^ w) * 0x100000001b3ULL;
			h[k] ^= h[k] >> 29;
		}
	return hash_mix64(hash_mix64(h[0] ^ hash_mix64(h[1] ^ hash_mix64(h[2] ^ hash_mix64(h[3])))) ^
			  hash_bytes(b + i, n - i));
}

void kernel_btf_dir(char *out, size_t size)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (geteuid() == 0)
		snprintf(out, size, "/var/cache/rootcause");
	else if (xdg && xdg[0] == '/')
		snprintf(out, size, "%s/rootcause", xdg);
	else if (home && home[0] == '/')
		snprintf(out, size, "%s/.cache/rootcause", home);
	else if (size)
		out[0] = '\0';
}

/* Whether FD (or the directory at PATH, FD < 0) is the user's alone. */
static bool own(int fd, const char *path, mode_t type)
{
	struct stat st;

	if (fd >= 0 ? fstat(fd, &st) != 0 : lstat(path, &st) != 0)
		return false;
	return (st.st_mode & S_IFMT) == type && st.st_uid == geteuid() && !(st.st_mode & 022);
}

/* The kernel's ids kept in cut BTF (IDS_ENUM); false when it has none. */
static bool read_ids(const struct btf *b, struct kernel_btf *kb)
{
	__s32 id = btf__find_by_name_kind(b, IDS_ENUM, BTF_KIND_ENUM);
	const struct btf_type *t = id > 0 ? btf__type_by_id(b, (__u32)id) : NULL;

	kb->task_struct_id = kb->file_id = 0;
	for (int i = 0; t && i < btf_vlen(t); i++) {
		const char *name = btf__name_by_offset(b, btf_enum(t)[i].name_off);
		__u32 v = (__u32)btf_enum(t)[i].val;
		if (name && strcmp(name, "task_struct") == 0)
			kb->task_struct_id = v;
		else if (name && strcmp(name, "file") == 0)
			kb->file_id = v;
	}
	return kb->task_struct_id && kb->file_id;
}

struct cut {
	const struct btf *from;	/* the kernel's */
	struct btf *to;
	__u32 *ids;		/* from's ids to to's; 0: not copied yet */
	__u32 void_ptr;
};

/* Type ID of the kernel's BTF copied into the cut, with what it is made
 * of, but not what it points to: its id in the cut, or a negative
 * errno. */
static long copy_type(struct cut *c, __u32 id)
{
	if (id == 0)
		return 0;
	if (c->ids[id])
		return c->ids[id];
	const struct btf_type *t = btf__type_by_id(c->from, id);
	long r, to;
	if (!t)
		return -EINVAL;
	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
		if (!c->void_ptr && (r = btf__add_ptr(c->to, 0)) > 0)
			c->void_ptr = (__u32)r;
		r = c->void_ptr ? (long)c->void_ptr : -ENOMEM;
		break;
	case BTF_KIND_FUNC_PROTO:
		/* Only a typedef of a function type reaches here: its shape
		 * is nothing a relocation reads. */
		r = btf__add_func_proto(c->to, 0);
		break;
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = btf_array(t);
		long elem = copy_type(c, a->type), index = copy_type(c, a->index_type);
		if (elem < 0 || index < 0)
			return elem < 0 ? elem : index;
		r = btf__add_array(c->to, (int)index, (int)elem, a->nelems);
		break;
	}
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		/* The members' types first: a struct's fields follow it. */
		for (__u16 i = 0; i < btf_vlen(t); i++)
			if ((to = copy_type(c, btf_members(t)[i].type)) < 0)
				return to;
		if ((r = btf__add_type(c->to, c->from, t)) > 0) {
			/* add_type keeps the kernel's ids: the cut's instead. */
			struct btf_member *m = btf_members(btf__type_by_id(c->to, (__u32)r));
			for (__u16 i = 0; i < btf_vlen(t); i++)
				m[i].type = c->ids[btf_members(t)[i].type];
		}
		break;
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		if ((to = copy_type(c, t->type)) < 0)
			return to;
		if ((r = btf__add_type(c->to, c->from, t)) > 0)
			((struct btf_type *)btf__type_by_id(c->to, (__u32)r))->type = (__u32)to;
		break;
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FWD:
		r = btf__add_type(c->to, c->from, t);
		break;
	default:
		/* Functions, variables, sections, tags: never a member. */
		return -EINVAL;
	}
	if (r > 0)
		c->ids[id] = (__u32)r;
	return r;
}

/* The name libbpf matches a candidate by: a flavour's "___..." cut. */
static size_t essential_len(const char *name)
{
	const char *s = strstr(name, "___");
	return s ? (size_t)(s - name) : strlen(name);
}

static bool named_kind(__u16 k)
{
	return k == BTF_KIND_STRUCT || k == BTF_KIND_UNION || k == BTF_KIND_ENUM || k == BTF_KIND_ENUM64 ||
	       k == BTF_KIND_TYPEDEF;
}

/* Every kernel type that a named type of LOCAL (the capture object's)
 * may be relocated to, cut from VMLINUX into a new BTF. libbpf takes
 * candidates of the same name and kind (an enum and an enum64 alike);
 * the cut holds them all, so that it finds the same ones. */
static struct btf *cut_types(const struct btf *vmlinux, const struct btf *local, struct kernel_btf *kb)
{
	struct hmap wanted = HMAP_INIT;
	struct cut c = { .from = vmlinux };
	__u32 n = btf__type_cnt(vmlinux);
	bool ok = true;

	hmap_init(&wanted);
	for (__u32 id = 1; id < btf__type_cnt(local); id++) {
		const struct btf_type *t = btf__type_by_id(local, id);
		const char *name = btf__name_by_offset(local, t->name_off);
		__u16 k = btf_kind(t);
		if (!named_kind(k) || !name || !name[0])
			continue;
		if (k == BTF_KIND_ENUM64)
			k = BTF_KIND_ENUM;
		void **slot = hmap_put(&wanted, name, essential_len(name), NULL);
		if (!slot) {
			ok = false;
			break;
		}
		*slot = (void *)((uintptr_t)*slot | (uintptr_t)1 << k);
	}
	c.to = ok ? btf__new_empty() : NULL;
	c.ids = calloc(n, sizeof(*c.ids));
	kb->task_struct_id = kb->file_id = 0;
	for (__u32 id = 1; c.to && c.ids && id < n; id++) {
		const struct btf_type *t = btf__type_by_id(vmlinux, id);
		__u16 k = btf_kind(t);
		if (!named_kind(k) || !t->name_off)
			continue;
		const char *name = btf__name_by_offset(vmlinux, t->name_off);
		if (k == BTF_KIND_STRUCT && strcmp(name, "task_struct") == 0 && !kb->task_struct_id)
			kb->task_struct_id = id;
		if (k == BTF_KIND_STRUCT && strcmp(name, "file") == 0 && !kb->file_id)
			kb->file_id = id;
		void **slot = hmap_get(&wanted, name, strlen(name));
		if (!slot || !((uintptr_t)*slot & (uintptr_t)1 << (k == BTF_KIND_ENUM64 ? BTF_KIND_ENUM : k)))
			continue;
		if (copy_type(&c, id) < 0) {
			ok = false;
			break;
		}
	}
	if (ok && c.to && c.ids && kb->task_struct_id && kb->file_id) {
		int e = btf__add_enum(c.to, IDS_ENUM, 4);
		ok = e > 0 && btf__add_enum_value(c.to, "task_struct", kb->task_struct_id) == 0 &&
		     btf__add_enum_value(c.to, "file", kb->file_id) == 0;
	} else {
		ok = false;
	}
	hmap_release(&wanted, NULL);
	free(c.ids);
	if (!ok) {
		btf__free(c.to);
		return NULL;
	}
	return c.to;
}

/* The cache after KEPT (kernel-KERNEL-CAPTURE.btf) was written in DIR:
 * another kernel's cuts are never used again; of this kernel's, the
 * newest KEEP_CUTS stay (builds of rootcause side by side, a package's
 * and a developer's, each have their own). */
#define KEEP_CUTS 4
struct cut_file {
	char name[64];
	time_t mtime;
};

static int newer_first(const void *a, const void *b)
{
	const struct cut_file *x = a, *y = b;
	return (x->mtime < y->mtime) - (x->mtime > y->mtime);
}

static void prune(const char *dir, const char *kept)
{
	struct cut_file found[64] = { { { 0 }, 0 } };
	size_t n = 0;
	DIR *d = opendir(dir);
	struct dirent *de;
	struct stat st;

	if (!d)
		return;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (strncmp(de->d_name, "kernel-", 7) != 0 || len < 11 || strcmp(de->d_name + len - 4, ".btf") != 0 ||
		    strcmp(de->d_name, kept) == 0)
			continue;
		/* "kernel-" and the kernel's 16 digits name the kernel. */
		if (strncmp(de->d_name, kept, 7 + 16) != 0 || len >= sizeof(found[0].name) || n == 64 ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			unlinkat(dirfd(d), de->d_name, 0);
			continue;
		}
		snprintf(found[n].name, sizeof(found[n].name), "%s", de->d_name);
		found[n++].mtime = st.st_mtime;
	}
	qsort(found, n, sizeof(found[0]), newer_first);
	for (size_t i = KEEP_CUTS - 1; i < n; i++)
		unlinkat(dirfd(d), found[i].name, 0);
	closedir(d);
}

/* The cut's raw bytes into the cache at PATH (through a file of our
 * own, renamed over it), else into a memfd for this run. */
static int keep(struct kernel_btf *kb, const char *dir, const char *path, const void *raw, __u32 size)
{
	char tmp[4096];
	int fd = -1;

	if (dir[0] && (mkdir(dir, 0755) == 0 || errno == EEXIST) && own(-1, dir, S_IFDIR) &&
	    snprintf(tmp, sizeof(tmp), "%s/.kernel-%d.tmp", dir, (int)getpid()) < (int)sizeof(tmp) &&
	    (fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644)) >= 0) {
		bool ok = write_all(fd, raw, size);
		ok = close(fd) == 0 && ok;
		fd = -1;
		if (ok && rename(tmp, path) == 0) {
			snprintf(kb->path, sizeof(kb->path), "%s", path);
			kb->cached = true;
			prune(dir, strrchr(path, '/') + 1);
			return 0;
		}
		unlink(tmp);
	}
	fd = memfd_create("rootcause-kernel-btf", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (!write_all(fd, raw, size)) {
		close(fd);
		return -EIO;
	}
	kb->fd = fd;
	snprintf(kb->path, sizeof(kb->path), "/proc/self/fd/%d", fd);
	return 0;
}

int kernel_btf_get(struct kernel_btf *kb, const void *elf, size_t size, const char *dir)
{
	char own_dir[4096], path[4096];
	char *buf;
	size_t len = 0;
	int e;

	memset(kb, 0, sizeof(*kb));
	kb->fd = -1;
	if (!dir) {
		kernel_btf_dir(own_dir, sizeof(own_dir));
		dir = own_dir;
	}
	if ((e = read_all(KERNEL_BTF_PATH, &buf, &len)) != 0)
		return e;
	uint64_t kernel = hash_btf(buf, len), capture = hash_mix64(kernel ^ hash_bytes(elf, size));
	path[0] = '\0';
	if (dir[0] && snprintf(path, sizeof(path), "%s/kernel-%016llx-%016llx.btf", dir, (unsigned long long)kernel,
			       (unsigned long long)capture) >=
			      (int)sizeof(path))
		path[0] = '\0';
	if (path[0] && own(-1, dir, S_IFDIR)) {
		int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		bool mine = fd >= 0 && own(fd, NULL, S_IFREG);
		if (fd >= 0)
			close(fd);
		struct btf *b = mine ? btf__parse(path, NULL) : NULL;
		if (!libbpf_get_error(b) && b && read_ids(b, kb)) {
			btf__free(b);
			free(buf);
			snprintf(kb->path, sizeof(kb->path), "%s", path);
			kb->cached = true;
			return 0;
		}
		if (!libbpf_get_error(b))
			btf__free(b);
	}

	struct btf *vmlinux = btf__new(buf, (__u32)len);
	if (libbpf_get_error(vmlinux)) {
		free(buf);
		return -EINVAL;
	}
	struct bpf_object *obj = bpf_object__open_mem(elf, size, NULL);
	struct btf *cut = NULL;
	if (!libbpf_get_error(obj) && bpf_object__btf(obj))
		cut = cut_types(vmlinux, bpf_object__btf(obj), kb);
	/* Without a cut the load searches the kernel's types itself, and
	 * only the ids are wanted from here. */
	if (!cut) {
		__s32 ts = btf__find_by_name_kind(vmlinux, "task_struct", BTF_KIND_STRUCT);
		__s32 f = btf__find_by_name_kind(vmlinux, "file", BTF_KIND_STRUCT);
		kb->task_struct_id = ts > 0 ? (__u32)ts : 0;
		kb->file_id = f > 0 ? (__u32)f : 0;
	}
	e = kb->task_struct_id && kb->file_id ? 0 : -ENOENT;
	__u32 raw_size = 0;
	const void *raw = cut ? btf__raw_data(cut, &raw_size) : NULL;
	if (!e && raw && keep(kb, path[0] ? dir : "", path, raw, raw_size) != 0)
		kb->path[0] = '\0';
	btf__free(cut);
	if (!libbpf_get_error(obj))
		bpf_object__close(obj);
	btf__free(vmlinux);
	free(buf);
	return e;
}

void kernel_btf_release(struct kernel_btf *kb)
{
	if (kb->fd >= 0)
		close(kb->fd);
	kb->fd = -1;
	kb->path[0] = '\0';
}
