#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write oa/metric-sets.c, the OA metric sets of every platform, from IGT.

IGT describes the OA metric sets of each Intel platform in one XML file,
lib/i915/perf-configs/oa-STEM.xml ("tglgt2"): per set its name, title and
hardware configuration uuid, per counter its name, title, units, data
type and the reverse Polish equations that compute it from a report's
raw counters.  This script reads those files and writes them as C tables
in the form oa/metric-sets.h documents: equations in our own compact
notation, every string once in one pool, counters that several sets
share once.  Only the facts are taken; IGT's own code generators are not
used.

    metric-sets-gen.py --xml-dir DIR [options]
    metric-sets-gen.py --git GITDIR --commit REV [options]

--xml-dir reads DIR/oa-*.xml; --git reads lib/i915/perf-configs/oa-*.xml
of commit REV of a git directory (a bare mirror will do).  Options:

    --sets-only FILE  platforms whose XML is not there (a mirror that lacks
                      a blob), as lines "STEM<TAB>SYMBOL<TAB>UUID<TAB>TITLE"
                      ('#' starts a comment): their sets, without counters
    --regs-from FILE  the registers of the --sets-only platforms, as
                      oa/metric-sets-dump prints them from the installed
                      IGT library (below)
    --xe-commit REV   with --git: also the platforms only xe serves, from
                      lib/xe/oa-configs/oa-STEM.xml of commit REV
    --xe-xml-dir DIR  with --xml-dir: the same from DIR/oa-STEM.xml
    --source TEXT     what the head of the output says it was made from
    -o FILE           the output (default: standard output)

The xe platforms are those of XE_STEMS, Lunar Lake and Battlemage, the
Xe2 GPUs whose OA Linux 6.12's xe serves and i915 does not, and Panther
Lake (Xe3), whose OA 7.3's xe serves.  IGT's newer
files describe them in its xe dialect: "PEC n READ" (and "MPEC n READ")
for the main counters, new device variables, a report format per set
(oa_format) and the registers that program each set (register_config),
which xe, having no built-in sets, needs for its ADD_CONFIG.  Their
platforms, sets, counters and strings come after all of i915's, so the
i915 part of the output is the same with or without them.

i915, too, offers a set only once userspace has added it
(DRM_IOCTL_I915_PERF_ADD_CONFIG: three lists of {address, value}: mux,
boolean-counter and flex registers), so each i915 set also carries its
registers: those of its register_config type="NOA", "OA" and "FLEX"
elements, each list in file order across the set's elements of that
type, which is how IGT 1.27.1's library (perf-registers-codegen.py)
builds the lists it hands the kernel.  A few sets of Broadwell, Broxton,
Cannon Lake and Skylake GT2 have several NOA elements, each with a
condition on the device (availability="$SkuRevisionId 0x02 ULT"); IGT
programs those whose condition holds, so the table keeps each condition
(a conjunction of at most two "$Var NUMBER OP" terms on $SliceMask,
$SubsliceMask or $SkuRevisionId) and oa/metric-sets.h picks them for a
device.  Their priority attribute is not used by IGT's library, nor here.
For DG2 (acmgt1..3), whose XML the mirror lacks, the registers come from
the installed IGT 1.27.1 library itself: oa/metric-sets-dump.c dlopen()s
libi915_perf.so.1.5 and prints what intel_perf_for_devinfo() builds
(its lists do not depend on revision or topology for DG2), and
--regs-from reads that; its sets must be those of --sets-only, in the
same order, with the same uuids.  From tools/perf-gpu:

    cc -O2 -Wall -Wextra $(pkg-config --cflags libdrm) \\
        -o /tmp/metric-sets-dump oa/metric-sets-dump.c -ldl
    /tmp/metric-sets-dump acmgt1:0x5693 acmgt2:0x5696 acmgt3:0x5690 \\
        > /tmp/acm-regs.txt
    python3 oa/metric-sets-gen.py --git IGT.git --commit 2b29e8ac0 \\
        --sets-only oa/metric-sets-acm.tsv --regs-from /tmp/acm-regs.txt \\
        --xe-commit b3d809d53 -o oa/metric-sets.c

The i915 registers are stored once each: the distinct {address, value}
pairs in a pool, every register as a 16-bit index into it in one stream,
and every list as runs over that stream; a run reuses a stretch of at
least MATCH registers some earlier list already put there (most sets
share long stretches of mux programming), else it adds the registers.

