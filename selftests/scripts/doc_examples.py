#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Find the examples in Documentation/ and run them.

The convention (Documentation/admin-guide.rst says it for readers too):

An *example* is a literal block (a paragraph ending in "::", or a
".. code-block::" / ".. code::" directive) with at least one line that
starts with "$ ": each such line is a command, and the lines after it, up
to the next "$ " line, are its output (stdout and stderr together, as a
terminal shows them).  A command line ending in a backslash continues on
the next line.  In the output, a line "..." stands for any number of
lines (none included), and "..." inside a line for any text.  Trailing
blanks and trailing empty lines do not count, nor do the lines perf gpu
prints for a kernel without a perf feature ("warning: this kernel
refuses ...", "# lacks: ..."), unless the example shows one.  Every command must exit
with status 0; an example that shows a failure says "|| echo ..." itself.

Every example is preceded, between the previous literal block and its
own "::", by one comment that says where it runs (comments are invisible
in the HTML and man output):

    .. test: host           run here, by selftests/host/doc_examples_test
    .. test: device         run in the test VM with gpuprof.ko freshly
                            loaded, by selftests/device/doc_examples_test
                            ("run device" loads $GPUPROF_KO before each
                            example and unloads it after, when set)
    .. test: none: REASON   not run, for REASON (a real i915, an install
                            as root on the machine itself, ...)

A literal block without "$ " lines (a synopsis, a file's content) is no
example and is not run.  An example without a marker, a marker without a
block, a "host" or "device" block without a command, or an unknown marker
is an error of "check".  The plain text files of Documentation/ABI must
hold no "$ " lines at all.

Each example runs in a directory of its own, each command in a new
"bash -c" there (so state passes between commands through files and the
device, not through shell variables or cd), with stdin from /dev/null, a
timeout of 120 s (times $GPUPROF_TIMEOUT_SCALE, as the device tests'
timeouts: selftests/lib/harness.h), LC_ALL=C, and PATH starting with the directory of
$GPUPROF_PERF_GPU (perf-gpu and gpuprof-oa; PERF_EXEC_PATH points there
too, so stock "perf gpu" runs them) and selftests/out/device (gpuwork,
the tests' vgem workload, which the device examples use as "a program
that uses the GPU").  A host example's directory holds:

    perf.data   the recording of selftests/host/doc_recording.c
    proc/       a proc tree with two i915 DRM clients (perf gpu top, list)
    sys/        a sysfs tree with one OA metric set (perf gpu list)
    saved/      a copy of /dev/gpuprof's readable files after coverage
                profiling of two targets (perf gpu report --device=saved)

Three more checks of the documentation live here:

    options   each man page (Documentation/man/*.rst) has a
              ":Manual section:" and the sections SYNOPSIS, DESCRIPTION,
              OPTIONS, EXAMPLES, EXIT STATUS and SEE ALSO; its OPTIONS
              are the options its binary's -h lists, with the same short
              and long names and the same kind of argument (none,
              required or optional); perf-gpu.rst's COMMANDS are
              perf-gpu -h's
    abi PL    Documentation/ABI passes the kernel's get_abi.pl (PL)
              "validate" without a message, and has an entry for every
              file the module makes (module/*.c: .name and .mode) with
              that mode
    kerneldoc every "DOC:" section of the kernel-doc comments of module/,
              uapi/ and any other file a ".. kernel-doc::" directive
              names is included in some page: by a directive on its file
              with ":doc: TITLE", or with no option (the whole file);
              and every ":doc:" names a section that exists

Usage:
    doc_examples.py check
    doc_examples.py list host|device
    doc_examples.py run host|device [ID...]
    doc_examples.py options
    doc_examples.py abi GET_ABI_PL
    doc_examples.py kerneldoc

IDs are FILE:LINE as "list" prints them (FILE relative to the repository).
"run" exits 0 only if every example it ran passed and it ran at least one;
its last line is "N examples passed, N failed".
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCS = os.path.join(REPO, "Documentation")
KINDS = ("host", "device", "none")
MARKER = re.compile(r"^\.\. test:\s*(.*?)\s*$")
DIRECTIVE = re.compile(r"^(\s*)\.\. ([\w-]+)::")


class Example:
    def __init__(self, path, line, kind, reason, lines):
        self.path = path            # relative to REPO
        self.line = line            # 1-based line of the block's first line
        self.kind = kind
        self.reason = reason
        self.lines = lines          # dedented block lines

    @property
    def id(self):
        return "%s:%d" % (self.path, self.line)

    def commands(self):
        """[(command, [expected output lines])]."""
        out, i, lines = [], 0, self.lines
        while i < len(lines):
            if not lines[i].startswith("$ "):
                i += 1
                continue
            cmd = lines[i][2:]
            while cmd.endswith("\\") and i + 1 < len(lines):
                i += 1
                cmd = cmd[:-1] + "\n" + lines[i]
            i += 1
            expect = []
            while i < len(lines) and not lines[i].startswith("$ "):
                expect.append(lines[i])
                i += 1
            out.append((cmd, expect))
        return out


def indent_of(s):
    return len(s) - len(s.lstrip(" "))


def literal_blocks(text):
    """Yield (marker line, marker text or None, first line, lines)."""
    lines = text.split("\n")
    marker = None
    i = 0
    while i < len(lines):
        line = lines[i]
        m = MARKER.match(line)
        if m:
            if marker:
                yield ("error", marker[0], "a second marker before a literal block")
            marker = (i + 1, m.group(1))
            i += 1
            continue
        d = DIRECTIVE.match(line)
        starts = False
        if d:
            starts = d.group(2) in ("code-block", "code", "sourcecode")
        elif line.rstrip().endswith("::") and not line.lstrip().startswith(".."):
            starts = True
        if not starts:
            i += 1
            continue
        base = indent_of(line)
        j = i + 1
        # Directive options (":linenos:") and blank lines before the body.
        while j < len(lines) and (not lines[j].strip() or
                                  (d and lines[j].strip().startswith(":"))):
            j += 1
        first = j
        body = []
        while j < len(lines) and (not lines[j].strip() or
                                  indent_of(lines[j]) > base):
            body.append(lines[j])
            j += 1
        while body and not body[-1].strip():
            body.pop()
        if body:
            cut = min(indent_of(b) for b in body if b.strip())
            body = [b[cut:].rstrip() for b in body]
            yield ("block", marker, first + 1, body)
            marker = None
        i = j
    if marker:
        yield ("error", marker[0], "a marker without a literal block after it")


def doc_files():
    """The rst sources, and the plain text of Documentation/ABI."""
    for top, dirs, files in os.walk(DOCS):
        dirs[:] = sorted(dirs)
        abi = os.path.relpath(top, DOCS).split(os.sep)[0] == "ABI"
        for f in sorted(files):
            if f.endswith(".rst") or abi:
                yield os.path.join(top, f)


def scan():
    """(examples, errors)."""
    examples, errors = [], []
    for path in doc_files():
        rel = os.path.relpath(path, REPO)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if not path.endswith(".rst"):
            for n, line in enumerate(text.split("\n"), 1):
                if line.lstrip().startswith("$ "):
                    errors.append("%s:%d: a command example outside rst" % (rel, n))
            continue
        for item in literal_blocks(text):
            if item[0] == "error":
                errors.append("%s:%d: %s" % (rel, item[1], item[2]))
                continue
            _, marker, first, body = item
            has_cmd = any(b.startswith("$ ") for b in body)
            if not marker:
                if has_cmd:
                    errors.append("%s:%d: an example without a '.. test:' marker"
                                  % (rel, first))
                continue
            kind, _, reason = marker[1].partition(":")
            kind, reason = kind.strip(), reason.strip()
            if kind not in KINDS or (kind == "none") != bool(reason):
                errors.append("%s:%d: bad marker '.. test: %s' (host, device "
                              "or none: REASON)" % (rel, marker[0], marker[1]))
                continue
            if kind != "none" and not has_cmd:
                errors.append("%s:%d: a '%s' block without a '$ ' command"
                              % (rel, first, kind))
                continue
            examples.append(Example(rel, first, kind, reason, body))
    return examples, errors


# ---- Matching output against what an example shows. ----

def line_matches(want, got):
    if "..." not in want:
        return want == got
    parts = [re.escape(p) for p in want.split("...")]
    return re.fullmatch(".*".join(parts), got, re.S) is not None


# What perf gpu says on a kernel without a perf feature it asks for
# (perf-gpu.rst, "A kernel that lacks a perf feature"): the examples show
# a kernel with every one, as Debian's are, so these lines are not theirs
# unless an example shows them.  That they appear exactly where a kernel
# lacks the feature is perf_gpu_record_test's to check.
FALLBACK = re.compile(r"^(perf gpu \w+: warning: this kernel refuses |# lacks: )")


def output_matches(want, got):
    want = [w.rstrip() for w in want]
    got = [g.rstrip() for g in got]
    if not any(FALLBACK.match(w) for w in want):
        got = [g for g in got if not FALLBACK.match(g)]
    while want and not want[-1]:
        want.pop()
    while got and not got[-1]:
        got.pop()
    memo = {}

    def m(i, j):
        key = (i, j)
        if key in memo:
            return memo[key]
        if i == len(want):
            r = j == len(got)
        elif want[i] == "...":
            r = any(m(i + 1, k) for k in range(j, len(got) + 1))
        else:
            r = j < len(got) and line_matches(want[i], got[j]) and m(i + 1, j + 1)
        memo[key] = r
        return r

    return m(0, 0)


# ---- Where examples run. ----

def tool_env():
    env = dict(os.environ)
    pg = os.environ.get("GPUPROF_PERF_GPU",
                        os.path.join(REPO, "tools/perf-gpu/out/perf-gpu"))
    pgdir = os.path.dirname(os.path.abspath(pg))
    gpuwork = os.path.join(REPO, "selftests/out/device")
    env["PATH"] = "%s:%s:%s" % (pgdir, gpuwork, env.get("PATH", "/usr/bin:/bin"))
    env["PERF_EXEC_PATH"] = pgdir
    env["LC_ALL"] = "C"
    env["TERM"] = "dumb"
    env.pop("PERF_PAGER", None)
    env["PAGER"] = "cat"
    return env


def put(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


I915_FDINFO = ("pos:\t0\nflags:\t02100002\nmnt_id:\t26\nino:\t1061\n"
               "drm-driver:\ti915\ndrm-pdev:\t0000:00:02.0\n"
               "drm-client-id:\t%d\n"
               "drm-engine-render:\t%d ns\ndrm-engine-copy:\t0 ns\n"
               "drm-engine-video:\t0 ns\ndrm-engine-video-enhance:\t0 ns\n"
               "drm-total-system0:\t%d KiB\ndrm-resident-system0:\t%d KiB\n")

STATUS_KEYS = ("mode: idle\nhistograms: coverage\ninterval_ms: 100\n"
               "oa_helper: none\ntargets: 2\ntimelines: 2\njobs_in_flight: 0\n"
               "buffers_live: 0\n" +
               "".join("%s: 0\n" % k for k in (
                   "dropped_targets", "dropped_jobs", "dropped_clients",
                   "dropped_buffers", "dropped_timelines",
                   "dropped_histogram_keys", "unattributed_jobs",
                   "unattributed_buffers", "timeline_names_cut",
                   "unreadable_paths")) +
               "oa_stream: none\n" +
               "".join("%s: 0\n" % k for k in (
                   "oa_streams", "oa_bytes", "oa_reports", "oa_report_lost",
                   "oa_buffer_lost", "oa_rejected_streams",
                   "oa_unattributed_reports", "oa_unplaced_reports",
                   "oa_context_switch_deltas", "oa_other_reasons",
                   "oa_unknown_records", "oa_learned_contexts")))

COUNTERS_ZERO = ("gpu_time_ns 0\ngpu_clock_ticks 0\navg_gpu_freq_mhz 0\n"
                 "reports 0\n" +
                 "".join("a%d 0\n" % i for i in range(36)) +
                 "".join("b%d 0\n" % i for i in range(8)) +
                 "".join("c%d 0\n" % i for i in range(8)))


def host_fixture(dst):
    """The files a host example's directory starts with."""
    rec = os.path.join(REPO, "selftests/out/host/doc_recording")
    r = subprocess.run([rec, os.path.join(dst, "perf.data")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if r.returncode:
        raise RuntimeError("%s: %s" % (rec, r.stdout.strip()))
    put(os.path.join(dst, "proc/2001/comm"), "glmark2\n")
    put(os.path.join(dst, "proc/2001/cgroup"), "0::/user.slice/bench.scope\n")
    put(os.path.join(dst, "proc/2001/fdinfo/5"),
        I915_FDINFO % (7, 36000000, 65536, 49152))
    put(os.path.join(dst, "proc/1500/comm"), "kwin_wayland\n")
    put(os.path.join(dst, "proc/1500/cgroup"), "0::/user.slice/session-2.scope\n")
    put(os.path.join(dst, "proc/1500/fdinfo/9"),
        I915_FDINFO % (3, 12000000, 16384, 16384))
    put(os.path.join(dst, "sys/class/drm/card0/metrics/"
                     "0fc397c0-4833-492c-9ccd-4929d574d5b8/id"), "1\n")
    # A Tiger Lake GT2, whose set of that uuid IGT names RenderBasic.
    put(os.path.join(dst, "sys/class/drm/card0/device/device"), "0x9a49\n")
    saved = os.path.join(dst, "saved")
    put(os.path.join(saved, "status"), STATUS_KEYS)
    put(os.path.join(saved, "timelines"), "0 i915 rcs0\n1 i915 bcs0\n")
    for n, (name, path, hist) in enumerate((
            ("glmark2", "/usr/bin/glmark2", "0 360\n1 12\n"),
            ("kwin_wayland", "/usr/bin/kwin_wayland", "0 120\n")), 1):
        put(os.path.join(saved, "%d/name" % n), name + "\n")
        put(os.path.join(saved, "%d/path" % n), path + "\n")
        put(os.path.join(saved, "%d/histogram" % n), hist)
        put(os.path.join(saved, "%d/counters" % n), COUNTERS_ZERO)


def time_scale():
    """$GPUPROF_TIMEOUT_SCALE, 1 to 100, else 1 (lib/harness.h)."""
    try:
        k = int(os.environ.get("GPUPROF_TIMEOUT_SCALE", "1"))
    except ValueError:
        return 1
    return k if 1 <= k <= 100 else 1


def run_example(ex, workdir, env, log):
    """Run @ex in @workdir; True if every command did as shown."""
    ok = True
    for cmd, expect in ex.commands():
        try:
            r = subprocess.run(["bash", "-c", cmd], cwd=workdir, env=env,
                               stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT,
                               timeout=120 * time_scale())
            got, status = r.stdout.decode("utf-8", "replace"), r.returncode
        except subprocess.TimeoutExpired as e:
            got = (e.stdout or b"").decode("utf-8", "replace")
            status = "timeout"
        if status == 0 and output_matches(expect, got.split("\n")):
            continue
        ok = False
        log.append("# %s: $ %s" % (ex.id, cmd.replace("\n", "\n#   ")))
        log.append("#   exit status %s" % status)
        log.append("#   expected:")
        log.extend("#   | " + e for e in expect)
        log.append("#   got:")
        log.extend("#   | " + g for g in got.rstrip("\n").split("\n"))
        break
    return ok


def module_reload(ko, load, log):
    """Load @ko, or unload it (retried for 3 s while a file of it is open)."""
    argv = ["insmod", ko] if load else ["rmmod", "gpuprof"]
    for _ in range(1 if load else 30):
        r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        if r.returncode == 0:
            return True
        if load or "in use" not in r.stdout:
            break
        time.sleep(0.1)
    log.append("# %s: %s" % (" ".join(argv), r.stdout.strip()))
    return False


def cmd_run(kind, ids):
    examples, errors = scan()
    for e in errors:
        print("# " + e)
    chosen = [e for e in examples if e.kind == kind]
    if ids:
        known = {e.id: e for e in chosen}
        missing = [i for i in ids if i not in known]
        if missing:
            print("# no %s example %s" % (kind, ", ".join(missing)))
            return 1
        chosen = [known[i] for i in ids]
    env = tool_env()
    ko = os.environ.get("GPUPROF_KO") if kind == "device" else None
    passed = failed = 0
    template = None
    try:
        if kind == "host":
            template = tempfile.mkdtemp(prefix="doc_examples.")
            host_fixture(template)
        for ex in chosen:
            work = tempfile.mkdtemp(prefix="doc_example.")
            try:
                if template:
                    shutil.rmtree(work)
                    shutil.copytree(template, work, symlinks=True)
                log = []
                if ko and not module_reload(ko, True, log):
                    print("\n".join(log))
                    return 1
                ok = run_example(ex, work, env, log)
                if ko and not module_reload(ko, False, log):
                    print("\n".join(log))
                    return 1
                if ok:
                    passed += 1
                    print("pass %s" % ex.id)
                else:
                    failed += 1
                    print("\n".join(log))
                    print("FAIL %s" % ex.id)
            finally:
                shutil.rmtree(work, ignore_errors=True)
    finally:
        if template:
            shutil.rmtree(template, ignore_errors=True)
    print("%d examples passed, %d failed" % (passed, failed))
    return 0 if passed and not failed and not errors else 1


# ---- Man pages against the binaries. ----

HELP_OPT = re.compile(r"^\s+(?:(-\w)(?:, )?)?(--[\w-]+)?(\[?=?<[^>]*>\]?| <[^>]*>)?")
DOC_OPT = re.compile(r"``(--?[\w-]+)(=?)``(\\ \[=)?")


def help_options(argv):
    """{(short, long): kind} from a libsubcmd -h listing."""
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, env=tool_env())
    opts = {}
    for line in r.stdout.split("\n"):
        # Options start at column 4 or 8; descriptions further right.
        m = HELP_OPT.match(line) if len(line) - len(line.lstrip()) <= 8 else None
        if not m or not (m.group(1) or m.group(2)):
            continue
        arg = m.group(3) or ""
        kind = "optional" if arg.startswith("[") else "required" if arg else "none"
        opts[(m.group(1), m.group(2))] = kind
    return r.returncode, opts


def section(text, name):
    """The lines of the rst section titled @name (underlined with =)."""
    lines = text.split("\n")
    out, inside = [], False
    for i, line in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if nxt.startswith("===") and line.strip():
            inside = line.strip() == name
            continue
        if inside and not line.startswith("==="):
            out.append(line)
    return out


def doc_options(text):
    """{(short, long): kind} from the terms of a man page's OPTIONS."""
    opts = {}
    for line in section(text, "OPTIONS"):
        if not line.startswith("``-"):
            continue
        short = long_ = None
        kind = "none"
        for m in DOC_OPT.finditer(line):
            if m.group(1).startswith("--"):
                long_ = m.group(1)
                kind = ("required" if m.group(2) else
                        "optional" if m.group(3) else "none")
            else:
                short = m.group(1)
        opts[(short, long_)] = kind
    return opts


def cmd_options():
    pg = tool_env()["PERF_EXEC_PATH"]
    bad = 0
    man = os.path.join(DOCS, "man")
    for f in sorted(os.listdir(man)):
        if not f.endswith(".rst"):
            continue
        with open(os.path.join(man, f), encoding="utf-8") as fh:
            text = fh.read()
        name = f[:-4]
        titles = re.findall(r"^(.+)\n=+$", text, re.M)
        missing = [t for t in ("SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXAMPLES",
                               "EXIT STATUS", "SEE ALSO") if t not in titles]
        page_ok = not missing and re.search(r"^:Manual section: [1-9]$",
                                            text, re.M)
        if not page_ok:
            print("%s: no %s" % (f, ", ".join(missing) or ":Manual section:"))
            bad += 1
        if name == "perf-gpu":
            r = subprocess.run([os.path.join(pg, "perf-gpu"), "-h"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True)
            have = set(re.findall(r"^   (\w+)  ", r.stdout, re.M))
            doc = set(re.findall(r"^\*\*(\w+)\*\*$", "\n".join(
                section(text, "COMMANDS")), re.M))
            what = "commands"
        else:
            if name == "gpuprof-oa":
                argv = [os.path.join(pg, "gpuprof-oa"), "-h"]
            elif name.startswith("perf-gpu-"):
                argv = [os.path.join(pg, "perf-gpu"), name[9:], "-h"]
            else:
                print("%s: no binary known for this page" % f)
                bad += 1
                continue
            status, have = help_options(argv)
            if status != 129 or not have:
                print("%s: %s exited %d with %d options" % (f, " ".join(argv[1:]) or argv[0],
                                                          status, len(have)))
                bad += 1
                continue
            doc = doc_options(text)
            have = set("%s %s %s" % (k[0], k[1], v) for k, v in have.items())
            doc = set("%s %s %s" % (k[0], k[1], v) for k, v in doc.items())
            what = "options (short long argument)"
        for x in sorted(have - doc):
            print("%s: %s not in the page: %s" % (f, what, x))
        for x in sorted(doc - have):
            print("%s: %s not taken by the binary: %s" % (f, what, x))
        if have != doc:
            bad += 1
        elif page_ok:
            print("pass %s: %d %s" % (f, len(have), what.split()[0]))
    return 1 if bad else 0


# ---- Documentation/ABI against the module. ----

def cmd_abi(get_abi):
    bad = 0
    r = subprocess.run(["perl", get_abi, "--dir", os.path.join(DOCS, "ABI"),
                        "validate"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    if r.returncode or r.stdout.strip():
        print("get_abi.pl validate: exit %d\n%s" % (r.returncode, r.stdout))
        bad += 1
    abi = {}
    for top, _, files in os.walk(os.path.join(DOCS, "ABI")):
        for f in files:
            with open(os.path.join(top, f), encoding="utf-8") as fh:
                text = fh.read()
            for m in re.finditer(r"^What:\s*(\S+)\n(?:\w+:.*\n)*?Description:\n\s*(.*)",
                                 text, re.M):
                abi[m.group(1)] = m.group(2)
    files = {}
    src = os.path.join(REPO, "module")
    for f in sorted(os.listdir(src)):
        if f.endswith(".c"):
            with open(os.path.join(src, f), encoding="utf-8") as fh:
                for m in re.finditer(r'\.name = "(\w+)",\s*\.mode = (0[0-7]+),',
                                     fh.read()):
                    files[m.group(1)] = m.group(2)
    if not files:
        print("no .name/.mode pairs found in module/*.c")
        bad += 1
    for name, mode in sorted(files.items()):
        what = [w for w in ("/dev/gpuprof/" + name, "/dev/gpuprof/<N>/" + name)
                if w in abi]
        if not what:
            print("/dev/gpuprof/%s (mode %s): no ABI entry" % (name, mode))
            bad += 1
        elif ", %s)" % mode not in abi[what[0]]:
            print("%s: the module's mode is %s; the ABI says: %s"
                  % (what[0], mode, abi[what[0]]))
            bad += 1
        else:
            print("pass %s %s" % (what[0], mode))
    for w in sorted(abi):
        if w.rsplit("/", 1)[1] not in files:
            print("%s: in the ABI, not made by the module" % w)
            bad += 1
    return 1 if bad else 0


# ---- The kernel-doc DOC sections against the pages that include them. ----

# "DOC:" on the first line of a "/**" comment, as kernel-doc reads it.
DOC_SECTION = re.compile(r"^/\*\*[ \t]*\n[ \t]*\*[ \t]*DOC:[ \t]*(.*?)[ \t]*$", re.M)
KERNELDOC = re.compile(r"^(\s*)\.\. kernel-doc::\s*(\S+)\s*$")
OPTION = re.compile(r"^\s+:([\w-]+):\s*(.*?)\s*$")


def doc_sections(rel):
    with open(os.path.join(REPO, rel), encoding="utf-8") as f:
        return DOC_SECTION.findall(f.read())


def kerneldoc_directives():
    """[(page, line, file, {option: value})] of every page."""
    out = []
    for path in doc_files():
        if not path.endswith(".rst"):
            continue
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        for i, line in enumerate(lines):
            m = KERNELDOC.match(line)
            if not m:
                continue
            opts, j = {}, i + 1
            while j < len(lines) and OPTION.match(lines[j]):
                o = OPTION.match(lines[j])
                opts[o.group(1)] = o.group(2)
                j += 1
            out.append((os.path.relpath(path, REPO), i + 1, m.group(2), opts))
    return out


def cmd_kerneldoc():
    bad = 0
    dirs = kerneldoc_directives()
    files = sorted(set(
        [os.path.join(d, f) for d in ("module", "uapi")
         for f in os.listdir(os.path.join(REPO, d))
         if f.endswith((".c", ".h"))] + [d[2] for d in dirs]))
    included = set()
    for page, line, rel, opts in dirs:
        if not os.path.isfile(os.path.join(REPO, rel)):
            print("%s:%d: kernel-doc of %s: no such file" % (page, line, rel))
            bad += 1
            continue
        have = doc_sections(rel)
        if "doc" in opts:
            if opts["doc"] not in have:
                print("%s:%d: %s has no 'DOC: %s'" % (page, line, rel, opts["doc"]))
                bad += 1
            included.add((rel, opts["doc"]))
        elif not opts:
            included.update((rel, t) for t in have)
    total = missing = 0
    for rel in files:
        for title in doc_sections(rel):
            total += 1
            if (rel, title) in included:
                print("pass %s: DOC: %s" % (rel, title))
            else:
                print("%s: 'DOC: %s' is included in no page of Documentation/"
                      % (rel, title))
                missing += 1
    bad += missing
    print("%d DOC sections in the %d files read, %d included in no page"
          % (total, len(files), missing))
    if not total:
        print("no DOC section found")
        bad += 1
    return 1 if bad else 0


def main(argv):
    if len(argv) >= 2 and argv[1] == "check" and len(argv) == 2:
        examples, errors = scan()
        for e in errors:
            print(e)
        for kind in KINDS:
            print("%s: %d" % (kind, sum(e.kind == kind for e in examples)))
        for e in examples:
            if e.kind == "none":
                print("not run: %s: %s" % (e.id, e.reason))
        return 1 if errors else 0
    if len(argv) == 3 and argv[1] == "list" and argv[2] in ("host", "device"):
        examples, errors = scan()
        for e in errors:
            print("error: " + e, file=sys.stderr)
        for e in examples:
            if e.kind == argv[2]:
                print(e.id)
        return 1 if errors else 0
    if len(argv) >= 3 and argv[1] == "run" and argv[2] in ("host", "device"):
        return cmd_run(argv[2], argv[3:])
    if len(argv) == 2 and argv[1] == "options":
        return cmd_options()
    if len(argv) == 3 and argv[1] == "abi":
        return cmd_abi(argv[2])
    if len(argv) == 2 and argv[1] == "kerneldoc":
        return cmd_kerneldoc()
    print(__doc__.split("Usage:")[1].strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
