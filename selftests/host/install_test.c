// SPDX-License-Identifier: GPL-2.0-only
/*
 * make install and make uninstall, the udev rule and its group, the
 * modprobe.d example and DKMS (Documentation/install.rst), on this
 * machine without changing it: everything goes into temporary
 * directories (DESTDIR; dkms's --sourcetree, --dkmstree, --installtree
 * and signing key), the udev rule is tried in a mount namespace of its
 * own, and the module is never loaded.  The commands install.rst shows
 * are the ones run here, redirected into those directories.  Needs root
 * (udev's namespace, dkms), the test kernels' headers and the tools
 * built (make tools).
 */
#include <ctype.h>
#include <glob.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/harness.h"
#include "../lib/files.h"
#include "../lib/run.h"

/* The commands of Documentation/install.rst, in its order. */
enum {
	DOC_INSTALL, DOC_UNINSTALL, DOC_STAGE, DOC_PERF, DOC_MAN, DOC_CP,
	DOC_DKMS_SOURCE, DOC_DKMS_INSTALL, DOC_DKMS_REMOVE, DOC_DKMS_RM, DOC_N
};

static const char *const doc[DOC_N] = {
	[DOC_INSTALL] = "make install",
	[DOC_UNINSTALL] = "make uninstall",
	[DOC_STAGE] = "make install DESTDIR=/tmp/stage PREFIX=/usr",
	[DOC_PERF] = "perf gpu --version",
	[DOC_MAN] = "man perf-gpu-record",
	[DOC_CP] = "cp /usr/local/share/doc/gpuprof/gpuprof.conf.example /etc/modprobe.d/gpuprof.conf",
	[DOC_DKMS_SOURCE] = "make dkms-source",
	[DOC_DKMS_INSTALL] = "dkms install gpuprof/0.1",
	[DOC_DKMS_REMOVE] = "dkms remove gpuprof/0.1 --all",
	[DOC_DKMS_RM] = "rm -r /usr/src/gpuprof-0.1",
};

#define OUT_SIZE (256 * 1024)

static int unit_shown_in_admin_guide(struct __test_metadata *_metadata,
				     const char *unit);

/* @s with every @from replaced by @to, into @buf. */
static const char *subst(char *buf, size_t size, const char *s,
			 const char *from, const char *to)
{
	size_t len = 0, n = strlen(from);
	const char *hit;

	buf[0] = '\0';
	while ((hit = strstr(s, from))) {
		len += snprintf(buf + len, len < size ? size - len : 0, "%.*s%s",
				(int)(hit - s), s, to);
		s = hit + n;
	}
	snprintf(buf + len, len < size ? size - len : 0, "%s", s);
	return buf;
}

/* The first line of a command's output, without its newline. */
static int first_line(char *buf, size_t size, const char *cmd)
{
	int st = run_cmd(buf, size, "%s", cmd);

	buf[strcspn(buf, "\n")] = '\0';
	return st;
}

