/* The probing-noise classifier. Every pattern here was seen failing in
 * real traces of healthy programs (Debian's python3 with torch, pyenv's
 * shims, bash, coreutils): the dynamic loader walking its hwcaps
 * subdirectories, Python's path configuration and import system, glibc's
 * locale and NSS machinery, and libraries reading optional config files.
 * A path on this list can still matter when something else says so (a
 * permission error, the program's own message); it is just never an error
 * on its own.
 *
 * Deliberately absent: /dev/nvidia*, libcuda*, libnvidia-* (the evidence
 * of gpu-unavailable) and plain shared objects in a search directory
 * (missing-library aggregates those over every directory tried).
 */
#include "rules/noise.h"

#include <stddef.h>
#include <string.h>

#include "rules/paths.h"
#include "util/util.h"

static bool ends(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);
	return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

/* Whole trees nobody's failure lives in: kernel interfaces, locale and
 * charset data, the name-service caches, optional library configuration. */
static const char *const noise_prefixes[] = {
	"/proc/",
	"/sys/",
	"/selinux",
	"/etc/ld.so.",			/* preload, cache, nohwcap */
	"/etc/suid-debug",
	"/usr/lib/locale/",
	"/usr/share/locale/",
	"/usr/share/locale-langpack/",
	"/usr/share/i18n/",
	"/usr/share/X11/locale/",
	"/var/run/nscd/",
	"/run/nscd/",
	"/var/lib/sss/",
	"/etc/nsswitch.conf",
	"/etc/default/nss",
	"/etc/gai.conf",
	"/etc/host.conf",
	"/etc/localtime",
	"/etc/timezone",
	"/usr/share/zoneinfo/",
	"/etc/selinux/",
	"/etc/gcrypt/",
	"/etc/gnutls/",
	"/etc/libnl/",
	"/etc/crypto-policies/",
	"/etc/pki/",
	"/etc/pkcs11/",
	"/etc/ssl/openssl.cnf",
	"/usr/lib/ssl/openssl.cnf",
	"/usr/local/ssl/",
	"/etc/malloc.conf",
	"/usr/share/p11-kit/",
	"/etc/OpenCL/",
	"/etc/fonts/",
	"/usr/share/fonts/",
	"/var/cache/fontconfig/",
	"/usr/share/terminfo/",
	"/usr/lib/terminfo/",
	"/lib/terminfo/",
	"/etc/terminfo/",
	"/etc/inputrc",
	"/etc/magic",
	"/etc/gitconfig",
	"/etc/ldap/",
	"/etc/openldap/",
	/* Shell start-up files, all optional. */
	"/etc/profile",
	"/etc/bash.bashrc",
	"/etc/bash_completion",
	"/etc/debian_chroot",
	"/usr/lib/command-not-found",
	"/usr/share/command-not-found/",
	/* Compilers and interpreters searching their own trees. */
	"/usr/lib/gcc/",
	"/usr/libexec/gcc/",
	"/etc/perl/",
	"/usr/share/perl/",
	"/usr/local/share/perl/",
	"/usr/local/lib/site_perl",
	"/usr/local/lib/x86_64-linux-gnu/perl",
	"/usr/lib/x86_64-linux-gnu/perl",
	/* The system Python is the distribution's: a probe inside it is the
	 * import system or site.py looking around, not the program's file. */
	"/usr/lib/python2",
	"/usr/lib/python3",
	"/usr/local/lib/python3",
	"/usr/lib/pypy",
	/* pyenv's hook directories, globbed on every shim call. */
	"/etc/pyenv.d/",
	"/usr/etc/pyenv.d/",
	"/usr/local/etc/pyenv.d/",
	"/usr/lib/pyenv/",
};

/* Path fragments that mark probing wherever they occur. */
static const char *const noise_infixes[] = {
	"/glibc-hwcaps/",
	"/__pycache__/",
	"/gconv/",
	"/.config/",
	"/.local/lib/python",		/* the user site directory */
	"/pyenv.d/",
	"/.git/",			/* git's own repository probing */
	"/LC_MESSAGES/",
	"/Modules/Setup",		/* Python's getpath looking for a build tree */
	"/perl5/",
	"/site_perl/",
};

/* Basenames that are optional by nature. */
static const char *const noise_names[] = {
	"locale-archive",
	"locale.alias",
	"gconv-modules",
	"gconv-modules.cache",
	"ld.so.cache",
	"ld.so.preload",
	"nsswitch.conf",
	"gai.conf",
	"pyvenv.cfg",
	"pybuilddir.txt",
	"Setup.local",
	"sitecustomize.py",
	"usercustomize.py",
	"lib-dynload",
	"__pycache__",
	/* GNU make's built-in rules check out sources from RCS and SCCS
	 * directories, so make stats both in every directory it builds. */
	"RCS",
	"SCCS",
	"glibc-hwcaps",
	".python-version",
	".python_history",
	".pydistutils.cfg",
	".netrc",
	"_netrc",
	".inputrc",
	".terminfo",
	".Xauthority",
	".Xdefaults",
	".gitconfig",
	".curlrc",
	".wgetrc",
	".ldaprc",
	"ldaprc",
	".bash_profile",
	".bash_login",
	".bash_logout",
	".bashrc",
	".profile",
	".zshrc",
	".zshenv",
	".zprofile",
	".zlogin",
	".kshrc",
	".mkshrc",
	".hushlogin",
	"pyenv-realpath.dylib",
	/* Optional start-up files of other tools: sqlite3's shell, the JVM,
	 * OpenSSL's Certificate Transparency list. */
	".sqliterc",
	".hotspotrc",
	".hotspot_compiler",
	"ct_log_list.cnf",
	/* node's global folders, searched after every node_modules above the
	 * script and documented as legacy: nobody is expected to have them. */
	".node_modules",
	".node_libraries",
};

