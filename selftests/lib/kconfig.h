/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The running kernel's configuration, as its build left it: Debian's
 * /boot/config-KVER, or, for a kernel the VM boots from its own root
 * (vm/run.sh --root: the debug kernels, 7.3), that root's boot/, found
 * from the gpuprof_modules= the VM's command line carries.
 */
#ifndef GPUPROF_SELFTESTS_KCONFIG_H
#define GPUPROF_SELFTESTS_KCONFIG_H

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

/* The path of the running kernel's config into @path; 0 or -1. */
static inline int kernel_config_path(char *path, size_t size)
{
	char cmdline[4096] = "", *p, *end;
	struct utsname u;
	FILE *f;

	if (uname(&u))
		return -1;
	f = fopen("/proc/cmdline", "r");
	if (f) {
		if (!fgets(cmdline, sizeof(cmdline), f))
			cmdline[0] = '\0';
		fclose(f);
	}
	p = strstr(cmdline, "gpuprof_modules=");
	if (p) {
		p += strlen("gpuprof_modules=");
		end = p + strcspn(p, " \n");
		/* ROOT/lib/modules: ROOT/boot/config-KVER. */
		if (end - p > (int)strlen("/lib/modules") &&
		    !strncmp(end - strlen("/lib/modules"), "/lib/modules",
			     strlen("/lib/modules"))) {
			snprintf(path, size, "%.*s/boot/config-%s",
				 (int)(end - p - strlen("/lib/modules")), p,
				 u.release);
			return 0;
		}
	}
	snprintf(path, size, "/boot/config-%s", u.release);
	return 0;
}

/*
 * CONFIG_@sym of the running kernel: 'y', 'm', 'n' (not set, or not
 * there at all), or 0 when the config cannot be read.
 */
static inline char kernel_config(const char *sym)
{
	char path[PATH_MAX], line[512];
	size_t len = strlen(sym);
	char val = 'n';
	FILE *f;

	if (kernel_config_path(path, sizeof(path)))
		return 0;
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "CONFIG_", 7) || strncmp(line + 7, sym, len) ||
		    line[7 + len] != '=')
			continue;
		val = line[8 + len];
		break;
	}
	fclose(f);
	return val;
}

#endif
