#!/usr/bin/env python3
"""Independent Morse-light clip generator (does not use the project's tool).

Usage: gen.py OUT.ext '{"json": "params"}'   (see DEFAULTS)
Renders luma frames with numpy (light integrated over each frame's exposure),
pipes gray8 into ffmpeg which encodes with the requested codec/options.
"""
import json, subprocess, sys, math
import numpy as np

MORSE = {
 'A': '.-', 'B': '-...', 'C': '-.-.', 'D': '-..', 'E': '.', 'F': '..-.', 'G': '--.',
 'H': '....', 'I': '..', 'J': '.---', 'K': '-.-', 'L': '.-..', 'M': '--', 'N': '-.',
 'O': '---', 'P': '.--.', 'Q': '--.-', 'R': '.-.', 'S': '...', 'T': '-', 'U': '..-',
 'V': '...-', 'W': '.--', 'X': '-..-', 'Y': '-.--', 'Z': '--..',
 '0': '-----', '1': '.----', '2': '..---', '3': '...--', '4': '....-', '5': '.....',
 '6': '-....', '7': '--...', '8': '---..', '9': '----.', '?': '..--..', '/': '-..-.',
 '.': '.-.-.-', ',': '--..--', '=': '-...-'}

DEFAULTS = dict(
    text="PARIS CQ 73", wpm=15, farnsworth=None, jitter=0.0, seed=1,
    word_gap=7.0,  # the word gap, in spacing units (ITU: 7; some hands key 4.5)
    fps="30", w=640, h=480, lead=1.5, tail=2.5, start_on=0.0, start_offset=0.0,
    # light
    lx=400, ly=200, radius=5.0, on=250.0, off=30.0, bloom=0.0, vx=0.0, vy=0.0,
    exposure=1.0,  # fraction of the frame interval
    # scene
    bg=40.0, busy=None, flicker=0.0, flicker_ambient=False,  # True: only the background flickers, not the LED
    flicker_hz=100.0, noise=0.0,
    shake=None,   # dict(ax, ay, hz): hand shake, sinusoidal offset in px
    light2=None,  # dict(kind=steady|blink|irregular, x, y, radius, period)
    vfr=None,     # dict(jitter=0.3, drop=0.05)  capture jitter (frames) and drop prob
    # encoding
    post=None,    # list of ffmpeg output args applied to the encoded clip (e.g. real VFR via select)
    vcodec="libx264", crf=23, preset="medium", pix_fmt="yuv420p", extra=[],
)

def timeline(p):
    """Return list of (start, end) on-intervals in seconds (relative to message start)."""
    rng = np.random.default_rng(p["seed"])
    u = 1.2 / p["wpm"]
    if p["farnsworth"]:
        c, f = p["wpm"], p["farnsworth"]
        ta = (60 * c - 37.2 * f) / (c * f)  # ARRL: total extra delay per word (s)
        tf = ta / 19
        lg, wg = 3 * tf, p["word_gap"] * tf
    else:
        lg, wg = 3 * u, p["word_gap"] * u
    j = p["jitter"]
    jit = (lambda d: d * (1 + rng.uniform(-j, j))) if j else (lambda d: d)
    t, on = 0.0, []
    words = p["text"].split()
    for wi, word in enumerate(words):
        for ci, ch in enumerate(word):
            code = MORSE[ch]
            for ei, e in enumerate(code):
                d = jit(u if e == '.' else 3 * u)
                on.append((t, t + d)); t += d
                if ei < len(code) - 1:
                    t += jit(u)
            if ci < len(word) - 1:
                t += jit(lg)
        if wi < len(words) - 1:
            t += jit(wg)
    return on, t

def on_fraction(intervals, starts, exp):
    """Fraction of [s, s+exp) that is lit, for each s."""
    if not intervals:
        return np.zeros_like(starts)
    a = np.array(intervals)
    pts = np.concatenate(([-1e9], a.ravel(), [1e9]))
    cum = np.zeros_like(pts)
    # cumulative on-time at each breakpoint
    acc = 0.0
    for i in range(1, len(pts)):
        seg_on = (i % 2 == 0)  # between a start (odd idx) and end (even idx)
        acc += (pts[i] - pts[i - 1]) if seg_on else 0.0
        cum[i] = acc
    F = lambda t: np.interp(t, pts, cum)
    return (F(starts + exp) - F(starts)) / exp

def parse_fps(s):
    if "/" in str(s):
        n, d = str(s).split("/"); return int(n) / int(d)
    return float(s)

def disk(h, w, cx, cy, r):
    """anti-aliased disk alpha over a local patch; returns (y0,y1,x0,x1,alpha)."""
    R = int(math.ceil(r + 2))
    x0, x1 = max(0, int(cx) - R), min(w, int(cx) + R + 2)
    y0, y1 = max(0, int(cy) - R), min(h, int(cy) + R + 2)
    yy, xx = np.mgrid[y0:y1, x0:x1]
    d = np.sqrt((xx + 0.5 - cx) ** 2 + (yy + 0.5 - cy) ** 2)
    return y0, y1, x0, x1, np.clip(r + 0.5 - d, 0, 1)

def gauss(h, w, cx, cy, s):
    R = int(4 * s)
    x0, x1 = max(0, int(cx) - R), min(w, int(cx) + R + 1)
    y0, y1 = max(0, int(cy) - R), min(h, int(cy) + R + 1)
    yy, xx = np.mgrid[y0:y1, x0:x1]
    g = np.exp(-((xx + 0.5 - cx) ** 2 + (yy + 0.5 - cy) ** 2) / (2 * s * s))
    return y0, y1, x0, x1, g

