# SPDX-License-Identifier: GPL-2.0-only
"""drm_sched jobs from stock perf script's lines, for perf_gpu_sched_test.

Reads "perf script --ns -F comm,pid,time,event,trace" on stdin and
prints, per DRM client id of drm_sched_job_queue, one line:

    CLIENT_ID PID COMM JOBS WAITED DEP_P50 QUEUE_P50 RUN_P50

from the scheduler's stable events and the dma_fence signals alone,
by the phases of Documentation/design.rst 3.3: dependency from the push
(queue) to the latest end after it of a fence drm_sched_job_add_dep
named (its signal; for a job of the same ring, that job's run; for one
drm_sched_job_unschedulable named and never seen signaled, the run),
no later than the run; queue from then to the run; run from the run to
done.  P50 is the smallest value at least half the values are at
or below, in ns.  A first line "events QUEUE RUN DONE ADD_DEP UNSCHED"
counts the events.
"""
import re
import sys

LINE = re.compile(r"^\s*(?P<comm>.+?)\s+(?P<pid>\d+)\s+(?P<secs>\d+)\.(?P<frac>\d+):\s+"
                  r"(?P<ev>[\w]+:[\w]+):\s*(?P<rest>.*)$")
JOB = re.compile(r"fence=(\d+):(\d+), ring=.*client_id:(\d+)")
DEP = re.compile(r"fence=(\d+):(\d+) depends on (?:unsignalled )?fence=(\d+):(\d+)")
DONE = re.compile(r"fence=(\d+):(\d+) signaled")
SIGNAL = re.compile(r"context=(\d+) seqno=(\d+)")


def p50(values):
    v = sorted(values)
    if not v:
        return 0
    return v[(len(v) + 1) // 2 - 1]


def main():
    jobs = {}
    clients = {}
    signals = {}
    counts = dict.fromkeys(("queue", "run", "done", "add_dep", "unschedulable"), 0)
    for line in sys.stdin:
        m = LINE.match(line)
        if not m:
            continue
        t = int(m["secs"]) * 10**9 + int(m["frac"].ljust(9, "0")[:9])
        ev, rest = m["ev"], m["rest"]
        if ev == "dma_fence:dma_fence_signaled":
            s = SIGNAL.search(rest)
            if s:
                signals.setdefault((int(s[1]), int(s[2])), t)
            continue
        if not ev.startswith("gpu_scheduler:drm_sched_job_"):
            continue
        kind = ev.split("drm_sched_job_")[1]
        if kind in ("queue", "run"):
            j = JOB.search(rest)
            key = (int(j[1]), int(j[2]))
            counts[kind] += 1
            if kind == "queue":
                cid = int(j[3])
                jobs[key] = {"client": cid, "queue": t, "deps": [], "blocked": [],
                             "ring": rest.split("ring=")[1].split(",")[0],
                             "dev": rest.split("dev=")[1].split(",")[0]}
                clients.setdefault(cid, (int(m["pid"]), m["comm"]))
            elif key in jobs:
                jobs[key]["run"] = t
        elif kind in ("add_dep", "unschedulable"):
            d = DEP.search(rest)
            counts[kind] += 1
            key = (int(d[1]), int(d[2]))
            if key in jobs:
                jobs[key]["blocked" if kind == "unschedulable" else "deps"].append(
                    (int(d[3]), int(d[4])))
        elif kind == "done":
            d = DONE.search(rest)
            counts[kind] += 1
            key = (int(d[1]), int(d[2]))
            if key in jobs:
                jobs[key]["done"] = t
    print("events %d %d %d %d %d" % (counts["queue"], counts["run"], counts["done"],
                                     counts["add_dep"], counts["unschedulable"]))
    for cid, (pid, comm) in sorted(clients.items()):
        dep, queue, run, waited = [], [], [], 0
        for j in jobs.values():
            if j["client"] != cid or "run" not in j or "done" not in j:
                continue
            end = j["queue"]
            for f in j["deps"]:
                d = jobs.get(f)
                if d and d is not j and d["ring"] == j["ring"] and d["dev"] == j["dev"]:
                    e = d.get("run", j["run"])
                elif f in signals and signals[f] > j["queue"]:
                    e = signals[f]
                elif f in j["blocked"] and f not in signals:
                    e = j["run"]
                else:
                    e = j["queue"]
                end = max(end, min(e, j["run"]))
            if end > j["queue"]:
                waited += 1
                dep.append(end - j["queue"])
            queue.append(j["run"] - end)
            run.append(j["done"] - j["run"])
        print("%d %d %s %d %d %d %d %d" % (cid, pid, comm, len(run), waited,
                                           p50(dep), p50(queue), p50(run)))


main()