/* The compressed-module suffix of kernel @kver's modules_install. */
static const char *module_suffix(const char *kver)
{
	static char config[1 << 20];
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/usr/src/linux-headers-%s/.config", kver);
	if (read_file(path, config, sizeof(config)) < 0 ||
	    !strstr(config, "\nCONFIG_MODULE_COMPRESS_ALL=y"))
		return "";
	if (strstr(config, "\nCONFIG_MODULE_COMPRESS_XZ=y"))
		return ".xz";
	if (strstr(config, "\nCONFIG_MODULE_COMPRESS_GZIP=y"))
		return ".gz";
	if (strstr(config, "\nCONFIG_MODULE_COMPRESS_ZSTD=y"))
		return ".zst";
	return "";
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

FIXTURE(inst) {
	char tmp[64];
	char kver[256];		/* the test kernel, selftests/scripts/kver.sh */
	char cmd[8192];
	char buf[4096];
	char out[OUT_SIZE];
};

FIXTURE_SETUP(inst)
{
	if (geteuid() != 0)
		SKIP(return, "needs root (a mount namespace, dkms)");
	snprintf(self->tmp, sizeof(self->tmp), "/tmp/gpuprof-install-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->tmp));
	snprintf(self->cmd, sizeof(self->cmd), "%s/selftests/scripts/kver.sh", repo_dir());
	ASSERT_EQ(0, first_line(self->kver, sizeof(self->kver), self->cmd));
	ASSERT_NE('\0', self->kver[0]);
}

FIXTURE_TEARDOWN(inst)
{
	char out[256];

	if (self->tmp[0] && strncmp(self->tmp, "/tmp/gpuprof-install-", 21) == 0)
		run_cmd(out, sizeof(out), "rm -rf %s", self->tmp);
}

/* The end of a long output, where make says what failed. */
static const char *tail_of(const char *out)
{
	size_t len = strlen(out);

	return len > 3000 ? out + len - 3000 : out;
}

/* Run "cd REPO && KDIR=<the test kernel's headers> MAKE_CMD". */
static int make_in_repo(FIXTURE_DATA(inst) *self, const char *make_cmd)
{
	return run_cmd(self->out, sizeof(self->out),
		       "cd %s && KDIR=/usr/src/linux-headers-%s %s",
		       repo_dir(), self->kver, make_cmd);
}

/* Every file and symlink below @dir as "MODE PATH" lines, sorted. */
static int list_files(FIXTURE_DATA(inst) *self, const char *dir)
{
	return run_cmd(self->out, sizeof(self->out),
		       "cd %s && find . ! -type d -printf '%%m %%P\\n' | LC_ALL=C sort",
		       dir);
}

/*
 * What "make install DESTDIR=... PREFIX=/usr" must put, as list_files()
 * prints it: the fixed files, and a man page for each
 * Documentation/man/NAME.rst in the section its ":Manual section:" names.
 */
static void expected_files(FIXTURE_DATA(inst) *self, char *buf, size_t size)
{
	char *lines[64], page[PATH_MAX], rst[64 * 1024];
	size_t n = 0, len = 0, i;
	glob_t g;

	lines[n++] = strdup("644 usr/lib/systemd/system/gpuprof-metrics.service");
	lines[n++] = strdup("644 usr/lib/sysusers.d/gpuprof.conf");
	lines[n++] = strdup("644 usr/lib/udev/rules.d/70-gpuprof.rules");
	lines[n++] = strdup("644 usr/share/doc/gpuprof/gpuprof.conf.example");
	lines[n++] = strdup("755 usr/bin/gpuprof-oa");
	lines[n++] = strdup("755 usr/bin/perf-gpu");
	snprintf(page, sizeof(page), "644 lib/modules/%s/extra/gpuprof.ko%s",
		 self->kver, module_suffix(self->kver));
	lines[n++] = strdup(page);
	snprintf(page, sizeof(page), "%s/Documentation/man/*.rst", repo_dir());
	if (glob(page, 0, NULL, &g) == 0) {
		for (i = 0; i < g.gl_pathc && n < 64; i++) {
			const char *name = strrchr(g.gl_pathv[i], '/') + 1;
			const char *sec;
			char s = '1';

			if (read_file(g.gl_pathv[i], rst, sizeof(rst)) >= 0 &&
			    (sec = strstr(rst, "\n:Manual section:"))) {
				sec += strlen("\n:Manual section:");
				while (*sec == ' ')
					sec++;
				if (*sec >= '1' && *sec <= '8')
					s = *sec;
			}
			snprintf(page, sizeof(page), "644 usr/share/man/man%c/%.*s.%c",
				 s, (int)(strlen(name) - 4), name, s);
			lines[n++] = strdup(page);
		}
		globfree(&g);
	}
	qsort(lines, n, sizeof(lines[0]), cmp_str);
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		len += snprintf(buf + len, len < size ? size - len : 0, "%s\n", lines[i]);
		free(lines[i]);
	}
}

TEST(install_rst_shows_the_commands_run_here)
{
	static char text[256 * 1024];
	char path[PATH_MAX], *line, *save;
	int n = 0;

	snprintf(path, sizeof(path), "%s/Documentation/install.rst", repo_dir());
	ASSERT_LT(0, read_file(path, text, sizeof(text)));
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		while (*line == ' ')
			line++;
		if (strncmp(line, "$ ", 2))
			continue;
		ASSERT_GT(DOC_N, n) TH_LOG("a command not run here: %s", line + 2);
		EXPECT_STREQ(doc[n], line + 2);
		n++;
	}
	EXPECT_EQ(DOC_N, n);
}