Everything unexpected (an operator, a variable, a READ of something
unknown or past what the set's format carries, a counter used before it
is defined, a duplicate, an unknown oa_format, a register_config of
another type, or with an attribute or condition not described above, a
register outside a register_config, a line of the register dump that is
not one of metric-sets-dump's) stops it with a message rather than
writing a table that would mean something else.  IGT b3d809d53's xe
files use the operators of IGT 1.27.1 below, and its xe library
evaluates them as 1.27.1's i915 one does.
"""

import argparse
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

# IGT 1.27.1's operators (lib/i915/perf-configs/codegen.py): all take two
# operands.  Equations may use the first set, availability conditions the
# second.
EQUATION_OPS = {
    "FADD", "FDIV", "FMAX", "FMUL", "FSUB",
    "UADD", "UDIV", "UMUL", "USUB", "UMIN",
    "<<", ">>", "AND", "UGTE", "UGT", "ULTE", "ULT",
}
AVAILABILITY_OPS = {"AND", "UGTE", "UGT", "ULTE", "ULT", "&&", "<<", ">>",
                    "UMUL"}

# The device variables IGT gives equations and conditions values for.
HW_VARS = {
    "EuCoresTotalCount", "EuSlicesTotalCount", "EuSubslicesTotalCount",
    "EuDualSubslicesTotalCount", "EuDualSubslicesSlice0123Count",
    "EuThreadsCount", "VectorEngineTotalCount", "VectorEnginePerXeCoreCount",
    "VectorEngineThreadsCount", "SliceMask", "SliceTotalCount",
    "SubsliceMask", "DualSubsliceMask", "GtSliceMask", "GtSubsliceMask",
    "GtDualSubsliceMask", "GtXeCoreMask", "XeCoreMask", "XeCoreTotalCount",
    "GpuTimestampFrequency", "GpuMinFrequency", "GpuMaxFrequency",
    "SkuRevisionId", "QueryMode",
}
TOPOLOGY_VAR = re.compile(r"GtSlice\d+((DualSubslice|XeCore)\d+)?$")

# READ's first operand: the raw counters, and the two header fields.
READ_ARRAYS = {"A", "B", "C", "PERFCNT"}
READ_SINGLE = {"GPU_TIME", "GPU_CLOCK"}

NUMBER = re.compile(r"(0[xX][0-9a-fA-F]+|[0-9]+)$")

# data_type -> enum oa_metric_type (oa/metric-sets.h).
TYPES = {"uint64": "OA_METRIC_UINT64", "uint32": "OA_METRIC_UINT32",
         "float": "OA_METRIC_FLOAT", "double": "OA_METRIC_DOUBLE",
         "bool": "OA_METRIC_BOOL"}

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-"
                  r"[0-9a-f]{12}$")
SYMBOL = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")

XML_DIR_IN_GIT = "lib/i915/perf-configs"
XE_XML_DIR_IN_GIT = "lib/xe/oa-configs"

# Lunar Lake and Battlemage, which Linux 6.12's xe serves, and Panther
# Lake, which 7.3's does (6.12's does not know it); appended in that
# order, so each addition leaves what came before unchanged.  IGT's other
# xe files describe platforms that i915 serves, read from lib/i915 above.
XE_STEMS = ("bmg", "lnl", "ptl")

# The device variables IGT's xe library (lib/xe/oa-configs/codegen.py)
# knows beyond HW_VARS.
XE_HW_VARS = HW_VARS | {
    "ComputeEngineTotalCount", "CopyEngineTotalCount", "SqidiTotalCount",
    "L3BankTotalCount", "L3NodeTotalCount", "GeometryPipeTotalCount",
    "DepthPipeTotalCount", "ColorPipeTotalCount",
}
XE_TOPOLOGY_VAR = re.compile(r"(GtSlice\d+((DualSubslice|XeCore)\d+)?|"
                             r"GtXeCore\d+)$")

# An xe set's oa_format -> its format (uapi/gpuprof_oa.h) and what its
# equations may READ: counter kind -> how many the format carries.  PEC n
# and MPEC n are kept as A n (struct gpuprof_oa_deltas), and IGT's media
# sets already read their MPEC counters as "A n".
XE_FORMATS = {
    "576B_PEC64LL": ("GPUPROF_OA_FORMAT_PEC64u64", {"PEC": 64}),
    "128B_MPEC8_NOA16": ("GPUPROF_OAM_FORMAT_MPEC8u32_B8_C8",
                         {"A": 8, "MPEC": 8, "B": 8, "C": 8}),
}

# register_config types in the order IGT's xe library hands a set's
# registers to ADD_CONFIG: mux (NOA), then B counters (OA), then flex.
XE_REG_TYPES = ("NOA", "OA", "FLEX")
HEX32 = re.compile(r"0[xX][0-9a-fA-F]{1,8}$")

# i915's ADD_CONFIG lists, in struct oa_metric_i915_regs' order: mux
# (NOA), boolean counters (OA), flex; and how metric-sets-dump names them.
I915_REG_TYPES = ("NOA", "OA", "FLEX")
DUMP_LISTS = ("mux", "boolean", "flex")

# What a condition on an i915 register_config may test, and how
# (oa/metric-sets.h): "$Var NUMBER OP" terms, joined by &&.
COND_VARS = {"SliceMask": "OA_METRIC_I915_SLICE_MASK",
             "SubsliceMask": "OA_METRIC_I915_SUBSLICE_MASK",
             "SkuRevisionId": "OA_METRIC_I915_REVISION"}
COND_OPS = {"AND": "OA_METRIC_I915_AND", "UGTE": "OA_METRIC_I915_UGTE",
            "UGT": "OA_METRIC_I915_UGT", "ULT": "OA_METRIC_I915_ULT",
            "ULTE": "OA_METRIC_I915_ULTE"}
COND_TERMS = 2		# struct oa_metric_i915_cond's
COND_MAX = 32		# conditions, the always one included: a u32 mask

# The stream encoding: the shortest stretch a run reuses, the longest
# run (8 bits), the stream's bound (24 bits of a run).
MATCH = 12
RUN_MAX = 255
STREAM_MAX = 1 << 24


class Dialect:
    """What one kind of file may say: READ's arrays (name -> how many,
    None for no bound), its device variables and topology variables."""

    def __init__(self, reads, hw_vars, topology):
        self.reads = reads
        self.hw_vars = hw_vars
        self.topology = topology


I915 = Dialect(dict.fromkeys(READ_ARRAYS), HW_VARS, TOPOLOGY_VAR)


class GenError(Exception):
    pass


def convert(text, ops, counters_before, where, dialect=I915):
    """IGT's RPN text in our notation (oa/metric-sets.h).

    READ and its two operands become one token (A7, PEC32, GPU_TIME),
    "true" becomes 1; the rest is kept, checked: known operators, numbers,
    device variables, and counters of the same set defined before."""
    out = []
    depth = 0
    for tok in text.split():
        if tok == "READ":
            if len(out) < 2 or not out[-1].isdigit():
                raise GenError(f"{where}: READ without a counter: {text}")
            idx, what = out.pop(), out.pop()
            depth -= 1
            bound = dialect.reads.get(what, 0)
            if what in dialect.reads and (bound is None or
                                          int(idx) < bound):
                out.append(what + str(int(idx)))
            elif what in READ_SINGLE and int(idx) == 0:
                out.append(what)
            else:
                raise GenError(f"{where}: READ of {what} {idx}: {text}")
            continue
        if tok in ops:
            if depth < 2:
                raise GenError(f"{where}: {tok} lacks operands: {text}")
            depth -= 1
        elif tok == "true":
            tok = "1"
            depth += 1
        elif NUMBER.match(tok) or tok in dialect.reads or \
                tok in READ_SINGLE:
            depth += 1
        elif tok.startswith("$"):
            name = tok[1:]
            # IGT looks device variables up first, then counters.
            if name not in dialect.hw_vars and \
               not dialect.topology.match(name) and \
               name not in counters_before:
                raise GenError(f"{where}: {tok} is neither a device "
                               f"variable nor a counter before it: {text}")
            depth += 1
        else:
            raise GenError(f"{where}: unknown token '{tok}': {text}")
        out.append(tok)
    if depth != 1:
        raise GenError(f"{where}: leaves {depth} values: {text}")
    return " ".join(out)


def read_sources(args):
    """[(stem, xml text or None)], and where they came from."""
    found = []
    if args.xml_dir:
        for name in sorted(os.listdir(args.xml_dir)):
            m = re.match(r"oa-(\w+)\.xml$", name)
            if m:
                with open(os.path.join(args.xml_dir, name), "rb") as f:
                    found.append((m.group(1), f.read()))
        return found
    git = ["git", "--git-dir", args.git]
    listing = subprocess.run(git + ["ls-tree", "--name-only", args.commit,
                                    XML_DIR_IN_GIT + "/"],
                             check=True, capture_output=True, text=True)
    for path in sorted(listing.stdout.split()):
        m = re.match(r".*/oa-(\w+)\.xml$", path)
        if not m:
            continue
        blob = subprocess.run(git + ["cat-file", "blob",
                                     f"{args.commit}:{path}"],
                              capture_output=True)
        # A partial mirror lists blobs it does not hold: --sets-only.
        found.append((m.group(1), blob.stdout if blob.returncode == 0
                      else None))
    return found


def config_registers(rc, t, where):
    """The registers of register_config @rc of type @t: [(address, value)]."""
    regs = []
    for r in rc:
        a, v = r.get("address") or "", r.get("value") or ""
        if r.tag != "register" or r.get("type") != t or \
           set(r.attrib) != {"address", "type", "value"} or \
           not HEX32.match(a) or not HEX32.match(v) or \
           len(r) or (r.text or "").strip():
            raise GenError(f"{where}: {t} register {r.tag} {r.attrib}")
        regs.append((int(a, 16), int(v, 16)))
    return regs


def xe_registers(s, where):
    """An xe set's registers, [(address, value)], in ADD_CONFIG's order."""
    by_type = {}
    for rc in s.findall("register_config"):
        t = rc.get("type")
        # IGT keeps one list per type; a condition would make the list
        # depend on the device.
        if t not in XE_REG_TYPES or t in by_type or \
           set(rc.attrib) != {"type"}:
            raise GenError(f"{where}: register_config {rc.attrib}")
        by_type[t] = config_registers(rc, t, where)
    regs = [r for t in XE_REG_TYPES for r in by_type.get(t, [])]
    if not regs:
        raise GenError(f"{where}: no registers")
    return regs


def parse_condition(text, where):
    """An i915 register_config's availability: a tuple of (variable, op,
    number) terms that must all hold."""
    stack = []
    for tok in text.split():
        if tok in COND_OPS:
            if len(stack) < 2 or not isinstance(stack[-1], int) or \
               not isinstance(stack[-2], str):
                break
            k = stack.pop()
            stack.append(((stack.pop(), tok, k),))
        elif tok == "&&":
            if len(stack) < 2 or not isinstance(stack[-1], tuple) or \
               not isinstance(stack[-2], tuple):
                break
            b = stack.pop()
            stack.append(stack.pop() + b)
        elif tok.startswith("$") and tok[1:] in COND_VARS:
            stack.append(tok[1:])
        elif NUMBER.match(tok):
            k = int(tok, 16) if tok[:2] in ("0x", "0X") else int(tok, 10)
            if k > 0xffffffff:
                break
            stack.append(k)
        else:
            break
    else:
        if len(stack) == 1 and isinstance(stack[0], tuple) and \
           len(stack[0]) <= COND_TERMS:
            return stack[0]
    raise GenError(f"{where}: register condition '{text}' is not one of "
                   f"the forms known here")


def i915_registers(s, where):
    """An i915 set's ADD_CONFIG lists: per I915_REG_TYPES, the set's
    register_config elements of that type in file order, as [(condition
    or None, [(address, value)])]."""
    lists = ([], [], [])
    for rc in s.findall("register_config"):
        t = rc.get("type")
        known = {"type", "availability", "priority"}
        if t not in I915_REG_TYPES or not set(rc.attrib) <= known or \
           ("availability" in rc.attrib) != ("priority" in rc.attrib) or \
           not re.match(r"[0-9]+$", rc.get("priority", "0")) or \
           (rc.text or "").strip():
            raise GenError(f"{where}: register_config {rc.attrib}")
        cond = rc.get("availability")
        cond = parse_condition(cond, where) if cond else None
        lists[I915_REG_TYPES.index(t)].append(
            (cond, config_registers(rc, t, where)))
    if not any(regs for parts in lists for _cond, regs in parts):
        raise GenError(f"{where}: no registers")
    return lists


def check_register_places(root, where):
    """Registers only in a set's register_config, those only in a set."""
    n_configs = n_regs = 0
    for s in root.iter("set"):
        for rc in s.findall("register_config"):
            n_configs += 1
            n_regs += len(rc)
    if n_configs != len(list(root.iter("register_config"))) or \
       n_regs != len(list(root.iter("register"))):
        raise GenError(f"{where}: a register or register_config outside "
                       f"a set's register_config")


