#!/usr/bin/env python3
"""Short hand-keyed messages through `MORSETORCH receive --edges -`: how many read exactly.

usage: hand-keyed.py MORSETORCH

Eight texts of two to nine words, at 12 and 20 WPM, 12 seeds each, every mark and gap off by
up to the share printed (uniformly), keyed from 1 s on; then a sender whose word gap is 1.5
times its letter gap, and Farnsworth spacing told and not told. No video: the decoder alone.
"""
import os, random, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen import MORSE  # noqa: E402

binary = sys.argv[1]
texts = ["PARIS CQ 73", "MESSAGE RECEIVED", "CQ CQ DE TEST K PARIS 73",
         "THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG", "R R R", "SOS SOS", "HELLO WORLD",
         "NOW IS THE TIME FOR ALL GOOD MEN"]


def edges(text, wpm, jitter, seed, word=7, farnsworth=None):
    rng = random.Random(seed)
    unit = 1.2 / wpm
    spacing = (60 * wpm - 37.2 * farnsworth) / (wpm * farnsworth) / 19 if farnsworth else unit
    letter_gap, word_gap = 3 * spacing, word * spacing
    keyed = lambda d: d * (1 + rng.uniform(-jitter, jitter))
    t, out = 1.0, []
    words = text.split()
    for wi, w in enumerate(words):
        for ci, ch in enumerate(w):
            code = MORSE[ch]
            for ei, e in enumerate(code):
                d = keyed(unit if e == '.' else 3 * unit)
                out.append(f"{t:.6f} 1\n{t + d:.6f} 0\n")
                t += d
                if ei < len(code) - 1:
                    t += keyed(unit)
            if ci < len(w) - 1:
                t += keyed(letter_gap)
        if wi < len(words) - 1:
            t += keyed(word_gap)
    return "".join(out)


def exact(jitter, options=(), **keying):
    right = total = 0
    for text in texts:
        for seed in range(12):
            for wpm in (12, 20):
                sent = edges(text, wpm, jitter, seed * 7 + wpm, **keying)
                read = subprocess.run([binary, "receive", "--edges", "-", *options], input=sent,
                                      capture_output=True, text=True).stdout.strip()
                total += 1
                right += read == text
    return f"{right}/{total}"


for jitter in (0.0, 0.10, 0.15, 0.20, 0.25):
    print(f"jitter {jitter:.2f}: {exact(jitter)}")
print(f"word gap 1.5 letter gaps, jitter 0.10: {exact(0.10, word=4.5)}")
print(f"Farnsworth 20/8 told, jitter 0.10: "
      f"{exact(0.10, ('--wpm', '20', '--farnsworth', '8'), farnsworth=8)}")
print(f"Farnsworth at 10 WPM overall not told, jitter 0.10: {exact(0.10, farnsworth=10)}")