/* The staged installation of a package build, file by file, and back. */
TEST_F_TIMEOUT(inst, staged_install_puts_exactly_the_listed_files, 600)
{
	static char want[16384];
	char path[PATH_MAX];

	ASSERT_EQ(0, make_in_repo(self, subst(self->buf, sizeof(self->buf),
					      doc[DOC_STAGE], "/tmp/stage",
					      self->tmp))) TH_LOG("%s", tail_of(self->out));
	expected_files(self, want, sizeof(want));
	ASSERT_EQ(0, list_files(self, self->tmp));
	EXPECT_STREQ(want, self->out);

	/* The module is KDIR's kernel's. */
	snprintf(self->cmd, sizeof(self->cmd),
		 "modinfo -F vermagic %s/lib/modules/%s/extra/gpuprof.ko%s",
		 self->tmp, self->kver, module_suffix(self->kver));
	ASSERT_EQ(0, first_line(self->buf, sizeof(self->buf), self->cmd));
	EXPECT_EQ(0, strncmp(self->buf, self->kver, strlen(self->kver)));
	EXPECT_EQ(' ', self->buf[strlen(self->kver)]) TH_LOG("%s", self->buf);

	/* The example names the installed helper; the helper runs. */
	snprintf(path, sizeof(path), "%s/usr/share/doc/gpuprof/gpuprof.conf.example",
		 self->tmp);
	ASSERT_LT(0, read_file(path, self->out, sizeof(self->out)));
	EXPECT_NE(NULL, strstr(self->out, "\noptions gpuprof oa_helper=/usr/bin/gpuprof-oa\n"));
	/*
	 * Its install command gives the helper the render nodes' group, as
	 * getent(1) numbers it here: modprobe runs it with sh -c, played
	 * here with echo for modprobe.
	 */
	EXPECT_EQ(0, run_cmd(self->buf, sizeof(self->buf),
			     "getent group render | cut -d: -f3"));
	self->buf[strcspn(self->buf, "\n")] = '\0';
	ASSERT_NE(0, self->buf[0]) TH_LOG("no render group here");
	EXPECT_EQ(0, run_cmd(self->cmd, sizeof(self->cmd),
			     "sed -n 's|^install gpuprof ||p' %s | sed 's|/sbin/modprobe|echo|' | "
			     "CMDLINE_OPTS=oa_metric_set=ComputeBasic sh", path));
	snprintf(self->out, sizeof(self->out),
		 "--ignore-install gpuprof oa_metric_set=ComputeBasic oa_helper_gid=%s",
		 self->buf);
	self->cmd[strcspn(self->cmd, "\n")] = '\0';
	EXPECT_STREQ(self->out, self->cmd);
	EXPECT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%1$s/usr/bin/gpuprof-oa --sim --duration 0.01 -o %1$s/rec.oa && "
			     "od -A n -t x4 -N 4 %1$s/rec.oa && rm %1$s/rec.oa", self->tmp));
	/* A recording starts with its VERSION record (oa.rst). */
	EXPECT_STREQ(" 00010000\n", self->out);

	/*
	 * The metrics unit runs the installed perf-gpu headless into
	 * node_exporter's textfile directory, and systemd-analyze verify
	 * finds nothing to say of it (it warns and still exits 0 on a bad
	 * value: silence is the test).  Verified with its ExecStart pointed
	 * at the staged program, as the real path is not installed here.
	 */
	snprintf(path, sizeof(path), "%s/usr/lib/systemd/system/gpuprof-metrics.service",
		 self->tmp);
	ASSERT_LT(0, read_file(path, self->buf, sizeof(self->buf)));
	EXPECT_NE(NULL, strstr(self->buf,
			       "\nExecStart=/usr/bin/perf-gpu top --delay 15 --openmetrics /var/lib/prometheus/node-exporter/gpu.prom\n"));
	EXPECT_NE(NULL, strstr(self->buf, "\nReadWritePaths=/var/lib/prometheus/node-exporter\n"));
	EXPECT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "{ sed 's|=/usr/bin/perf-gpu |=%1$s/usr/bin/perf-gpu |' %2$s >%1$s/metrics.service && "
			     "systemd-analyze verify --man=no %1$s/metrics.service; rm %1$s/metrics.service; }",
			     self->tmp, path));
	EXPECT_STREQ("", self->out);
	EXPECT_EQ(0, unit_shown_in_admin_guide(_metadata, self->buf));

	/* Uninstall takes every file, and the directory that is only ours. */
	snprintf(self->cmd, sizeof(self->cmd), "make uninstall DESTDIR=%s PREFIX=/usr",
		 self->tmp);
	ASSERT_EQ(0, make_in_repo(self, self->cmd)) TH_LOG("%s", tail_of(self->out));
	ASSERT_EQ(0, list_files(self, self->tmp));
	EXPECT_STREQ("", self->out);
	snprintf(path, sizeof(path), "%s/usr/share/doc/gpuprof", self->tmp);
	EXPECT_NE(0, access(path, F_OK));
}