def read_xe_sources(args):
    """[(stem, xml text)] of XE_STEMS, or [] without --xe-*."""
    found = []
    for stem in XE_STEMS if args.xe_commit or args.xe_xml_dir else ():
        if args.xe_xml_dir:
            with open(os.path.join(args.xe_xml_dir, f"oa-{stem}.xml"),
                      "rb") as f:
                found.append((stem, f.read()))
            continue
        blob = subprocess.run(["git", "--git-dir", args.git, "cat-file",
                               "blob", f"{args.xe_commit}:"
                               f"{XE_XML_DIR_IN_GIT}/oa-{stem}.xml"],
                              check=True, capture_output=True)
        found.append((stem, blob.stdout))
    return found


def parse_xml(stem, text, xe=False):
    """The sets of one platform: [(symbol, title, uuid, [counter], x,
    regs)], x None for i915, (format, [(address, value)]) for xe; regs
    i915_registers()' lists for i915, None for xe."""
    root = ET.fromstring(text)
    sets = []
    for s in root.iter("set"):
        where = f"oa-{stem}.xml {s.get('symbol_name')}"
        counters = []
        before = set()
        dialect, extra, regs = I915, None, None
        if xe:
            fmt = s.get("oa_format")
            if fmt not in XE_FORMATS:
                raise GenError(f"{where}: oa_format {fmt}")
            dialect = Dialect(XE_FORMATS[fmt][1], XE_HW_VARS,
                              XE_TOPOLOGY_VAR)
            extra = (XE_FORMATS[fmt][0], xe_registers(s, where))
        else:
            regs = i915_registers(s, where)
        for c in s.findall("counter"):
            sym = c.get("symbol_name")
            cwhere = f"{where}.{sym}"
            if not sym or not SYMBOL.match(sym) or sym in before:
                raise GenError(f"{cwhere}: bad or repeated counter name")
            if c.get("data_type") not in TYPES:
                raise GenError(f"{cwhere}: data type {c.get('data_type')}")
            eq = convert(c.get("equation") or "", EQUATION_OPS, before,
                         cwhere, dialect)
            mx = c.get("max_equation")
            mx = convert(mx, EQUATION_OPS, before, cwhere, dialect) \
                if mx else ""
            av = c.get("availability")
            av = convert(av, AVAILABILITY_OPS, set(), cwhere, dialect) \
                if av else ""
            counters.append((sym, c.get("name") or "", c.get("units") or "",
                             c.get("data_type"), eq, mx, av))
            before.add(sym)
        sets.append((s.get("symbol_name"), s.get("name") or "",
                     s.get("hw_config_guid"), counters, extra, regs))
    check_register_places(root, f"oa-{stem}.xml")
    return sets


