#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The demo inside the test VM: each step is shown as the command a user
# would type, then its output.
ko=$1
PATH=$(cd "$(dirname "$0")/../tools/perf-gpu" && pwd):$PATH

step() {
	printf '\n$ %s\n' "$1"
	eval "$1"
}

step 'uname -r'
step "insmod $ko"
step 'ls -l /dev/gpuprof'
step 'cat /dev/gpuprof/status'
step 'echo interval 50 > /dev/gpuprof/ctl'
step 'cat /dev/gpuprof/status'
step '/bin/echo interval 0 > /dev/gpuprof/ctl    # out of range: refused'
step 'perf gpu list'
step 'rmmod gpuprof'