/*
 * Every line of the installed unit @unit from "[Unit]" on, as the admin
 * guide's "Fleets" shows it (indented four spaces in a literal block):
 * 0, or the number of lines the guide lacks.
 */
static int unit_shown_in_admin_guide(struct __test_metadata *_metadata,
				     const char *unit)
{
	static char guide[1 << 17];
	char want[512];
	const char *p = strstr(unit, "[Unit]"), *nl;
	int missing = 0;

	snprintf(want, sizeof(want), "%s/Documentation/admin-guide.rst", repo_dir());
	if (read_file(want, guide, sizeof(guide)) <= 0 || !p)
		return -1;
	for (; *p; p = nl + 1) {
		nl = strchrnul(p, '\n');
		if (nl > p) {
			snprintf(want, sizeof(want), "\n    %.*s\n", (int)(nl - p), p);
			if (!strstr(guide, want)) {
				TH_LOG("admin-guide.rst lacks the unit's line %.*s",
				       (int)(nl - p), p);
				missing++;
			}
		}
		if (!*nl)
			break;
	}
	return missing;
}

/*
 * The administrator's session of install.rst with the default PREFIX:
 * install, perf gpu and man from there, the modprobe.d example put to
 * use, uninstall.
 */
TEST_F_TIMEOUT(inst, default_prefix_session, 600)
{
	char dest[256];

	snprintf(dest, sizeof(dest), " DESTDIR=%s", self->tmp);
	snprintf(self->cmd, sizeof(self->cmd), "%s%s", doc[DOC_INSTALL], dest);
	ASSERT_EQ(0, make_in_repo(self, self->cmd)) TH_LOG("%s", tail_of(self->out));

	/* Stock perf finds perf-gpu on $PATH, and only there. */
	EXPECT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "env -u PERF_EXEC_PATH PATH=%s/usr/local/bin:/usr/bin:/bin %s",
			     self->tmp, doc[DOC_PERF]));
	EXPECT_STREQ("perf gpu version 0.1\n", self->out);
	EXPECT_EQ(1, run_cmd(self->out, sizeof(self->out),
			     "env -u PERF_EXEC_PATH PATH=/usr/bin:/bin %s", doc[DOC_PERF]))
		TH_LOG("a perf-gpu outside DESTDIR answered: %s", self->out);

	/* man renders the installed page. */
	EXPECT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "MANPATH=%s/usr/local/share/man MANWIDTH=80 LC_ALL=C %s",
			     self->tmp, doc[DOC_MAN]));
	EXPECT_EQ(0, strncmp(self->out, "PERF-GPU-RECORD(1)", 18)) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "\nNAME\n       perf-gpu-record - "))
		TH_LOG("%s", self->out);

	/* The example, copied, is an option modprobe reads. */
	snprintf(self->buf, sizeof(self->buf), " %s/", self->tmp);
	subst(self->cmd, sizeof(self->cmd), doc[DOC_CP], " /", self->buf);
	EXPECT_EQ(0, run_cmd(self->out, sizeof(self->out), "mkdir -p %s/etc/modprobe.d && %s",
			     self->tmp, self->cmd)) TH_LOG("%s", self->out);
	EXPECT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "modprobe -C %s/etc/modprobe.d -c | grep '^options gpuprof'",
			     self->tmp));
	EXPECT_STREQ("options gpuprof oa_helper=/usr/local/bin/gpuprof-oa\n", self->out);

	/* Uninstall leaves only the administrator's copy. */
	snprintf(self->cmd, sizeof(self->cmd), "%s%s", doc[DOC_UNINSTALL], dest);
	ASSERT_EQ(0, make_in_repo(self, self->cmd)) TH_LOG("%s", tail_of(self->out));
	ASSERT_EQ(0, list_files(self, self->tmp));
	EXPECT_STREQ("644 etc/modprobe.d/gpuprof.conf\n", self->out);
}