def read_sets_only(path):
    """{stem: [(symbol, title, uuid, None, None, None)]} from a
    --sets-only file."""
    plats = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != 4:
                raise GenError(f"{path}:{n}: wants 4 tab-separated fields")
            stem, sym, uuid, title = fields
            plats.setdefault(stem, []).append((sym, title, uuid, None, None,
                                               None))
    return plats


def read_regs_dump(path):
    """The first comment line of a metric-sets-dump output, and {stem:
    [(symbol, uuid, ([mux], [boolean], [flex]))]} from it."""
    plats, head, lists, last = {}, None, None, 0
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            fields = line.split()
            if line.startswith("#"):
                head = head or line[1:].strip()
                continue
            if len(fields) == 4 and fields[0] == "set":
                lists, last = ([], [], []), 0
                plats.setdefault(fields[1], []).append(
                    (fields[2], fields[3], lists))
                continue
            if lists is None or len(fields) != 3 or \
               fields[0] not in DUMP_LISTS or \
               DUMP_LISTS.index(fields[0]) < last or \
               not HEX32.match(fields[1]) or not HEX32.match(fields[2]):
                raise GenError(f"{path}:{n}: not a line of metric-sets-dump")
            last = DUMP_LISTS.index(fields[0])
            lists[last].append((int(fields[1], 16), int(fields[2], 16)))
    if not plats:
        raise GenError(f"{path}: no sets")
    return head or "", plats


