#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Print the kernel version the tests boot: the one Debian's
# linux-image-amd64 meta-package depends on (e.g. 6.1.0-57-amd64).
dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null |
	sed -n 's/^linux-image-\([^ ,]*\).*/\1/p'