/*
 * The group, made by systemd-sysusers from the installed sysusers.d file
 * in a root holding a copy of this machine's users and groups (so its GID
 * is one free here); then the installed udev rule with those groups as
 * /etc/group (udev_rule_check.sh).
 */
TEST_F_TIMEOUT(inst, udev_rule_and_group, 600)
{
	char gid[32];
	int n;

	snprintf(self->cmd, sizeof(self->cmd), "make install DESTDIR=%s PREFIX=/usr",
		 self->tmp);
	ASSERT_EQ(0, make_in_repo(self, self->cmd)) TH_LOG("%s", tail_of(self->out));

	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "mkdir -p %1$s/root/etc && cp /etc/passwd %1$s/root/etc/ && "
			     "grep -v '^gpuprof:' /etc/group >%1$s/root/etc/group && "
			     "systemd-sysusers --root=%1$s/root %1$s/usr/lib/sysusers.d/gpuprof.conf",
			     self->tmp)) TH_LOG("%s", self->out);
	/* One line more: "gpuprof:x:GID:", a system group's GID, unused here. */
	ASSERT_EQ(1, run_cmd(self->out, sizeof(self->out),
			     "diff /etc/group %s/root/etc/group", self->tmp));
	ASSERT_EQ(1, sscanf(self->out, "%*[0-9]a%*[0-9]\n> gpuprof:x:%31[0-9]:\n%n",
			    gid, &n)) TH_LOG("%s", self->out);
	EXPECT_EQ(strlen(self->out), (size_t)n) TH_LOG("%s", self->out);
	EXPECT_GT(1000, atoi(gid));
	EXPECT_NE(0, run_cmd(self->out, sizeof(self->out),
			     "cut -d: -f3 /etc/group | grep -qx %s", gid));

	/*
	 * The check mounts over /dev, /run and the rules directories in a
	 * mount namespace of its own, made private first: a chroot, whose
	 * root is no mount point, cannot do that (and must not mount
	 * shared).
	 */
	if (run_cmd(self->buf, sizeof(self->buf), "mountpoint -q /"))
		SKIP(return, "/ is not a mount point (a chroot?): no private mount namespace for udevadm");
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
			     "%1$s/selftests/host/udev_rule_check.sh "
			     "%2$s/usr/lib/udev/rules.d/70-gpuprof.rules %2$s/root/etc/group",
			     repo_dir(), self->tmp)) TH_LOG("%s", self->out);
	EXPECT_STREQ("rules: Reading rules file: /usr/lib/udev/rules.d/70-gpuprof.rules\n"
		     "node: 220 root gpuprof\n", self->out);
}

/*
 * DKMS as install.rst shows it, into trees of the test's own, for each
 * test kernel whose headers this machine has: dkms build, then dkms
 * install, each checked by the module's vermagic; dkms remove --all
 * leaves nothing.  7.3's headers are only in the Debian 13 build root
 * (they need gcc-14, which Debian 12 lacks): no DKMS run for it here.
 */