def add_dumped_regs(stem, sets, dumped, path):
    """@sets (a --sets-only platform's) with the registers of @dumped,
    which must be the same sets in the same order."""
    if [(s[0], s[2]) for s in sets] != [(d[0], d[1]) for d in dumped]:
        raise GenError(f"{path}: the sets of {stem} are not those of "
                       f"--sets-only (names, uuids, order)")
    out = []
    for s, (sym, _uuid, lists) in zip(sets, dumped):
        if not any(lists):
            raise GenError(f"{path}: {stem} {sym}: no registers")
        out.append(s[:5] + (tuple([(None, regs)] if regs else []
                                  for regs in lists),))
    return out


def check_platform(stem, sets):
    names, uuids = set(), set()
    for sym, _title, uuid, _counters, _xe, _regs in sets:
        if not sym or not SYMBOL.match(sym) or sym in names:
            raise GenError(f"{stem}: bad or repeated set name {sym}")
        if not uuid or not UUID.match(uuid) or uuid in uuids:
            raise GenError(f"{stem} {sym}: bad or repeated uuid {uuid}")
        names.add(sym)
        uuids.add(uuid)


class Pool:
    """Each distinct string once; offset 0 is the empty string."""

    def __init__(self):
        self.offsets = {"": 0}
        self.strings = [""]
        self.size = 1

    def add(self, s):
        if s not in self.offsets:
            self.offsets[s] = self.size
            self.strings.append(s)
            self.size += len(s.encode("utf-8")) + 1
        return self.offsets[s]


class RegStream:
    """The i915 sets' registers (oa/metric-sets.h): each distinct
    (address, value) once in a pool, one stream of pool indices, and each
    list as runs over the stream, (start << 8 | length); a run of length
    0 is a condition marker, (condition << 8): the runs after it, to the
    next marker or the list's end, count only where the condition holds.
    A run reuses a stretch of MATCH or more registers already in the
    stream, else the registers are added to it."""

    def __init__(self):
        self.pool, self.pool_ids = [], {}
        self.seq = []
        self.grams = {}
        self.runs = []
        self.list_start = 0
        self.registers = 0

    def start_list(self):
        self.list_start = len(self.runs)

    def marker(self, cond):
        self.runs.append(cond << 8)

    def _run(self, at, n):
        while n:
            last = self.runs[-1] if len(self.runs) > self.list_start else 0
            if last & 0xff and (last >> 8) + (last & 0xff) == at and \
               (last & 0xff) < RUN_MAX:
                m = min(n, RUN_MAX - (last & 0xff))
                self.runs[-1] = last + m
            else:
                m = min(n, RUN_MAX)
                self.runs.append(at << 8 | m)
            at += m
            n -= m

    def _append(self, i):
        self.seq.append(i)
        if len(self.seq) >= MATCH:
            key = tuple(self.seq[-MATCH:])
            self.grams.setdefault(key, []).append(len(self.seq) - MATCH)

    def _match(self, ids, i):
        """The longest stretch of the stream equal to ids[i:], if at
        least MATCH long: (start, length), else (0, 0)."""
        best = (0, 0)
        if i + MATCH > len(ids):
            return best
        # The latest places are the likeliest to go on matching.
        for p in self.grams.get(tuple(ids[i:i + MATCH]), [])[-32:]:
            n = MATCH
            while i + n < len(ids) and p + n < len(self.seq) and \
                    self.seq[p + n] == ids[i + n]:
                n += 1
            if n > best[1]:
                best = (p, n)
        return best

    def add(self, regs):
        ids = []
        for r in regs:
            if r not in self.pool_ids:
                self.pool_ids[r] = len(self.pool)
                self.pool.append(r)
            ids.append(self.pool_ids[r])
        self.registers += len(ids)
        i = 0
        while i < len(ids):
            at, n = self._match(ids, i)
            if not n:
                self._append(ids[i])
                at, n = len(self.seq) - 1, 1
            self._run(at, n)
            i += n


def c_string(s):
    out = []
    for b in s.encode("utf-8"):
        ch = chr(b)
        if ch in "\\\"":
            out.append("\\" + ch)
        elif 0x20 <= b < 0x7f and ch != "?":	# no trigraphs
            out.append(ch)
        else:
            out.append(f"\\{b:03o}")
    return "".join(out)


