#!/usr/bin/env python3
"""Short hand-keyed messages through `MORSETORCH receive --edges -`: how many read exactly.

usage: hand-keyed.py MORSETORCH

Eight texts of two to nine words, at 12 and 20 WPM, 12 seeds each, every mark and gap off by
up to the share printed (uniformly), keyed from 1 s on; then a sender whose word gap is 1.5
times its letter gap, and Farnsworth spacing told and not told. No video: the decoder alone.
"""
import os, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen import DEFAULTS, timeline  # noqa: E402

binary = sys.argv[1]
texts = ["PARIS CQ 73", "MESSAGE RECEIVED", "CQ CQ DE TEST K PARIS 73",
         "THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG", "R R R", "SOS SOS", "HELLO WORLD",
         "NOW IS THE TIME FOR ALL GOOD MEN"]


def edges(**keying):
    """The edges file of gen.py's timeline (its keying, jitter and spacing), from 1 s on."""
    marks, _ = timeline({**DEFAULTS, **keying})
    return "".join(f"{1 + on:.6f} 1\n{1 + off:.6f} 0\n" for on, off in marks)


def exact(jitter, options=(), **keying):
    right = total = 0
    for text in texts:
        for seed in range(12):
            for wpm in (12, 20):
                sent = edges(text=text, wpm=wpm, jitter=jitter, seed=seed * 7 + wpm, **keying)
                read = subprocess.run([binary, "receive", "--edges", "-", *options], input=sent,
                                      capture_output=True, text=True).stdout.strip()
                total += 1
                right += read == text
    return f"{right}/{total}"


for jitter in (0.0, 0.10, 0.15, 0.20, 0.25):
    print(f"jitter {jitter:.2f}: {exact(jitter)}")
print(f"word gap 1.5 letter gaps, jitter 0.10: {exact(0.10, word_gap=4.5)}")
print(f"Farnsworth 20/8 told, jitter 0.10: "
      f"{exact(0.10, ('--wpm', '20', '--farnsworth', '8'), farnsworth=8)}")
print(f"Farnsworth at 10 WPM overall not told, jitter 0.10: {exact(0.10, farnsworth=10)}")