def main():
    out = sys.argv[1]
    p = dict(DEFAULTS); p.update(json.loads(sys.argv[2]) if len(sys.argv) > 2 else {})
    rng = np.random.default_rng(p["seed"] + 1000)
    fps = parse_fps(p["fps"]); W, H = p["w"], p["h"]
    on, msg_len = timeline(p)
    off0 = p["lead"] - p["start_offset"]
    intervals = [(a + off0, b + off0) for a, b in on]
    if p["start_on"]:
        intervals = [(-1.0, p["start_on"])] + intervals
    total = off0 + msg_len + p["tail"]
    n = int(math.ceil(total * fps))
    exp = p["exposure"] / fps
    # capture times
    frame_t = np.arange(n) / fps
    if p["vfr"]:
        v = p["vfr"]
        cap = np.arange(int(n * 1.2)) / fps + rng.uniform(-v.get("jitter", 0.3), v.get("jitter", 0.3), int(n * 1.2)) / fps
        keep = rng.random(len(cap)) >= v.get("drop", 0.05)
        cap = np.sort(cap[keep]); cap = cap[cap >= 0]
        idx = np.searchsorted(cap, frame_t + 1e-9, side="right") - 1  # latest capture at/before output slot
        idx = np.clip(idx, 0, len(cap) - 1)
        cap_t = cap[idx]
    else:
        cap_t = frame_t
    frac = on_fraction(intervals, cap_t, exp)
    l2 = p["light2"]
    if l2:
        if l2["kind"] == "steady":
            iv2 = [(-1, total + 1)]
        elif l2["kind"] == "blink":
            per = l2.get("period", 1.0)
            iv2 = [(k * per, k * per + per / 2) for k in range(int(total / per) + 2)]
        else:  # irregular: random marks 0.1-0.6 s, gaps 0.1-1 s
            r2 = np.random.default_rng(77); t = 0; iv2 = []
            while t < total:
                d = r2.uniform(0.1, 0.6); iv2.append((t, t + d)); t += d + r2.uniform(0.1, 1.0)
        frac2 = on_fraction(iv2, cap_t, exp)
    busy = None
    if p["busy"]:
        src = {"testsrc2": f"testsrc2=s={W}x{H}:r={p['fps']}",
               "mandelbrot": f"mandelbrot=s={W}x{H}:r={p['fps']}",
               "life": f"life=s={W}x{H}:r={p['fps']}:mold=10:ratio=0.5:death_color=#303030:life_color=#c0c0c0",
               }[p["busy"]]
        busy = subprocess.Popen(["ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i", src, "-frames:v", str(n),
                                 "-f", "rawvideo", "-pix_fmt", "gray", "-"], stdout=subprocess.PIPE)
    enc = ["ffmpeg", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "gray", "-s", f"{W}x{H}",
           "-r", str(p["fps"]), "-i", "-", "-c:v", p["vcodec"]]
    if p["vcodec"] in ("libx264", "libx265"):
        enc += ["-crf", str(p["crf"]), "-preset", p["preset"]]
    elif p["vcodec"] == "libvpx-vp9":
        enc += ["-crf", str(p["crf"]), "-b:v", "0", "-deadline", "good", "-cpu-used", "4", "-row-mt", "1"]
    final = out
    if p["post"]:
        out = out + ".pre.mkv"
    enc += ["-pix_fmt", p["pix_fmt"]] + list(p["extra"]) + [out]
    e = subprocess.Popen(enc, stdin=subprocess.PIPE)
    base = np.full((H, W), p["bg"], np.float32)
    for i in range(n):
        t = cap_t[i]
        if busy:
            buf = busy.stdout.read(W * H)
            f = np.frombuffer(buf, np.uint8).reshape(H, W).astype(np.float32) * 0.8 if len(buf) == W * H else base.copy()
        else:
            f = base.copy()
        cx, cy = p["lx"] + p["vx"] * t, p["ly"] + p["vy"] * t
        if p["shake"]:
            sh = p["shake"]; cx += sh["ax"] * math.sin(2 * math.pi * sh["hz"] * t); cy += sh["ay"] * math.sin(2 * math.pi * sh["hz"] * 0.7 * t + 1)
        if p["flicker"] and p["flicker_ambient"]:
            f *= 1 + p["flicker"] * math.sin(2 * math.pi * p["flicker_hz"] * t)
        if l2:
            y0, y1, x0, x1, a = disk(H, W, l2["x"], l2["y"], l2.get("radius", p["radius"]))
            L2 = p["off"] + (l2.get("on", p["on"]) - p["off"]) * frac2[i]
            f[y0:y1, x0:x1] = f[y0:y1, x0:x1] * (1 - a) + L2 * a
        y0, y1, x0, x1, a = disk(H, W, cx, cy, p["radius"])
        L = p["off"] + (p["on"] - p["off"]) * frac[i]
        f[y0:y1, x0:x1] = f[y0:y1, x0:x1] * (1 - a) + L * a
        if p["bloom"]:
            y0, y1, x0, x1, g = gauss(H, W, cx, cy, 3 * p["radius"])
            f[y0:y1, x0:x1] += p["bloom"] * frac[i] * g
        if p["flicker"] and not p["flicker_ambient"]:
            f *= 1 + p["flicker"] * math.sin(2 * math.pi * p["flicker_hz"] * t)
        if p["noise"]:
            f += rng.normal(0, p["noise"], f.shape).astype(np.float32)
        e.stdin.write(np.clip(f, 0, 255).astype(np.uint8).tobytes())
    e.stdin.close(); rc = e.wait()
    if busy:
        busy.stdout.close(); busy.wait()
    if p["post"] and rc == 0:
        rc = subprocess.run(["ffmpeg", "-y", "-loglevel", "error", "-i", out] + list(p["post"]) + [final]).returncode
    sys.exit(rc)

if __name__ == "__main__":
    main()