def generate(platforms, source, regen):
    """The text of metric-sets.c for [(stem, sets, have_counters)], i915's
    platforms first; @regen is the options that made it."""
    pool = Pool()
    counters, counter_ids = [], {}
    set_counters, sets, plats = [], [], []
    regs, xe_sets, rows = [], [], []
    stream, conds, list_runs, n_i915_regs = RegStream(), {None: 0}, [], 0
    # Where the xe part of each table starts, if any.
    xe_at = None
    for stem, psets, have in platforms + [(None, [], False)]:
        if stem is None or (xe_at is None and any(x[4] for x in psets)):
            # The strings of the counters so far before the next sets'.
            rows += [(pool.add(c[0]), pool.add(c[1]), pool.add(c[2]), c[3],
                      pool.add(c[4]), pool.add(c[5]), pool.add(c[6]), c[0])
                     for c in counters[len(rows):]]
            if stem is None:
                break
            xe_at = (len(sets), len(set_counters), len(plats))
        first_set = len(sets)
        for sym, title, uuid, cs, xe, i915 in psets:
            if xe_at is None:
                # Every i915 set has its three lists, empty without
                # registers (a --sets-only platform without --regs-from).
                n_i915_regs += bool(i915)
                for parts in i915 or ([], [], []):
                    list_runs.append(len(stream.runs))
                    stream.start_list()
                    cond = None
                    for c, part in parts:
                        if c != cond:
                            cond = c
                            stream.marker(conds.setdefault(c, len(conds)))
                        stream.add(part)
            first = len(set_counters)
            for c in cs or []:
                key = (c[0], c[1], c[2], c[3], c[4], c[5], c[6])
                if key not in counter_ids:
                    counter_ids[key] = len(counters)
                    counters.append(key)
                set_counters.append(counter_ids[key])
            if xe:
                xe_sets.append((len(sets), xe[0], len(regs), len(xe[1]),
                                f"{stem} {sym}"))
                regs.extend(xe[1])
            sets.append((pool.add(sym), pool.add(title), uuid,
                         first, len(set_counters) - first, sym))
        plats.append((stem, first_set, len(sets) - first_set, have))
    if len(counters) > 0xffff or len(set_counters) > 0xffffffff:
        raise GenError("too many counters for the table's index types")
    for _stem, _first, n, _have in plats:
        if n > 0xffff:
            raise GenError("too many sets in one platform")
    if len(sets) > 0xffff or any(x[3] > 0xffff for x in xe_sets):
        raise GenError("too many sets or registers for the index types")
    list_runs.append(len(stream.runs))
    if len(stream.pool) > 0xffff or len(stream.seq) > STREAM_MAX or \
       len({a for a, _v in stream.pool}) > 0x100 or len(conds) > COND_MAX:
        raise GenError("too many i915 registers or conditions for the "
                       "index types")
    n_i915 = xe_at[0] if xe_at else len(sets)

    o = []
    o.append("// SPDX-License-Identifier: GPL-2.0-only")
    o.append("/*")
    o.append(" * GENERATED by tools/perf-gpu/oa/metric-sets-gen.py: do not edit.")
    o.append(" * The OA metric sets of every platform IGT describes, in the form")
    o.append(" * oa/metric-sets.h documents.  Made from:")
    for line in source.splitlines():
        o.append(" *   " + line if line else " *")
    o.append(" * Regenerate with (from tools/perf-gpu):")
    for line in regen:
        o.append(" *   " + line)
    o.append(f" * {len(plats)} platforms, {len(sets)} sets, "
             f"{len(set_counters)} counters ({len(counters)} distinct), "
             f"{pool.size} bytes of strings.")
    if xe_sets:
        o.append(f" * Of them xe's: {len(plats) - xe_at[2]} platforms, "
                 f"{len(xe_sets)} sets, {len(regs)} registers.")
    o.append(f" * i915's registers: {n_i915_regs} of {n_i915} sets, "
             f"{stream.registers} registers ({len(stream.pool)} distinct),")
    o.append(f" * stored as {len(stream.seq)} indices in "
             f"{len(stream.runs)} runs, {len(conds) - 1} conditions.")
    o.append(" */")
    o.append('#include "oa/metric-sets.h"')
    o.append("")
    o.append("/* Each string once, NUL-terminated; offset 0 is \"\". */")
    o.append("const char oa_metric_strings[] =")
    for s in pool.strings:
        o.append(f'\t"{c_string(s)}\\0"')
    o.append("\t;")
    o.append("")
    o.append("/* symbol, title, units, equation, max, availability, type */")
    o.append("const struct oa_metric_counter oa_metric_counters[] = {")
    for r in rows:
        o.append(f"\t{{ {r[0]}, {r[1]}, {r[2]}, {r[4]}, {r[5]}, {r[6]}, "
                 f"{TYPES[r[3]]} }},\t/* {r[7]} */")
    o.append("};")
    o.append("")
    o.append("/* The counters of each set, indices into oa_metric_counters[]. */")
    o.append("const uint16_t oa_metric_set_counters[] = {")
    line = "\t"
    for k, i in enumerate(set_counters):
        if xe_at is not None and k == xe_at[1]:
            # The xe sets' on a line of their own.
            if line.strip():
                o.append(line.rstrip())
            o.append("\t/* xe */")
            line = "\t"
        item = f"{i},"
        if len(line) + len(item) + 1 > 72:
            o.append(line.rstrip())
            line = "\t"
        line += item + " "
    if line.strip():
        o.append(line.rstrip())
    o.append("};")
    o.append("")
    o.append("/* U(8-4-4-4-12 hex digits of a uuid): its 16 bytes. */")
    o.append("#define B(x, n)\t\t((uint8_t)((x) >> (8 * (n))))")
    o.append("#define U(a, b, c, d, e) { \\")
    o.append("\tB(0x##a, 3), B(0x##a, 2), B(0x##a, 1), B(0x##a, 0), \\")
    o.append("\tB(0x##b, 1), B(0x##b, 0), B(0x##c, 1), B(0x##c, 0), \\")
    o.append("\tB(0x##d, 1), B(0x##d, 0), B(0x##e##ull, 5), B(0x##e##ull, 4), \\")
    o.append("\tB(0x##e##ull, 3), B(0x##e##ull, 2), B(0x##e##ull, 1), B(0x##e##ull, 0) }")
    o.append("")
    o.append("/* symbol, title, first counter, counters, uuid */")
    o.append("const struct oa_metric_set oa_metric_sets[] = {")
    for s in sets:
        u = s[2].split("-")
        o.append(f"\t{{ {s[0]}, {s[1]}, {s[3]}, {s[4]}, U({','.join(u)}) }},"
                 f"\t/* {s[5]} */")
    o.append("};")
    o.append("")
    o.append("const struct oa_metric_platform oa_metric_platforms[] = {")
    for stem, first, n, have in plats:
        o.append(f'\t{{ "{stem}", {first}, {n}, '
                 f'{"true" if have else "false"} }},')
    o.append("};")
    o.append("")
    o.append("const unsigned int oa_metric_n_platforms =")
    o.append("\tsizeof(oa_metric_platforms) / sizeof(oa_metric_platforms[0]);")
    o.append("")
    o.append("/*")
    o.append(" * The registers of the xe sets, {address, value}: per set those of")
    o.append(" * its NOA, then OA, then FLEX register_config, the order in which")
    o.append(" * IGT's xe library hands them to ADD_CONFIG.")
    o.append(" */")
    o.append("const struct oa_metric_reg oa_metric_regs[] = {")
    for a, v in regs:
        o.append(f"\t{{ 0x{a:08x}, 0x{v:08x} }},")
    if not regs:
        o.append("\t{ 0, 0 },\t/* none: no xe sets */")
    o.append("};")
    o.append("")
    o.append("/* set, format, first register, registers */")
    o.append("const struct oa_metric_xe_set oa_metric_xe_sets[] = {")
    for x in xe_sets:
        o.append(f"\t{{ {x[0]}, {x[1]}, {x[2]}, {x[3]} }},\t/* {x[4]} */")
    if not xe_sets:
        o.append("\t{ 0, 0, 0, 0 },\t/* none */")
    o.append("};")
    o.append("")
    o.append(f"const unsigned int oa_metric_n_xe_sets = {len(xe_sets)};")
    o += i915_regs_text(stream, conds, list_runs, n_i915)
    stats = (len(plats), len(sets), len(set_counters), len(counters),
             pool.size)
    return "\n".join(o) + "\n", stats


