#!/usr/bin/env python3
"""Reads every clip of cases.py back through `ffmpeg ... | MORSETORCH receive --video -`.

usage: run.py MORSETORCH [REGEX] [--region] [--jobs N] [--work DIR]

Clips are made by gen.py (numpy frames, encoded by ffmpeg) into WORK/clips/, once per set of
parameters; each case's result goes to WORK/results/NAME.json and all of them to
WORK/results.md; the last line printed counts the cases read exactly. --region gives the
light's true place (its start) as --region (results NAME.region.json).
"""
import argparse, hashlib, json, os, re, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from cases import C  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("bin", help="the morsetorch executable")
ap.add_argument("pattern", nargs="?", default=".")
ap.add_argument("--region", action="store_true")
ap.add_argument("--jobs", type=int, default=2)
ap.add_argument("--work", default="/tmp/morsetorch-video-study")
ap.add_argument("--timeout", type=int, default=900)
a = ap.parse_args()
W = a.work
os.makedirs(f"{W}/clips", exist_ok=True)
os.makedirs(f"{W}/results", exist_ok=True)


def clip(name):
    p, _, _, ext = C[name]
    path = f"{W}/clips/{name}.{ext}"
    digest = hashlib.sha1(json.dumps(p, sort_keys=True).encode()).hexdigest()
    stamp = path + ".hash"
    if not (os.path.exists(path) and os.path.exists(stamp) and open(stamp).read() == digest):
        subprocess.run([sys.executable, f"{HERE}/gen.py", path, json.dumps(p)], check=True)
        open(stamp, "w").write(digest)
    return path


def region(p):
    from gen import DEFAULTS
    q = dict(DEFAULTS)
    q.update(p)
    r = max(3, int(q["radius"] * 1.2) + 1)  # a tight box around the disc where it starts
    return f"{int(q['lx'] - r)},{int(q['ly'] - r)},{2 * r},{2 * r}"


def run(name):
    p, expected, args, _ = C[name]
    try:
        path = clip(name)
    except Exception as error:  # a codec this ffmpeg lacks
        print(f"GENFAIL {name} {error}", flush=True)
        return None
    extra = list(args) + (["--region", region(p)] if a.region else [])
    # As the manual says: the format named, so that 10-bit clips make a stream too.
    cmd = (f"ffmpeg -loglevel error -i {path} -pix_fmt yuv420p -f yuv4mpegpipe - | "
           f"{a.bin} receive --video - {' '.join(extra)}")
    started = time.time()
    r = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True, text=True,
                       timeout=a.timeout)
    out = r.stdout.strip()
    result = dict(name=name, params=p, expected=expected, cmd=cmd, stdout=r.stdout,
                  stderr=r.stderr, rc=r.returncode, passed=(out == expected),
                  secs=round(time.time() - started, 1))
    suffix = ".region" if a.region else ""
    json.dump(result, open(f"{W}/results/{name}{suffix}.json", "w"), indent=1)
    print(f"{'PASS' if result['passed'] else 'FAIL'} {name}{suffix} rc={r.returncode} "
          f"out={out!r} err={r.stderr.strip()!r}", flush=True)
    return result


names = [n for n in C if re.search(a.pattern, n)]
with ThreadPoolExecutor(a.jobs) as pool:
    results = [r for r in pool.map(run, names) if r]
rows = []
for f in sorted(os.listdir(f"{W}/results")):
    r = json.load(open(f"{W}/results/{f}"))
    err = r["stderr"].strip().replace("\n", " / ").replace("|", "\\|")
    rows.append(f"| {f[:-5]} | {'PASS' if r['passed'] else 'FAIL'} | {r['rc']} | "
                f"`{r['expected']}` | `{r['stdout'].strip()}` | {err[:300]} |")
open(f"{W}/results.md", "w").write(
    "| case | result | rc | expected | stdout | stderr |\n|---|---|---|---|---|---|\n"
    + "\n".join(rows) + "\n")
print(f"read exactly: {sum(r['passed'] for r in results)} of {len(results)} cases")