/* Suffixes of probed names: Python extension-module and path files, the
 * dynamic loader's macOS and hwcaps spellings, gettext catalogues. */
static const char *const noise_suffixes[] = {
	".abi3.so",
	"._pth",
	".dist-info",
	".egg-info",
	".egg-link",
	".dylib",
};

/* Subdirectories ld.so tries under every search directory (legacy hwcaps,
 * "tls", the platform names) besides glibc-hwcaps/. */
static const char *const hwcap_dirs[] = {
	"tls", "x86_64", "haswell", "xeon_phi", "avx512_1", "i386", "i486", "i586", "i686",
	"sse2", "nosegneg", "x86-64-v2", "x86-64-v3", "x86-64-v4", "aarch64", "asimd",
	"atomics", "power9", "power10", "z13", "z14", "z15",
};

static bool is_hwcap_dir(const char *s, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(hwcap_dirs); i++)
		if (strlen(hwcap_dirs[i]) == n && memcmp(s, hwcap_dirs[i], n) == 0)
			return true;
	return false;
}

/* The loader's search: DIR/<hwcap>.../NAME.so, or the stat of such a
 * subdirectory itself. A plain DIR/NAME.so is not probing by itself. */
static bool loader_subdir_probe(const char *path, size_t n, const char *base)
{
	size_t dirlen = (size_t)(base - path);
	bool so = fp_is_shared_object(base);
	bool stripped = false;

	if (!so) {
		/* The path names a directory: count the basename as a component. */
		dirlen = n + 1;
	}
	while (dirlen > 1) {
		size_t end = dirlen - 1;	/* index of the '/' after the component */
		size_t start = end;
		while (start > 0 && path[start - 1] != '/')
			start--;
		if (!is_hwcap_dir(path + start, end - start))
			break;
		stripped = true;
		dirlen = start;
	}
	if (!stripped || dirlen <= 1)
		return false;
	/* Only under a library directory: ".../lib", ".../lib64",
	 * ".../lib/x86_64-linux-gnu", an RPATH ".../torch/lib". */
	return so || memmem(path, dirlen - 1, "/lib", 4) != NULL;
}

/* Python's import system and site.py, wherever the interpreter lives. */
static bool python_probe(const char *path, const char *base)
{
	if (fp_has_prefix(base, "__init__."))
		return true;
	if (strstr(base, ".cpython-") && fp_is_shared_object(base))
		return true;
	/* python311.zip, python3.11.zip */
	if (fp_has_prefix(base, "python") && ends(base, strlen(base), ".zip"))
		return true;
	/* The stdlib landmark and friends, under any prefix Python tries
	 * (/usr/bin/lib/python3.11/os.py while it looks for its home). */
	/* Python 2's site.py looks for PREFIX/lib/site-python. */
	if (strcmp(base, "site-python") == 0 && ends(path, (size_t)(base - path), "/lib/"))
		return true;
	const char *lib = strstr(path, "/lib/python");
	if (lib) {
		size_t bn = strlen(base);
		/* lib-old: Python 2's default sys.path names it, nobody has it. */
		if (ends(base, bn, ".py") || ends(base, bn, ".pyc") || ends(base, bn, ".so") ||
		    strcmp(base, "site-packages") == 0 || strcmp(base, "dist-packages") == 0 ||
		    strcmp(base, "lib-old") == 0)
			return true;
		/* .pth files directly in a site directory are path configuration;
		 * deeper ones are someone's model weights. */
		if (ends(base, bn, ".pth")) {
			const char *dir_end = base - 1;
			if ((dir_end - path >= 14 && memcmp(dir_end - 14, "/site-packages", 14) == 0) ||
			    (dir_end - path >= 14 && memcmp(dir_end - 14, "/dist-packages", 14) == 0))
				return true;
		}
	}
	return false;
}

bool noise_path(const char *path)
{
	if (!path || !path[0])
		return false;
	size_t n = strlen(path);
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;

	for (size_t i = 0; i < ARRAY_SIZE(noise_prefixes); i++)
		if (fp_has_prefix(path, noise_prefixes[i]))
			return true;
	/* The cgroup file system's failures are cgroup-refused's, wherever
	 * it is mounted. */
	if (fp_cgroup(path))
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(noise_infixes); i++)
		if (strstr(path, noise_infixes[i]))
			return true;
	for (size_t i = 0; i < ARRAY_SIZE(noise_names); i++)
		if (strcmp(base, noise_names[i]) == 0)
			return true;
	for (size_t i = 0; i < ARRAY_SIZE(noise_suffixes); i++)
		if (ends(base, strlen(base), noise_suffixes[i]))
			return true;
	/* LC_CTYPE, LC_MESSAGES...: glibc's per-category locale files. */
	if (fp_has_prefix(base, "LC_") && base[3] >= 'A' && base[3] <= 'Z')
		return true;
	if (ends(path, n, "/glibc-hwcaps") || ends(path, n, "/__pycache__"))
		return true;
	/* node's last global folder, PREFIX/lib/node. */
	if (ends(path, n, "/lib/node"))
		return true;
	if (python_probe(path, base))
		return true;
	/* "<unknown>", "<string>", "<frozen importlib._bootstrap>": the names
	 * Python gives code that has no file. Its traceback printer (3.13's)
	 * tries to open them for source lines; they never exist. */
	if (path[0] == '<' && path[n - 1] == '>' && !slash)
		return true;
	return loader_subdir_probe(path, n, base);
}