def wrapped(items, width=72):
    """@items, comma-separated, on lines of at most @width columns."""
    lines, line = [], "\t"
    for item in items:
        item += ","
        if len(line) + len(item) + 1 > width and line.strip():
            lines.append(line.rstrip())
            line = "\t"
        line += item + " "
    if line.strip():
        lines.append(line.rstrip())
    return lines


def i915_regs_text(stream, conds, list_runs, n_i915):
    """The i915 register tables (RegStream's) as C."""
    o = [""]
    o.append("/*")
    o.append(" * The i915 sets' registers (oa/metric-sets.h): the distinct "
             "addresses,")
    o.append(" * the distinct {address, value} pairs, the stream of their "
             "indices, the")
    o.append(" * runs over it, per set where each of its mux, boolean and "
             "flex lists'")
    o.append(" * runs start, and the conditions of the registers that only "
             "some")
    o.append(" * devices get.")
    o.append(" */")
    addrs = sorted({a for a, _v in stream.pool})
    addr_ids = {a: i for i, a in enumerate(addrs)}
    o.append("const uint32_t oa_metric_i915_addrs[] = {")
    o += wrapped([f"{a:#x}" for a in addrs] or ["0"])
    o.append("};")
    o.append("")
    o.append("/* Each pair's address (an index into the above) and value. */")
    o.append("const uint8_t oa_metric_i915_pair_addr[] = {")
    o += wrapped([str(addr_ids[a]) for a, _v in stream.pool] or ["0"])
    o.append("};")
    o.append("")
    o.append("const uint32_t oa_metric_i915_pair_value[] = {")
    o += wrapped([f"{v:#x}" for _a, v in stream.pool] or ["0"])
    o.append("};")
    o.append("")
    o.append("const uint16_t oa_metric_i915_stream[] = {")
    o += wrapped([str(i) for i in stream.seq] or ["0"])
    o.append("};")
    o.append("")
    o.append("/* start << 8 | length; length 0: condition << 8 */")
    o.append("const uint32_t oa_metric_i915_runs[] = {")
    o += wrapped([f"{r:#x}" for r in stream.runs] or ["0"])
    o.append("};")
    o.append("")
    o.append("/* Set s's list l (mux, boolean, flex): runs [3s + l] to "
             "[3s + l + 1]. */")
    o.append("const uint32_t oa_metric_i915_list_runs[] = {")
    o += wrapped([str(i) for i in list_runs])
    o.append("};")
    o.append("")
    o.append(f"const unsigned int oa_metric_n_i915_sets = {n_i915};")
    o.append("")
    o.append("/* Up to two terms (variable, operator, number), all of which "
             "hold. */")
    o.append("const struct oa_metric_i915_cond oa_metric_i915_conds[] = {")
    for c, _i in sorted(conds.items(), key=lambda x: x[1]):
        terms = [(COND_VARS[v], COND_OPS[op], f"{k:#x}")
                 for v, op, k in c or ()]
        terms += [("OA_METRIC_I915_ALWAYS", "OA_METRIC_I915_AND", "0")] * \
            (COND_TERMS - len(terms))
        text = " && ".join(f"${v} {k:#x} {op}" for v, op, k in c or ()) \
            or "always"
        o.append(f"\t/* {text} */")
        o.append("\t{ { " + ",\n\t    ".join(f"{{ {v}, {op}, {k} }}"
                                            for v, op, k in terms) +
                 " } },")
    o.append("};")
    o.append("")
    o.append(f"const unsigned int oa_metric_n_i915_conds = {len(conds)};")
    return o