TEST_F_TIMEOUT(inst, dkms_builds_and_installs_for_each_kernel, 600)
{
	char dkms[1024], kvers[1024], *k, *save;
	int kernels = 0;

	snprintf(self->cmd, sizeof(self->cmd), "%s DESTDIR=%s", doc[DOC_DKMS_SOURCE],
		 self->tmp);
	ASSERT_EQ(0, make_in_repo(self, self->cmd)) TH_LOG("%s", tail_of(self->out));
	snprintf(self->buf, sizeof(self->buf), "%s/usr/src/gpuprof-0.1/dkms.conf", self->tmp);
	ASSERT_LT(0, read_file(self->buf, self->out, sizeof(self->out)));
	EXPECT_NE(NULL, strstr(self->out, "\nPACKAGE_VERSION=\"0.1\"\n"));

	/* dkms with its trees and signing key in the test's directory. */
	snprintf(dkms, sizeof(dkms),
		 "mok_signing_key=%1$s/mok.key mok_certificate=%1$s/mok.pub "
		 "dkms --sourcetree %1$s/usr/src --dkmstree %1$s/var/lib/dkms "
		 "--installtree %1$s/lib/modules",
		 self->tmp);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "mkdir -p %s/var/lib/dkms",
			     self->tmp));

	snprintf(self->cmd, sizeof(self->cmd), "%s/selftests/scripts/kvers.sh", repo_dir());
	ASSERT_EQ(0, run_cmd(kvers, sizeof(kvers), "%s", self->cmd));
	for (k = strtok_r(kvers, "\n", &save); k; k = strtok_r(NULL, "\n", &save)) {
		snprintf(self->buf, sizeof(self->buf), "/usr/src/linux-headers-%s", k);
		if (access(self->buf, F_OK)) {
			TH_LOG("%s: headers in the build root only, no DKMS build here", k);
			continue;
		}
		kernels++;
		ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
				     "%s build gpuprof/0.1 -k %s", dkms, k))
			TH_LOG("%s", tail_of(self->out));
		snprintf(self->cmd, sizeof(self->cmd),
			 "modinfo -F vermagic %s/var/lib/dkms/gpuprof/0.1/%s/x86_64/module/gpuprof.ko*",
			 self->tmp, k);
		ASSERT_EQ(0, first_line(self->buf, sizeof(self->buf), self->cmd));
		EXPECT_EQ(0, strncmp(self->buf, k, strlen(k))) TH_LOG("%s: %s", k, self->buf);

		subst(self->cmd, sizeof(self->cmd), doc[DOC_DKMS_INSTALL], "dkms", dkms);
		ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out),
				     "mkdir -p %s/lib/modules/%s && %s -k %s --no-depmod",
				     self->tmp, k, self->cmd, k)) TH_LOG("%s", tail_of(self->out));
		snprintf(self->cmd, sizeof(self->cmd),
			 "modinfo -F vermagic %s/lib/modules/%s/updates/dkms/gpuprof.ko*",
			 self->tmp, k);
		ASSERT_EQ(0, first_line(self->buf, sizeof(self->buf), self->cmd));
		EXPECT_EQ(0, strncmp(self->buf, k, strlen(k))) TH_LOG("%s: %s", k, self->buf);
	}
	EXPECT_LE(2, kernels);

	subst(self->cmd, sizeof(self->cmd), doc[DOC_DKMS_REMOVE], "dkms", dkms);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s --no-depmod", self->cmd))
		TH_LOG("%s", tail_of(self->out));
	snprintf(self->buf, sizeof(self->buf), " %s/", self->tmp);
	subst(self->cmd, sizeof(self->cmd), doc[DOC_DKMS_RM], " /", self->buf);
	ASSERT_EQ(0, run_cmd(self->out, sizeof(self->out), "%s", self->cmd));
	/*
	 * The signing key dkms made (only where openssl is installed: a
	 * minimal Debian has none), and nothing else.
	 */
	ASSERT_EQ(0, list_files(self, self->tmp));
	if (access("/usr/bin/openssl", X_OK)) {
		EXPECT_STREQ("", self->out);
	} else {
		EXPECT_STREQ("600 mok.key\n644 mok.pub\n", self->out);
	}
}

TEST_HARNESS_MAIN
