#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# udev_rule_check.sh RULES GROUP_FILE: try gpuprof's udev rule with this
# machine's udev without changing the machine (host/install_test runs it;
# root only).  It runs in a mount namespace of its own in which /dev, /run
# and udev's rules directories are empty tmpfs mounts and GROUP_FILE (the
# machine's groups plus gpuprof) is /etc/group: "udevadm test" acts on the
# device it tests (it sets node permissions, writes its database), so
# everything it touches must be private.
#
# It prints two things for the test to compare:
#   "rules: LINE" for each line of "udevadm test" output that names a
#     rules file, RULES being the only one, installed as
#     /usr/lib/udev/rules.d/70-gpuprof.rules: its reading, and any
#     warning about it;
#   "node: MODE OWNER GROUP" of a /dev/null node made 0200 root:root, after
#     "udevadm test" ran RULES with its match keys rewritten to /dev/null's
#     device (mem/null): the rule's GROUP= and MODE= applied by udev.  The
#     module's own node cannot be made here: that needs the module loaded.
set -eu

if [ "${1:-}" != --in-namespace ]; then
	exec unshare --mount --propagation private "$0" --in-namespace "$@"
fi
rules=$2
groups=$3
installed=/usr/lib/udev/rules.d/70-gpuprof.rules
null=/sys/devices/virtual/mem/null

for dir in /dev /run /etc/udev/rules.d /usr/lib/udev/rules.d \
	   /usr/local/lib/udev/rules.d; do
	[ -d "$dir" ] && mount -t tmpfs gpuprof-test "$dir"
done
mount --bind "$groups" /etc/group

# The rule as installed: read without a warning?
cp "$rules" "$installed"
udevadm test --action=add "$null" 2>&1 | grep 'rules\.d' | sed 's/^/rules: /' || true

# The rule's assignments on a node of a device this machine has.
sed 's|SUBSYSTEM=="gpuprof", KERNEL=="gpuprof/marker"|SUBSYSTEM=="mem", KERNEL=="null"|' \
	"$rules" >"$installed"
if ! grep -q '^SUBSYSTEM=="mem", KERNEL=="null",' "$installed"; then
	echo "udev_rule_check: no SUBSYSTEM==\"gpuprof\", KERNEL==\"gpuprof/marker\" rule in $rules" >&2
	exit 1
fi
mknod -m 0200 /dev/null c 1 3
udevadm test --action=add "$null" >/dev/null 2>&1
echo "node: $(stat -c '%a %U %G' /dev/null)"