def regen_command(args):
    """The lines of the command that made the table, as committed."""
    if not args.regs_from:
        if not (args.xe_commit or args.xe_xml_dir):
            return ["python3 oa/metric-sets-gen.py --git IGT.git --commit "
                    "2b29e8ac0 \\",
                    "  --sets-only oa/metric-sets-acm.tsv -o oa/metric-sets.c"]
        return ["python3 oa/metric-sets-gen.py --git IGT.git --commit "
                "2b29e8ac0 \\",
                "  --sets-only oa/metric-sets-acm.tsv --xe-commit "
                "b3d809d53 \\",
                "  -o oa/metric-sets.c"]
    lines = ["cc -O2 -Wall -Wextra $(pkg-config --cflags libdrm) \\",
             "  -o /tmp/metric-sets-dump oa/metric-sets-dump.c -ldl",
             "/tmp/metric-sets-dump acmgt1:0x5693 acmgt2:0x5696 "
             "acmgt3:0x5690 \\",
             "  > /tmp/acm-regs.txt",
             "python3 oa/metric-sets-gen.py --git IGT.git --commit "
             "2b29e8ac0 \\",
             "  --sets-only oa/metric-sets-acm.tsv "
             "--regs-from /tmp/acm-regs.txt \\"]
    if args.xe_commit or args.xe_xml_dir:
        lines.append("  --xe-commit b3d809d53 -o oa/metric-sets.c")
    else:
        lines.append("  -o oa/metric-sets.c")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--xml-dir")
    src.add_argument("--git")
    ap.add_argument("--commit")
    ap.add_argument("--sets-only")
    ap.add_argument("--regs-from")
    ap.add_argument("--xe-commit")
    ap.add_argument("--xe-xml-dir")
    ap.add_argument("--source")
    ap.add_argument("-o", "--output")
    args = ap.parse_args()
    if args.git and not args.commit:
        ap.error("--git needs --commit")
    if (args.xe_commit and not args.git) or (args.xe_xml_dir and
                                             not args.xml_dir):
        ap.error("--xe-commit goes with --git, --xe-xml-dir with --xml-dir")
    if args.regs_from and not args.sets_only:
        ap.error("--regs-from goes with --sets-only")
    try:
        only = read_sets_only(args.sets_only) if args.sets_only else {}
        dump_head, dumped = read_regs_dump(args.regs_from) \
            if args.regs_from else ("", {})
        for stem in dumped:
            if stem not in only:
                raise GenError(f"{args.regs_from}: {stem} is no "
                               f"--sets-only platform")
        for stem in only if args.regs_from else ():
            if stem not in dumped:
                raise GenError(f"{args.regs_from} lacks {stem}")
            only[stem] = add_dumped_regs(stem, only[stem], dumped[stem],
                                         args.regs_from)
        platforms = []
        for stem, text in read_sources(args):
            if text is not None:
                # The XML, with counters, wins over a --sets-only list.
                only.pop(stem, None)
                platforms.append((stem, parse_xml(stem, text), True))
            elif stem in only:
                platforms.append((stem, only.pop(stem), False))
            else:
                raise GenError(f"oa-{stem}.xml is not in the mirror: give "
                               f"its sets with --sets-only")
        for stem in sorted(only):
            platforms.append((stem, only[stem], False))
        platforms.sort(key=lambda p: p[0])
        # xe's after all of i915's, so that i915's part stays the same.
        for stem, text in read_xe_sources(args):
            if any(p[0] == stem for p in platforms):
                raise GenError(f"{stem} is both an i915 and an xe platform")
            platforms.append((stem, parse_xml(stem, text, xe=True), True))
        for stem, sets, _have in platforms:
            check_platform(stem, sets)
        if args.source:
            source = args.source
        elif args.git:
            source = f"lib/i915/perf-configs/oa-*.xml of IGT commit {args.commit}"
        else:
            source = f"{args.xml_dir}/oa-*.xml"
        if args.sets_only:
            source += "\nand, for the platforms without counters, " + \
                      os.path.basename(args.sets_only)
        if args.xe_commit or args.xe_xml_dir:
            where = (f"{XE_XML_DIR_IN_GIT}/oa-STEM.xml\nof IGT commit "
                     f"{args.xe_commit}" if args.xe_commit else
                     f"{args.xe_xml_dir}/oa-STEM.xml")
            if not args.source:
                source += f"\nand, for xe's {', '.join(XE_STEMS)}, {where}"
        if args.regs_from and not args.source:
            source += ("\nand, for the registers of the platforms without "
                       "counters,\n" + dump_head)
        regen = regen_command(args)
        text, stats = generate(platforms, source, regen)
    except (GenError, ET.ParseError, OSError,
            subprocess.CalledProcessError) as e:
        sys.exit(f"metric-sets-gen.py: {e}")
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    print("%d platforms, %d sets, %d counters (%d distinct), "
          "%d bytes of strings" % stats, file=sys.stderr)


if __name__ == "__main__":
    main()
