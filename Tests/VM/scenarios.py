#!/usr/bin/env python3
"""The VM test's scenarios: what runs in the guest, and how the host scores it.

  scenarios.py plan OUT_SCRIPT        write the guest's /scenarios.sh
  scenarios.py score RESULTS_FILE     score the guest's results (from the second serial port);
                                      prints one PASS/FAIL line per scenario, the timing
                                      figures, and "vm: N passed, N failed"; exit 1 on failure

Every assertion is made on what the kernel reported: the brightness changes that uledrec
read from /dev/uleds (CLOCK_MONOTONIC, in the guest), the LED attributes read back from
sysfs after the run, and the exit status and output of the morsetorch process. The expected
Morse timeline is computed here from the ITU rules, independently of morsetorch.

Standard library only.
"""

import base64
import os
import random
import re
import shlex
import statistics
import struct
import subprocess
import sys

MORSETORCH = "/bin/morsetorch"

# The runtime directory root and the members of group leds share, made as the package's
# tmpfiles.d entry (Sources/morsetorch/Packaging/morsetorch.tmpfiles) makes it: root:leds,
# setgid and sticky (3770: a member cannot remove or replace another user's files).
RUNTIME_DIR = "/run/morsetorch"
MAKE_RUNTIME_DIR = (f"mkdir -p {RUNTIME_DIR} && chgrp leds {RUNTIME_DIR} && "
                    f"chmod 3770 {RUNTIME_DIR}")

# Files the guest finds in /data (name -> content), written by `plan`.
DATA_FILES = {}

# Scenarios whose failure is expected (a feature not there yet): they print XFAIL (or XPASS)
# and are counted neither passed nor failed. Remove an entry when its feature lands; more
# can be added from the environment, e.g. VM_EXPECTED_FAILURES="list sigint-from-timer".
EXPECTED_FAILURES = {
    # "rerun-cancel": "issue 3 (a rerun cancels the running transmission) is not merged yet",
}
for _name in os.environ.get("VM_EXPECTED_FAILURES", "").split():
    EXPECTED_FAILURES.setdefault(_name, "listed in VM_EXPECTED_FAILURES")

# The timing message: "PARIS" is the standard word of 50 units.
TIMING_TEXT = "PARIS PARIS"
TIMING_WPM = 20
TIMING_UNIT_MS = 1200 / TIMING_WPM

MORSE = {
    "A": ".-", "B": "-...", "C": "-.-.", "D": "-..", "E": ".", "F": "..-.", "G": "--.",
    "H": "....", "I": "..", "J": ".---", "K": "-.-", "L": ".-..", "M": "--", "N": "-.",
    "O": "---", "P": ".--.", "Q": "--.-", "R": ".-.", "S": "...", "T": "-", "U": "..-",
    "V": "...-", "W": ".--", "X": "-..-", "Y": "-.--", "Z": "--..", "0": "-----",
    "1": ".----", "2": "..---", "3": "...--", "4": "....-", "5": ".....", "6": "-....",
    "7": "--...", "8": "---..", "9": "----.",
}


def itu_edges(text):
    """[(time in units, is_on)] for text: dot 1, dash 3, gaps 1 / 3 (letter) / 7 (word)."""
    edges, t, gap = [], 0, None
    for word in text.upper().split():
        if gap is not None:
            gap = 7
        for letter in word:
            if gap is not None and gap < 3:
                gap = 3
            for mark in MORSE[letter]:
                t += gap or 0
                edges.append((t, True))
                t += 3 if mark == "-" else 1
                edges.append((t, False))
                gap = 1
    return edges


def morsetorch(*args):
    return " ".join([MORSETORCH] + [shlex.quote(a) for a in args])


def state(*leds):
    return "ledstate " + " ".join(shlex.quote(led) for led in leds)


def sysfs(led, attribute, value):
    return f"echo {shlex.quote(str(value))} > {shlex.quote('/sys/class/leds/' + led + '/' + attribute)}"


def shell(script):
    """A compound command for uledrec's MAIN (which it runs as `exec MAIN`)."""
    return "sh -c " + shlex.quote(script)


# ---------------------------------------------------------------------------------------
# Results of one scenario, parsed from uledrec's log and the captured files.


class Run:
    def __init__(self, name, files):
        self.name = name
        self.files = files
        self.leds = {}  # index -> (name, max_brightness)
        self.initial = {}  # index -> first value read (the LED's value at creation)
        self.edges = {}  # index -> [(t_ns, value)] after the initial read
        self.starts, self.exits, self.hangs = {}, {}, {}
        self.actions, self.removed, self.errors = [], {}, []
        for line in files.get("log", "").splitlines():
            words = line.split()
            if not words:
                continue
            kind = words[0]
            if kind == "led":
                self.leds[int(words[1])] = (words[2], int(words[3]))
                self.edges[int(words[1])] = []
            elif kind == "edge":
                index, t, value = int(words[1]), int(words[2]), int(words[3])
                if index not in self.initial:
                    self.initial[index] = value
                else:
                    self.edges[index].append((t, value))
            elif kind == "start":
                self.starts[words[1]] = int(words[2])
            elif kind == "exit":
                self.exits[words[1]] = (int(words[2]), int(words[3]))
            elif kind == "hang":
                self.hangs[words[1]] = int(words[2])
            elif kind == "action":
                self.actions.append((int(words[1]), words[2]))
            elif kind == "removed":
                self.removed.setdefault(int(words[1]), int(words[2]))
            elif kind == "error":
                self.errors.append(line)
        self.uledrec_status = files.get("uledrec.status", "").strip()

    def text(self, name):
        return self.files.get(name, "")

    def final_state(self):
        """{led name: {attribute: value}} from ledstate in the FINAL phase."""
        return parse_state(self.text("final.out"))

    def main_exit(self):
        return self.exits.get("main", (None, None))


def parse_state(text):
    leds, current = {}, None
    for line in text.splitlines():
        key, _, value = line.partition("=")
        if key == "led":
            current = leds.setdefault(value, {})
        elif current is not None:
            current[key] = value
    return leds


def active_trigger(trigger_line):
    match = re.search(r"\[([^\]]+)\]", trigger_line or "")
    return match.group(1) if match else None


class Failure(Exception):
    pass


def require(condition, message):
    if not condition:
        raise Failure(message)


def ms(ns):
    return ns / 1e6


def find_message(run, led, text, unit_ms, on_value, after_ns, before_ns, tolerance_units=None):
    """Finds the transmission of text among LED led's edges between two times.

    The edges must have exactly the expected values; with tolerance_units, also every edge
    within that many units of its expected time (to tell the message from a trigger's
    blinking just before it). Returns a dict with the matched edges and their timing errors
    (ms, offset-free: the median offset between measured and expected times is removed), or
    raises Failure."""
    expected = itu_edges(text)
    edges = [e for e in run.edges[led] if after_ns <= e[0] <= before_ns]
    best = None
    for k, (_, value) in enumerate(edges):
        window = edges[k:k + len(expected)]
        if len(window) < len(expected):
            break
        if any(v != (on_value if on else 0) for (_, v), (_, on) in zip(window, expected)):
            continue
        t0 = window[0][0]
        deltas = [ms(t - t0) - u * unit_ms for (t, _), (u, _) in zip(window, expected)]
        offset = statistics.median(deltas)
        errors = [d - offset for d in deltas]
        if tolerance_units is not None and max(abs(e) for e in errors) > tolerance_units * unit_ms:
            continue
        score = statistics.median(abs(e) for e in errors)
        if best is None or score < best["median"]:
            best = {"edges": window, "errors": errors, "median": score, "index": k}
    if best is None:
        values = " ".join(str(v) for _, v in edges[:12])
        raise Failure(
            f"the {len(expected)} edges of {text!r} (on={on_value}"
            f"{f', within {tolerance_units} unit' if tolerance_units else ''}) not found among the "
            f"{len(edges)} edges the kernel reported during the run (values: {values}"
            f"{' ...' if len(edges) > 12 else ''})")
    errors = best["errors"]
    times = [u * unit_ms for u, _ in expected]
    # Drift: the Theil-Sen slope (median of all pairwise slopes) of error against time, over
    # the message; unlike least squares it is not swung by one emulation stall near an end.
    slopes = [(errors[j] - errors[i]) / (times[j] - times[i])
              for i in range(len(times)) for j in range(i + 1, len(times))]
    slope = statistics.median(slopes)
    best["worst"] = max(abs(e) for e in errors)
    best["drift"] = slope * (times[-1] - times[0])
    best["duration_ms"] = times[-1]
    best["end_ns"] = best["edges"][-1][0]
    best["start_ns"] = best["edges"][0][0]
    # Offset-free lateness of the last edge against the first (simple drift).
    best["last_minus_first"] = errors[-1] - errors[0]
    return best


def check_exit(run, expected_status):
    t, status = run.main_exit()
    require("main" not in run.hangs, f"morsetorch hung and was killed; stderr: "
            f"{run.text('main.err').strip()!r}")
    require(status is not None, "morsetorch did not exit (no exit recorded)")
    require(status == expected_status, f"exit status {status}, expected {expected_status}; "
            f"stderr: {run.text('main.err').strip()!r}")


def check_restored(run, led, trigger, brightness=None, extra=None):
    final = run.final_state().get(led)
    require(final is not None and "missing" not in final, f"{led} missing after the run")
    active = active_trigger(final.get("trigger"))
    require(active == trigger, f"trigger after the run is {active!r}, expected {trigger!r}")
    if brightness is not None:
        require(final.get("brightness") == str(brightness),
                f"brightness after the run is {final.get('brightness')}, expected {brightness}")
    for key, value in (extra or {}).items():
        require(final.get(key) == str(value),
                f"{key} after the run is {final.get(key)}, expected {value}")
    return final


# ---------------------------------------------------------------------------------------
# The scenarios. Each has the guest side (LEDs, commands) and a check on the host side.

SCENARIOS = []
TIMING = {}


def scenario(name, leds, main, setup=None, second=None, event=None, post_ms=300,
             final=None, timeout_ms=20000, kernel_times=False, trace=None, camera=None):
    """kernel_times: the kernel timestamps every brightness an LED is set to (a kprobe on
    uleds_brightness_set, CLOCK_MONOTONIC), saved as the scenario's `trace`, and the
    recorder runs SCHED_IDLE so that it never runs between two writes of the commands.
    trace="gpio": the kernel's gpio_value events (every GPIO line set), saved as `trace`.
    camera: a video device whose picture shows the first LED (uledrec -V)."""
    def register(check):
        SCENARIOS.append(dict(name=name, leds=leds, main=main, setup=setup, second=second,
                              event=event, post_ms=post_ms, timeout_ms=timeout_ms,
                              kernel_times=kernel_times, trace=trace, camera=camera,
                              final=final or (state(*[n for n, _ in leds]) if leds else None),
                              check=check))
        return check
    return register


def timing_scenarios(round_number):
    """One round of the side-by-side timing test: the C writer, then morsetorch."""
    suffix = "" if round_number == 1 else f"-{round_number}"

    @scenario(f"reference-writer{suffix}", [("vm::reference", 255)],
              main=f"refwriter /sys/class/leds/vm::reference/brightness "
                   f"{TIMING_UNIT_MS:.0f} 255 {shlex.quote(TIMING_TEXT)}")
    def check_reference(run):
        check_exit(run, 0)
        message = find_message(run, 0, TIMING_TEXT, TIMING_UNIT_MS, 255, run.starts["main"],
                               run.main_exit()[0])
        TIMING.setdefault(REFERENCE, []).append(message)
        return (f"{len(message['edges'])} edges of {TIMING_TEXT!r} at {TIMING_UNIT_MS:.0f} ms; "
                f"median error {message['median']:.2f} ms, worst {message['worst']:.2f} ms")

    @scenario(f"send-end-to-end{suffix}", [("vm:white:morse", 255)],
              main=morsetorch("send", "--led", "vm:white:morse", "--wpm", str(TIMING_WPM),
                              TIMING_TEXT))
    def check_send(run):
        check_exit(run, 0)
        message = find_message(run, 0, TIMING_TEXT, TIMING_UNIT_MS, 255, run.starts["main"],
                               run.main_exit()[0])
        TIMING.setdefault(MORSETORCH_TIMING, []).append(message)
        later = [e for e in run.edges[0] if e[0] > message["end_ns"]]
        require(not later, f"unexpected brightness changes after the message: {later}")
        check_restored(run, "vm:white:morse", "none", 0)
        return (f"{len(message['edges'])} edges of {TIMING_TEXT!r} at {TIMING_WPM} WPM, exit 0, "
                f"left [none] 0; median error {message['median']:.2f} ms, "
                f"worst {message['worst']:.2f} ms")


REFERENCE = "refwriter (C, clock_nanosleep)"
MORSETORCH_TIMING = "morsetorch"
TIMING_ROUNDS = int(os.environ.get("VM_TIMING_ROUNDS", "3"))
for _round in range(1, TIMING_ROUNDS + 1):
    timing_scenarios(_round)


def pooled(messages):
    errors = sorted(abs(e) for m in messages for e in m["errors"])
    return {"edges": len(errors), "median": statistics.median(errors), "worst": errors[-1],
            "p95": errors[int(0.95 * (len(errors) - 1))],
            "drifts": [m["drift"] for m in messages],
            "duration_ms": messages[0]["duration_ms"]}


def check_timing():
    """The verdict on morsetorch's timing, judged against the C writer in the same VM."""
    require(TIMING.get(REFERENCE) and TIMING.get(MORSETORCH_TIMING),
            "no complete timing runs to compare")
    reference, measured = pooled(TIMING[REFERENCE]), pooled(TIMING[MORSETORCH_TIMING])
    # Emulation adds its own jitter (and stalls of tens of ms), so the median is judged, not
    # the worst edge, and against what the minimal writer achieved in the same VM.
    limit = max(2.0, 3 * reference["median"] + 1.0)
    require(measured["median"] <= limit,
            f"median edge error {measured['median']:.2f} ms > {limit:.2f} ms "
            f"(reference writer: {reference['median']:.2f} ms)")
    # Sleeping relative to the last write instead of to absolute deadlines would add up the
    # write and wake-up latency of every step (>= 0.2 ms each here, 56 steps): > 10 ms.
    # The median round is judged: one round slowed down by a busy host (the guest's clock
    # runs on the emulator's) must not decide, while a relative sleeper drifts in every round.
    drift_limit = max(10.0, max(abs(d) for d in reference["drifts"]) + 5.0)
    typical_drift = statistics.median(measured["drifts"])
    require(abs(typical_drift) <= drift_limit,
            f"drift {typical_drift:+.2f} ms over the message (median of "
            f"{len(measured['drifts'])} rounds) > {drift_limit:.1f} ms")
    return (f"median edge error {measured['median']:.2f} ms (limit {limit:.2f}), drift "
            f"{typical_drift:+.2f} ms (median round; limit {drift_limit:.1f}) over "
            f"{len(TIMING[MORSETORCH_TIMING])} runs")


@scenario("restore-none-brightness", [("vm::none", 255)],
          setup=sysfs("vm::none", "brightness", 7),
          main=morsetorch("send", "--led", "vm::none", "--wpm", "10", "ET"))
def check_restore_none(run):
    check_exit(run, 0)
    message = find_message(run, 0, "ET", 120, 255, run.starts["main"], run.main_exit()[0])
    after = [v for t, v in run.edges[0] if t > message["end_ns"]]
    require(after == [7], f"after the message the kernel reported {after}, expected [7]")
    check_restored(run, "vm::none", "none", 7)
    return "ET sent from [none] at 7/255; back to [none] 7"


@scenario("restore-timer", [("vm::timer", 255)],
          setup=" && ".join([sysfs("vm::timer", "trigger", "timer"),
                             sysfs("vm::timer", "delay_on", 70),
                             sysfs("vm::timer", "delay_off", 130)]),
          main=morsetorch("send", "--led", "vm::timer", "--wpm", "10", "--brightness", "200", "ET"),
          post_ms=1500)
def check_restore_timer(run):
    check_exit(run, 0)
    # The message is sent at 200, the timer blinks at 255: the values tell them apart.
    find_message(run, 0, "ET", 120, 200, run.starts["main"], run.main_exit()[0])
    check_restored(run, "vm::timer", "timer", extra={"delay_on": 70, "delay_off": 130})
    exit_ns = run.main_exit()[0]
    blink = [e for e in run.edges[0] if e[0] > exit_ns + 300e6]
    require(len(blink) >= 6, f"only {len(blink)} brightness changes in the 1.2 s after the "
            f"restore: the timer is not blinking")
    on = [ms(b[0] - a[0]) for a, b in zip(blink, blink[1:]) if a[1] > 0]
    off = [ms(b[0] - a[0]) for a, b in zip(blink, blink[1:]) if a[1] == 0]
    on_ms, off_ms = statistics.median(on), statistics.median(off)
    # The delays themselves were read back from sysfs above. Here: the kernel really blinks
    # with them, not with the timer's default 500/500. The exact rate is the emulated
    # kernel's (HZ=250 jiffies, and slower still when the host is busy), so only the shape is
    # judged: both well under the default, on shorter than off.
    require(on_ms < 250 and off_ms < 250 and on_ms < off_ms,
            f"blinking {on_ms:.0f} ms on / {off_ms:.0f} ms off, expected about 70 / 130")
    return f"back to [timer] 70/130, kernel reports {on_ms:.0f} ms on / {off_ms:.0f} ms off"


@scenario("restore-heartbeat", [("vm::heartbeat", 255)],
          setup=" && ".join([sysfs("vm::heartbeat", "trigger", "heartbeat"),
                             sysfs("vm::heartbeat", "invert", 1)]),
          main=morsetorch("send", "--led", "vm::heartbeat", "--wpm", "10", "--brightness", "200",
                         "ET"),
          post_ms=3000)
def check_restore_heartbeat(run):
    check_exit(run, 0)
    find_message(run, 0, "ET", 120, 200, run.starts["main"], run.main_exit()[0])
    check_restored(run, "vm::heartbeat", "heartbeat", extra={"invert": 1})
    exit_ns = run.main_exit()[0]
    beats = [e for e in run.edges[0] if e[0] > exit_ns + 100e6]
    require(len(beats) >= 4, f"only {len(beats)} brightness changes in the ~3 s after the "
            f"restore: no heartbeat")
    end = run.starts.get("final", beats[-1][0])
    on_ns = sum((b[0] if b is not None else end) - a[0]
                for a, b in zip(beats, beats[1:] + [None]) if a[1] > 0)
    fraction = on_ns / (end - beats[0][0])
    require(fraction > 0.5, f"LED on {fraction:.0%} of the time after the restore: "
            f"heartbeat's invert was not restored")
    return f"back to [heartbeat] invert=1, {len(beats)} beats seen, LED on {fraction:.0%}"


@scenario("list", [("vm:green:list", 255), ("vm::list-binary", 1)],
          setup=" && ".join([sysfs("vm:green:list", "trigger", "timer"),
                             sysfs("vm::list-binary", "brightness", 1)]),
          main=morsetorch("list"),
          final="ledstate $(ls /sys/class/leds)")
def check_list(run):
    check_exit(run, 0)
    output = run.text("main.out")
    truth = run.final_state()
    require("input0::capslock" in truth, "the VM has no input0::capslock LED")
    require(truth["input0::capslock"].get("max_brightness") == "1",
            "input0::capslock does not have max_brightness 1")
    lines = output.splitlines()
    require(lines, "`list` printed nothing")
    header = lines[0].split()
    require(header[:3] == ["NAME", "MAX", "TRIGGER"] and "BRIGHTNESS" in header,
            f"unexpected `list` header {lines[0]!r}")
    rows = {line.split()[0]: dict(zip(header, line.split())) for line in lines[1:] if line.strip()}
    require(set(rows) == set(truth), f"`list` names {sorted(rows)}, sysfs has {sorted(truth)}")
    for name, attributes in truth.items():
        row = rows[name]
        trigger = active_trigger(attributes["trigger"])
        require(row["MAX"] == attributes["max_brightness"] and row["TRIGGER"] == trigger,
                f"`list` says {name} has max {row['MAX']} and trigger {row['TRIGGER']}; sysfs: "
                f"{attributes['max_brightness']} and {trigger}")
        if trigger == "none":  # a blinking LED's brightness changes between the two reads
            require(row["BRIGHTNESS"] == attributes["brightness"],
                    f"`list` says {name} has brightness {row['BRIGHTNESS']}, sysfs "
                    f"{attributes['brightness']}")
        if "WRITABLE" in row:
            require(row["WRITABLE"] == "yes", f"`list` says root cannot write {name}")
    return f"{len(truth)} LEDs listed with max_brightness and trigger, incl. input0::capslock"


@scenario("brightness-percent", [("vm::dim", 200)],
          main=morsetorch("send", "--led", "vm::dim", "--wpm", "20", "--brightness", "40%",
                          "EE"))
def check_percent(run):
    check_exit(run, 0)
    find_message(run, 0, "EE", 60, 80, run.starts["main"], run.main_exit()[0])
    check_restored(run, "vm::dim", "none", 0)
    return "--brightness 40% of max 200 gives 80 in the kernel"


@scenario("rerun-cancel", [("vm::rerun", 255)],
          setup=sysfs("vm::rerun", "brightness", 5),
          main=morsetorch("send", "--led", "vm::rerun", "--unit", "1000", "TT"),
          event="0:1:300:second",
          second=morsetorch("send", "--led", "vm::rerun", "E"))
def check_rerun(run):
    require("second" in run.starts, "the second morsetorch never started (first dash not seen)")
    second_start = run.starts["second"]
    second_t, second_status = run.exits.get("second", (None, None))
    output = (run.text("second.out") + run.text("second.err")).strip()
    main_t, main_status = run.main_exit()
    require("main" not in run.hangs and "second" not in run.hangs, "a morsetorch run hung")
    ons = [e for e in run.edges[0] if e[1] == 255]
    require(ons, "the first run never switched the LED on")
    dash_on = ons[0][0]
    dash_end = dash_on + 3000e6
    changes = [(round(ms(t - second_start)), v) for t, v in run.edges[0] if t > second_start]
    # Cancelled: the first run stops mid-dash (exits before its dash would have ended), the
    # LED goes off and stays off until the original brightness (5) is put back.
    require(main_t < dash_end,
            f"the first run was not cancelled: it exited {main_status} "
            f"{ms(main_t - second_start):.0f} ms after the rerun started, after its whole message; "
            f"the rerun exited {second_status} printing {output!r}; brightness changes after the "
            f"rerun started (ms, value): {changes}")
    require([v for _, v in changes] == [0, 5],
            f"after the rerun the kernel reported (ms, value) {changes}, expected off then 5")
    require(second_status == 4, f"the rerun exited {second_status}, expected 4: {output!r}")
    said = run.text("second.out").strip()
    require(len(said.splitlines()) == 1, f"the rerun printed {said!r}, expected one line")
    # Another text than the one it cancelled: how to send it instead, or after.
    require("--replace" in run.text("second.err") and "--wait" in run.text("second.err"),
            f"the rerun of another text did not name --replace and --wait: {output!r}")
    require(main_status == 143, f"the cancelled run exited {main_status}, expected 143")
    check_restored(run, "vm::rerun", "none", 5)
    off_t = [t for t, v in run.edges[0] if t > second_start][0]
    return (f"cancelled {ms(off_t - dash_on):.0f} ms into a 3000 ms dash; first run "
            f"exit {main_status} {ms(main_t - second_start):.0f} ms after the rerun started; "
            f"rerun: {output!r}")


@scenario("rerun-replace", [("vm::replace", 255)],
          setup=sysfs("vm::replace", "brightness", 5),
          main=morsetorch("send", "--led", "vm::replace", "--unit", "1000", "TT"),
          event="0:1:300:second",
          second=morsetorch("send", "--replace", "--led", "vm::replace", "--wpm", "20", "E"))
def check_replace(run):
    require("second" in run.starts, "the second morsetorch never started (first dash not seen)")
    second_start = run.starts["second"]
    main_t, main_status = run.main_exit()
    second_t, second_status = run.exits.get("second", (None, None))
    require("main" not in run.hangs and "second" not in run.hangs, "a morsetorch run hung")
    require(main_status == 143, f"the replaced run exited {main_status}, expected 143")
    require(second_status == 0, f"the --replace run exited {second_status}, expected 0: "
            f"{run.text('second.err').strip()!r}")
    dash_on = [t for t, v in run.edges[0] if v == 255][0]
    require(main_t < dash_on + 3000e6, "the first run was not cancelled mid-dash")
    after = [(t, v) for t, v in run.edges[0] if t > second_start]
    values = [v for _, v in after]
    # The first run puts the LED back (off, 5), the second sends E (255 for 60 ms) and puts
    # back the state it found: 5, the original, never the first run's "on".
    require(values[-3:] == [255, 0, 5] and values.count(255) == 1 and 0 in values[:-3],
            f"after the --replace run started the kernel reported {values}, expected off, "
            f"then E (255, 0) and 5")
    on_ms = ms(after[-2][0] - after[-3][0])
    require(abs(on_ms - 60) < 30, f"the replacing E was on for {on_ms:.0f} ms, expected 60")
    check_restored(run, "vm::replace", "none", 5)
    return (f"first run cancelled (exit 143), then E sent ({on_ms:.0f} ms), back to [none] 5; "
            f"kernel saw {values}")


@scenario("sigkill-then-stop-recovers", [("vm::killed", 255)],
          setup=" && ".join([sysfs("vm::killed", "trigger", "timer"),
                             sysfs("vm::killed", "delay_on", 100),
                             sysfs("vm::killed", "delay_off", 300)]),
          main=morsetorch("send", "--led", "vm::killed", "--wpm", "10", "--brightness", "200",
                          "PARIS"),
          event="0:2:60:kill:200",
          final=morsetorch("stop", "--led", "vm::killed") + "; echo stop-status=$?; "
                "sleep 1.5; ledstate vm::killed")
def check_sigkill(run):
    t, status = run.main_exit()
    require(status == 128 + 9, f"exit status {status}, expected 137 (SIGKILL)")
    stuck = [v for t_, v in run.edges[0] if t < t_ < run.starts["final"]]
    require(not stuck, f"brightness changed after SIGKILL, before the recovery: {stuck}")
    last = [v for t_, v in run.edges[0] if t_ < t][-1]
    require(last == 200, f"the LED was {last} when killed, expected on (200, mid-dash)")
    recovered = [(t_, v) for t_, v in run.edges[0] if t_ > run.starts["final"]]
    require(len(recovered) >= 4, f"after `stop` the kernel reported {[v for _, v in recovered]}: "
            f"the timer was not restored")
    stop_status = re.search(r"stop-status=(\d+)", run.text("final.out"))
    check_restored(run, "vm::killed", "timer", extra={"delay_on": 100, "delay_off": 300})
    return (f"killed mid-dash (LED stuck on); `stop` exit {stop_status and stop_status.group(1)} "
            f"restored [timer] 100/300, blinking again ({len(recovered)} changes in 1.5 s); "
            f"stop said {run.text('final.err').strip()!r}")


@scenario("sigterm-mid-message", [("vm::sigterm", 255)],
          setup=sysfs("vm::sigterm", "brightness", 3),
          main=morsetorch("send", "--led", "vm::sigterm", "--wpm", "10", "PARIS"),
          event="0:2:60:term:255")
def check_sigterm(run):
    check_exit(run, 143)
    action_t = run.actions[0][0]
    after = [e for e in run.edges[0] if e[0] > action_t]
    require([v for _, v in after] == [0, 3],
            f"after SIGTERM the kernel reported {[v for _, v in after]}, expected [0, 3]")
    off_ms = ms(after[0][0] - action_t)
    exit_ms = ms(run.main_exit()[0] - action_t)
    # Latency is the benchmark's to measure; in an emulated guest a stall of a few hundred
    # milliseconds happens. What must hold: the LED goes off promptly, not at the end.
    require(off_ms < 1000, f"LED went off {off_ms:.0f} ms after SIGTERM")
    require(exit_ms < 1000, f"exited {exit_ms:.0f} ms after SIGTERM")
    check_restored(run, "vm::sigterm", "none", 3)
    return f"SIGTERM mid-dash: off after {off_ms:.1f} ms, exit 143 after {exit_ms:.0f} ms, back to 3"


@scenario("sigint-from-timer", [("vm::sigint", 255)],
          setup=" && ".join([sysfs("vm::sigint", "trigger", "timer"),
                             sysfs("vm::sigint", "delay_on", 100),
                             sysfs("vm::sigint", "delay_off", 300)]),
          main=morsetorch("send", "--led", "vm::sigint", "--wpm", "10", "--brightness", "200",
                          "PARIS"),
          event="0:0:1000:int", post_ms=1000)
def check_sigint(run):
    check_exit(run, 130)
    exit_ms = ms(run.main_exit()[0] - run.actions[0][0])
    require(exit_ms < 1000, f"exited {exit_ms:.0f} ms after SIGINT")
    check_restored(run, "vm::sigint", "timer", extra={"delay_on": 100, "delay_off": 300})
    blink = [e for e in run.edges[0] if e[0] > run.main_exit()[0]]
    require(len(blink) >= 3, "the timer is not blinking after SIGINT")
    return f"SIGINT: exit 130 after {exit_ms:.0f} ms, back to [timer] 100/300 and blinking"


@scenario("led-removed-mid-message", [("vm::vanishing", 255)],
          main=morsetorch("send", "--led", "vm::vanishing", "--wpm", "20", "PARIS PARIS"),
          event="0:4:20:remove", final="ls /sys/class/leds; ls -l /run/morsetorch >&2")
def check_removed(run):
    t, status = run.main_exit()
    require("main" not in run.hangs, "morsetorch hung after its LED was removed")
    require(status is not None and status != 0,
            f"exit status {status} after the LED was removed, expected non-zero")
    removed_t = run.removed[0]
    # The next step boundary after the removal, on the expected timeline.
    first_on = run.edges[0][0][0]
    boundaries = [first_on + u * TIMING_UNIT_MS * 1e6 for u, _ in itu_edges("PARIS PARIS")]
    next_write = min(b for b in boundaries if b > removed_t)
    late_ms = ms(t - next_write)
    require(late_ms < TIMING_UNIT_MS + 300,
            f"exited {late_ms:.0f} ms after the first write that should have failed")
    message = run.text("main.err").strip()
    require(message, "no error message on stderr")
    require("vm::vanishing" not in run.text("final.out"), "the LED is still there")
    leftovers = [line.split()[-1] for line in run.text("final.err").splitlines()
                 if "vm::vanishing" in line]
    return (f"exit {status} {ms(t - removed_t):.0f} ms after removal "
            f"({late_ms:+.0f} ms after the next write was due): {message!r}; runtime files "
            f"left for the LED: {leftovers or 'none'}")


# ---------------------------------------------------------------------------------------


@scenario("restore-netdev", [("vm::netdev", 255)],
          setup=" && ".join([sysfs("vm::netdev", "trigger", "netdev"),
                             sysfs("vm::netdev", "device_name", "lo"),
                             sysfs("vm::netdev", "rx", 1), sysfs("vm::netdev", "tx", 1),
                             sysfs("vm::netdev", "interval", 80)]),
          main=morsetorch("send", "--led", "vm::netdev", "--wpm", "20", "--brightness", "200",
                          "EE"))
def check_restore_netdev(run):
    check_exit(run, 0)
    find_message(run, 0, "EE", 60, 200, run.starts["main"], run.main_exit()[0])
    check_restored(run, "vm::netdev", "netdev",
                   extra={"device_name": "lo", "rx": 1, "tx": 1, "interval": 80})
    return "back to [netdev] on lo with rx, tx and interval 80: restored from the files that went with it"


MEMBER = "su -s /bin/sh morse -c "


@scenario("group-member-timer", [("vm::member", 255)],
          setup=" && ".join([
              sysfs("vm::member", "trigger", "timer"), sysfs("vm::member", "delay_on", 70),
              sysfs("vm::member", "delay_off", 130), "sleep 0.3",
              "ls -ln /sys/class/leds/vm::member/ > /results/group-member-timer/files.txt"]),
          main=MEMBER + shlex.quote(morsetorch("send", "--led", "vm::member", "--wpm", "10",
                                               "--brightness", "200", "ET")),
          final="ledstate vm::member; " + MEMBER + shlex.quote(morsetorch("list"))
                + "; cp /tmp/uevents.log /results/group-member-timer/uevents.txt")
def check_group_member(run):
    check_exit(run, 0)
    find_message(run, 0, "ET", 120, 200, run.starts["main"], run.main_exit()[0])
    check_restored(run, "vm::member", "timer", extra={"delay_on": 70, "delay_off": 130})
    listed = [line for line in run.text("final.out").splitlines()
              if line.startswith("vm::member ")]
    require(listed and listed[0].split()[-1] == "yes",
            f"`list` as the group member says {listed}: not WRITABLE yes")
    changes = [line for line in run.text("uevents.txt").splitlines()
               if line.startswith("change ") and "vm::member" in line]
    delay_on = [line for line in run.text("files.txt").splitlines() if "delay_on" in line]
    return (f"a non-root member of leds sent and restored [timer] 70/130; "
            f"{len(changes)} change uevents for it; delay_on after `timer` and the rule: "
            f"{' '.join(delay_on[0].split()[:4]) if delay_on else '?'}")


# Two users of one LED, as Debian sets the kernel up: fs.protected_regular = 2 (its
# /usr/lib/sysctl.d/99-protect-links.conf) refuses an O_CREAT open of another user's file in
# a group-writable sticky directory, root's too. The member sends first (its lock file stays),
# then root sends on the same LED.
SHARED = "vm::shared"


@scenario("second-user-protected-regular", [(SHARED, 255)],
          setup=" && ".join([sysfs(SHARED, "trigger", "timer"), sysfs(SHARED, "delay_on", 100),
                             sysfs(SHARED, "delay_off", 300),
                             "cat /proc/sys/fs/protected_regular > /tmp/protected_regular",
                             "echo 2 > /proc/sys/fs/protected_regular",
                             # (the udev rule gives the group the timer's files on the
                             # change event)
                             "sleep 0.3"]),
          # (sh -c: the main command is run with `exec`.)
          main="sh -c " + shlex.quote(
              MEMBER + shlex.quote(morsetorch("send", "--led", SHARED, "--wpm", "20", "E"))
              + f"; echo member $? owner $(stat -c %u {RUNTIME_DIR}/{SHARED}.lock); "
              + morsetorch("send", "--led", SHARED, "--wpm", "20", "T") + "; echo root $?"),
          final=f"cat /tmp/protected_regular > /proc/sys/fs/protected_regular; ledstate {SHARED}")
def check_second_user(run):
    check_exit(run, 0)
    said = run.text("main.out").split()
    require(said == ["member", "0", "owner", "1000", "root", "0"],
            f"the member's exit status, its lock file's owner, root's exit status: "
            f"{' '.join(said)!r}; root said {run.text('main.err').strip()!r}")
    find_message(run, 0, "ET", 60, 255, run.starts["main"], run.main_exit()[0])
    check_restored(run, SHARED, "timer", extra={"delay_on": 100, "delay_off": 300})
    return ("with fs.protected_regular = 2, the member sent E, then root T on the member's "
            "lock file; both exit 0, back to [timer] 100/300")


# A member of leds plants a leftover record naming a file only root may write; root's next
# status, stop and send must not write it (guest/planted-record, guest/plant-record).

PLANTED = "vm::planted"
PLANTED_INPUT = "input0::capslock"


def planted_record(led, trigger, settings):
    """A record in exactly the format morsetorch writes (RecordFormat: lines of KEY VALUE
    after a version line; the saved state as `saved NAME VALUE` fields, SavedLEDState), as a
    sender killed mid-message leaves it. plant-record fills in @PID@, @NOW@, @TRIGGER@ and
    @CONTENT@."""
    lines = ["morsetorch state record 2", "pid @PID@", f"device {led}", "started @NOW@.5",
             "text PARIS", "total 5", "sent 1", "line 1", f"saved trigger {trigger}",
             "saved brightness 0"]
    lines += [f"saved setting {name} {content}" for name, content in settings]
    return "\n".join(lines) + "\n"


# vm::planted: on [timer] 100/300, which the record names too (a member may set those), and
# power/control, which the udev rule leaves to root. input0::capslock: its own trigger, and
# device/inhibited of its input device, through the LED's `device` symlink.
DATA_FILES[f"planted-{PLANTED}.state"] = planted_record(
    PLANTED, "timer", [("delay_on", "100"), ("delay_off", "300"), ("power/control", "@CONTENT@")])
DATA_FILES[f"planted-{PLANTED_INPUT}.state"] = planted_record(
    PLANTED_INPUT, "@TRIGGER@", [("device/inhibited", "@CONTENT@")])

ROOT_ONLY = {"pc": f"{PLANTED}/power/control", "inhibited": f"{PLANTED_INPUT}/device/inhibited"}
PLANTED_STEPS = {"status": [], "stop-planted": [PLANTED], "stop-input": [PLANTED_INPUT],
                 "send-planted": [PLANTED], "send-input": [PLANTED_INPUT]}


@scenario("planted-record-root-only", [(PLANTED, 255)],
          setup=" && ".join([sysfs(PLANTED, "trigger", "timer"), sysfs(PLANTED, "delay_on", 100),
                             sysfs(PLANTED, "delay_off", 300), "sleep 0.3"]),
          main="planted-record /results/planted-record-root-only", timeout_ms=60000,
          final=f"ledstate {PLANTED} {PLANTED_INPUT}; ls -lan {RUNTIME_DIR}")
def check_planted_record(run):
    check_exit(run, 0)
    said = run.text("main.out")
    lines = [line.split() for line in said.splitlines() if line.strip()]
    start = next((dict(w.split("=", 1) for w in words[1:]) for words in lines
                  if words[0] == "start"), None)
    require(start, f"the guest script printed no start line: {said!r} "
            f"{run.text('main.err').strip()!r}")
    for key, path in ROOT_ONLY.items():
        require(start.get(key) not in (None, "", "(none)"),
                f"this kernel has no {path} to plant a record for")
    may = {words[1].split("/leds/")[-1]: words[2] for words in lines
           if words[0] == "member-may-write"}
    for path in ROOT_ONLY.values():
        require(may.get(path) == "no", f"the member may write {path} itself ({may.get(path)}): "
                f"no attack to test")
    planted = {(words[1], words[2]): " ".join(words[3:]) for words in lines
               if words[0] == "planted"}
    for step, leds in PLANTED_STEPS.items():
        for led in leds or [PLANTED, PLANTED_INPUT]:
            made = planted.get((step, led), "")
            # The record (0644) and the lock (0664), both the member's, as morsetorch makes them.
            require(made == "uid=1000 mode=644 uid=1000 mode=664",
                    f"{step}: the member did not plant {led}'s record and lock as morsetorch "
                    f"makes them: {made or 'nothing'} {run.text(step + '.plant').strip()!r}")
    ran = {words[1]: (words[2], " ".join(words[3:])) for words in lines if words[0] == "ran"}
    after = {words[1]: dict(w.split("=", 1) for w in words[2:]) for words in lines
             if words[0] == "after"}
    wrote, changed, statuses = [], [], []
    for step in PLANTED_STEPS:
        require(step in ran and step in after, f"the guest script did not get to {step}: "
                f"{said!r}")
        status, command = ran[step]
        statuses.append(f"`{command.removeprefix('morsetorch ')}` {status}")
        state = after[step]
        said_by = run.text(step + ".err").strip().replace("\n", " / ")
        written = [f"{ROOT_ONLY[key]}: {start[key]} -> {state.get(key)}" for key in ROOT_ONLY
                   if state.get(key) != start[key]]
        if written:
            wrote.append(f"root's `{command}` (exit {status}) wrote " + " and ".join(written)
                         + (f" (it said {said_by!r})" if said_by else ""))
        # The LEDs as they were: the record names nothing else a member could not have set.
        expected = {"trigger": "timer", "delay_on": "100", "delay_off": "300",
                    "itrigger": start["itrigger"]}
        off = [f"{key} {state.get(key)} (was {value})" for key, value in expected.items()
               if state.get(key) != value]
        if off:
            changed.append(f"after `{command}` the LEDs are not as they were: {', '.join(off)}")
    require(not wrote, "; ".join(wrote + changed))
    require(not changed, "; ".join(changed))
    return (f"records planted by morse (0644/0664, uid 1000) asking for "
            f"{ROOT_ONLY['pc']} {start['pc']} -> "
            f"{'on' if start['pc'] == 'auto' else 'auto'} and {ROOT_ONLY['inhibited']} "
            f"{start['inhibited']} -> {'1' if start['inhibited'] == '0' else '0'}: untouched "
            f"by root's {', '.join(statuses)} (exit statuses); LEDs left as they were "
            f"([timer] 100/300, [{start['itrigger']}])")


@scenario("no-run-directory", [("vm::norun", 255)],
          setup="umount /run && mv /run /run.off",
          main="env -u MORSETORCH_RUNTIME_DIR -u XDG_RUNTIME_DIR "
               + morsetorch("send", "--led", "vm::norun", "--wpm", "20", "EE"),
          final="ledstate vm::norun; ls -ld /tmp/morsetorch-0 >&2; mv /run.off /run; "
                "mount -t tmpfs tmpfs /run; " + MAKE_RUNTIME_DIR)
def check_no_run(run):
    check_exit(run, 0)
    find_message(run, 0, "EE", 60, 255, run.starts["main"], run.main_exit()[0])
    check_restored(run, "vm::norun", "none")
    listing = run.text("final.err").strip()
    require("/tmp/morsetorch-0" in listing and listing.startswith("drwx------"),
            f"no private runtime directory in /tmp: {listing!r}")
    return f"without /run nor XDG_RUNTIME_DIR, sent with {listing.split()[-1]}"


# Root on a read-only mount of the LED (a container's /sys, a unit's ProtectKernelTunables=):
# sysfs answers EROFS, which is said as such, with the mount, never as EACCES with group advice.
@scenario("read-only-sysfs", [("vm::readonly", 255)],
          setup=sysfs("vm::readonly", "brightness", 5),
          main=shell("d=$(readlink -f /sys/class/leds/vm::readonly) && mount --bind $d $d && "
                     "mount -o remount,bind,ro $d && "
                     + morsetorch("send", "--led", "vm::readonly", "--wpm", "20", "E")
                     + "; echo status $?; umount $d"))
def check_read_only(run):
    said, err = run.text("main.out").split(), run.text("main.err")
    require(said == ["status", "77"], f"exit {said!r}, expected 77; said {err!r}")
    require("Read-only file system (EROFS)" in err and "mounted read-only at /sys/devices/" in err,
            f"not said as a read-only mount: {err!r}")
    require("EACCES" not in err and "usermod" not in err, f"group advice to root: {err!r}")
    switched = [e for e in run.edges[0] if e[0] > run.starts["main"]]
    require(not switched, f"the LED was switched: {switched}")
    check_restored(run, "vm::readonly", "none", 5)
    return "a read-only bind mount of the LED: exit 77, EROFS and the mount said, LED untouched"


# Ctrl-Z (SIGTSTP) mid-dash: the LED goes back to its timer while the job is stopped, and the
# message goes on when it is continued.
@scenario("stopped-and-continued", [("vm::tstp", 255)],
          setup=" && ".join([sysfs("vm::tstp", "trigger", "timer"),
                             sysfs("vm::tstp", "delay_on", 100),
                             sysfs("vm::tstp", "delay_off", 300)]),
          # (pgrun: a process group of its own, as a job of an interactive shell.)
          main=shell("pgrun " + morsetorch("send", "--led", "vm::tstp", "--wpm", "5",
                                           "--brightness", "200", "TE")
                     + " & job=$!; sleep 0.4; p=$(pidof morsetorch); kill -TSTP $p; sleep 0.8; "
                     "echo state=$(cut -d' ' -f3 /proc/$p/stat); ledstate vm::tstp; "
                     "kill -CONT $p; wait $job; echo status=$?"),
          timeout_ms=30000)
def check_stopped(run):
    said = run.text("main.out")
    stopped = parse_state(said).get("vm::tstp", {})
    require("state=T" in said.splitlines() and "status=0" in said.splitlines(),
            f"not stopped, or not exit 0 after: {said!r}; said {run.text('main.err')!r}")
    require(active_trigger(stopped.get("trigger")) == "timer",
            f"while stopped the LED was not back on its timer: {stopped}")
    # T's mark, then E's once continued (1.2 s after T began, 0.4 of it before the stop).
    marks = [t for t, v in run.edges[0] if v == 200]
    require(len(marks) >= 2 and ms(marks[-1] - marks[0]) > 1200,
            f"the message did not go on after the stop: marks at {marks}")
    check_restored(run, "vm::tstp", "timer", extra={"delay_on": 100, "delay_off": 300})
    return (f"SIGTSTP mid-dash: stopped with the LED back on [timer]; continued, E "
            f"{ms(marks[-1] - marks[0]):.0f} ms after T, exit 0, back to [timer] 100/300")


@scenario("loop-stopped", [("vm::loop", 255)],
          setup=" && ".join([sysfs("vm::loop", "trigger", "timer"),
                             sysfs("vm::loop", "delay_on", 100),
                             sysfs("vm::loop", "delay_off", 300)]),
          main=morsetorch("send", "--led", "vm::loop", "--loop", "--wpm", "20", "--pause",
                          "500ms", "--brightness", "200", "E"),
          event="0:3:30:second:200",
          second=morsetorch("stop", "--led", "vm::loop"))
def check_loop_stopped(run):
    require("second" in run.starts, "`stop` never started (the third round was not seen)")
    main_t, main_status = run.main_exit()
    require(main_status == 143, f"the loop exited {main_status}, expected 143")
    second_status = run.exits.get("second", (None, None))[1]
    require(second_status == 0, f"`stop` exited {second_status}: {run.text('second.err')!r}")
    rounds = [t for t, v in run.edges[0] if v == 200 and t < main_t]
    require(len(rounds) >= 3, f"only {len(rounds)} rounds before the stop")
    gaps = [ms(b - a) for a, b in zip(rounds, rounds[1:])]
    # One round: a 60 ms dot and a 500 ms pause (at least a word gap: 420 ms at 20 WPM).
    require(all(500 < g < 700 for g in gaps), f"rounds started {gaps} ms apart, expected ~560")
    check_restored(run, "vm::loop", "timer", extra={"delay_on": 100, "delay_off": 300})
    return (f"--loop: {len(rounds)} rounds {', '.join(f'{g:.0f}' for g in gaps)} ms apart, "
            f"stopped by `stop` (exit 143), back to [timer] 100/300")


@scenario("two-leds-lockstep", [("vm:red:pair", 255), ("vm:green:pair", 100)],
          setup=" && ".join([sysfs("vm:red:pair", "trigger", "timer"),
                             sysfs("vm:red:pair", "delay_on", 100),
                             sysfs("vm:red:pair", "delay_off", 300)]),
          main=morsetorch("send", "--led", "vm:*:pair", "--repeat", "3", "--pause", "420ms",
                          "--wpm", "20", "EN"),
          kernel_times=True)
def check_two_leds_lockstep(run):
    check_exit(run, 0)
    start, end = run.starts["main"], run.main_exit()[0]
    edges = kernel_edges(run)
    require(edges, f"no kernel timestamps (kprobe trace): {run.text('trace')[:300]!r}")
    # Each LED at its own maximum: green 100, red 255; E N is 3 flashes a round. Red was on
    # its timer before and after: its morse edges are those at its maximum, and the 0 after
    # each, within the run.
    green = [e for e in edges.get("vm:green:pair", []) if start <= e[0] <= end]
    # The kernel sees every write: the restore's 0s come after the 9 flashes.
    require([v for _, v in green[:18]] == [100, 0] * 9 and not any(v for _, v in green[18:]),
            f"green: {[v for _, v in green]}, expected 9 flashes at 100, then only 0")
    green = green[:18]
    red = [e for e in edges.get("vm:red:pair", []) if green[0][0] - 5e6 <= e[0] <= green[-1][0] + 5e6]
    skews = []
    for t, value in green:
        wanted = 255 if value else 0
        near = [abs(ms(r - t)) for r, v in red if v == wanted]
        require(near, f"red has no edge to {wanted} to pair with green's at {ms(t - start):.1f} ms")
        skews.append(min(near))
    require(max(skews) <= 2.0,
            f"the two LEDs switched up to {max(skews):.2f} ms apart (at most 2 ms allowed)")
    check_restored(run, "vm:red:pair", "timer", extra={"delay_on": 100, "delay_off": 300})
    check_restored(run, "vm:green:pair", "none", 0)
    return (f"--repeat 3 on 2 LEDs: 36 edges, each pair at most {max(skews):.3f} ms apart "
            f"(median {statistics.median(skews):.3f} ms, kernel timestamps); "
            f"back to [timer] 100/300 and [none] 0")


# ---------------------------------------------------------------------------------------
# GPIO lines, on the gpio-sim chip the guest's init makes: label morse-sim, KEY (line 3) an
# input keyed through its pull, LED (line 5) an output; /gpio-sim is its sysfs directory.

SIM = "/gpio-sim"


def gpio_edges(run):
    """[(t_ns, value)] of every GPIO line set, from the scenario's gpio_value trace."""
    edges = []
    for line in run.text("trace").splitlines():
        match = re.search(r"\s(\d+)\.(\d{6}): gpio_value: \d+ set (\d+)", line)
        if match:
            edges.append((int(match.group(1)) * 1_000_000_000 + int(match.group(2)) * 1000,
                          int(match.group(3))))
    return edges


# The plumbing first, without morsetorch: the chip as the kernel shows it, the gpio_value
# trace of a line set at known deadlines, and line events of the pull written at known
# deadlines, all by the small C helper gpioline (guest/gpioline.c, uAPI v2).

SIM_CONFIG = "/sys/kernel/config/gpio-sim/morse"
SIM_CHIP = f"/dev/$(cat {SIM_CONFIG}/bank0/chip_name)"
SIM_LINES = {3: "KEY", 5: "LED"}


def records(text, kind):
    """The words after `kind` of every line of gpioline's or edgeplay's output that starts
    with it."""
    return [line.split()[1:] for line in text.splitlines() if line.split()[:1] == [kind]]


@scenario("gpio-sim-up", [], main=shell(
    f"gpioline info {SIM_CHIP}; "
    f"echo configfs $(ls {SIM_CONFIG}) / bank0 $(ls {SIM_CONFIG}/bank0) / "
    f"line3 $(ls {SIM_CONFIG}/bank0/line3); "
    f"echo live=$(cat {SIM_CONFIG}/live) dev_name=$(cat {SIM_CONFIG}/dev_name) "
    f"chip_name=$(cat {SIM_CONFIG}/bank0/chip_name); "
    f"echo sysfs=$(readlink -f {SIM}) sim_gpio3: $(ls {SIM}/sim_gpio3); "
    f"echo pull3=$(cat {SIM}/sim_gpio3/pull) value3=$(cat {SIM}/sim_gpio3/value) "
    f"pull5=$(cat {SIM}/sim_gpio5/pull) value5=$(cat {SIM}/sim_gpio5/value); "
    f"echo bus $(ls /sys/bus/gpio/devices); "
    f"for c in /sys/class/gpio/gpiochip*; do echo class $(basename $c) base=$(cat $c/base) "
    f"label=$(cat $c/label) ngpio=$(cat $c/ngpio); done"))
def check_gpio_sim_up(run):
    check_exit(run, 0)
    said = run.text("main.out")
    chips = records(said, "chip")
    require(len(chips) == 1, f"gpioline info printed no chip: {said!r} {run.text('main.err')!r}")
    name, label, count = chips[0]
    require(label == "morse-sim" and count == "8", f"chip {chips[0]}: expected morse-sim, 8 lines")
    lines = {int(words[0]): words[1:] for words in records(said, "line")}
    require(sorted(lines) == list(range(8)), f"lines reported: {sorted(lines)}")
    for offset, (line_name, consumer, flags) in lines.items():
        require(line_name == SIM_LINES.get(offset, "-"),
                f"line {offset} is named {line_name!r}, expected {SIM_LINES.get(offset, '-')!r}")
        require(consumer == "-" and "used" not in flags.split(","),
                f"line {offset} in use before any scenario: {consumer} {flags}")
    require(f"chip_name={name}" in said and "live=1" in said, f"configfs disagrees: {said!r}")
    require(f" {name}" in next(l for l in said.splitlines() if l.startswith("bus ")),
            f"{name} is not in /sys/bus/gpio/devices: {said!r}")
    require(re.search(r"sim_gpio3: .*\bpull\b.*\bvalue\b", said), f"no pull/value: {said!r}")
    require("pull3=pull-down" in said, f"line 3 is not pulled down at rest: {said!r}")
    base = re.search(r"class gpiochip(\d+) base=\d+ label=morse-sim ngpio=8", said)
    sysfs = re.search(r"sysfs=(\S+)", said).group(1)
    return (f"/dev/{name}: label morse-sim, 8 lines, 3 KEY and 5 LED named, none in use; "
            f"sim lines in {sysfs}/sim_gpioN/{{pull,value}}; global numbers from "
            f"{base.group(1) if base else '?'}")


GPIO_TOGGLE_MS = [0, 60, 120, 300, 360, 365, 545, 725, 785, 1205]


@scenario("gpio-output-trace", [], trace="gpio",
          main=f"gpioline toggle {SIM_CHIP} 5 " + " ".join(str(t) for t in GPIO_TOGGLE_MS),
          final="for c in /sys/class/gpio/gpiochip*; do "
                "[ $(cat $c/label) = morse-sim ] && echo base=$(cat $c/base); done")
def check_gpio_output_trace(run):
    check_exit(run, 0)
    said = run.text("main.out")
    sets = [(int(d), int(a), int(v)) for d, a, v in records(said, "set")]
    require(len(sets) == len(GPIO_TOGGLE_MS), f"gpioline set {len(sets)} values: {said!r} "
            f"{run.text('main.err')!r}")
    base = int(re.search(r"base=(\d+)", run.text("final.out")).group(1))
    events = []
    for line in run.text("trace").splitlines():
        match = re.search(r"\s(\d+)\.(\d{6}): gpio_value: (\d+) set (\d+)", line)
        if match:
            require(int(match.group(3)) == base + 5,
                    f"a gpio_value event of GPIO {match.group(3)}, not LED's {base + 5}: {line}")
            events.append((int(match.group(1)) * 1_000_000_000 + int(match.group(2)) * 1000,
                           int(match.group(4))))
    # The request itself sets the line to its initial value (0) before the first deadline.
    toggles = [e for e in events if e[0] >= sets[0][0] - 1000]
    require(all(v == 0 for _, v in events[:len(events) - len(toggles)]),
            f"events before the first deadline: {events[:len(events) - len(toggles)]}")
    require([v for _, v in toggles] == [v for _, _, v in sets],
            f"traced values {[v for _, v in toggles]}, set {[v for _, _, v in sets]}")
    late = []
    for (t, _), (deadline, after, _) in zip(toggles, sets):
        # The trace has microseconds, truncated: 1 µs of slack on either side.
        require(deadline - 1000 <= t <= after + 1000,
                f"traced at {ms(t - deadline):+.3f} ms from its deadline, outside the ioctl "
                f"({ms(after - deadline):.3f} ms): the trace clock is not CLOCK_MONOTONIC")
        late.append(ms(t - deadline))
    median = statistics.median(late)
    require(median <= 3.0, f"median lateness {median:.2f} ms > 3 ms")
    return (f"{len(toggles)} gpio_value events (GPIO {base + 5}, after the request's set 0) "
            f"at their deadlines on the mono trace clock: lateness median {median:.3f} ms, "
            f"worst {max(late):.3f} ms, each inside its SET_VALUES ioctl")


GPIO_PLAY = [(0.0, 1), (0.06, 0), (0.12, 1), (0.3, 0), (0.36, 1), (0.365, 0), (0.545, 1),
             (0.725, 0), (0.785, 1), (1.205, 0)]


@scenario("gpio-input-edges", [], setup=f"echo pull-down > {SIM}/sim_gpio3/pull",
          final=f"echo pull-down > {SIM}/sim_gpio3/pull",
          main=shell(f"gpioline watch {SIM_CHIP} 3 {len(GPIO_PLAY)} 5000 & sleep 0.3; "
                     "printf '" + "".join(f"{t} {v}\\n" for t, v in GPIO_PLAY) + "' | "
                     f"edgeplay {SIM}/sim_gpio3/pull > /results/gpio-input-edges/play.out; "
                     "wait"))
def check_gpio_input_edges(run):
    check_exit(run, 0)
    said = run.text("main.out")
    played = [(int(t), int(v), int(d)) for t, v, d in records(run.text("play.out"), "edge")]
    events = [(int(t), kind) for t, kind, _, _ in records(said, "event")]
    requested = records(said, "requested")
    require(len(played) == len(GPIO_PLAY), f"edgeplay played {len(played)} edges: "
            f"{run.text('play.out')!r}")
    require(requested and int(requested[0][0]) < played[0][2],
            f"the line was not requested before the first edge: {said!r}")
    require([k for _, k in events] == ["rising" if v else "falling" for _, v, _ in played],
            f"events {[k for _, k in events]} for levels {[v for _, v, _ in played]}; "
            f"{run.text('main.err')!r}")
    late = []
    for (t, _), (written, _, deadline) in zip(events, played):
        require(deadline <= t <= written,
                f"event at {ms(t - deadline):+.3f} ms from its deadline, outside the write of "
                f"the pull ({ms(written - deadline):.3f} ms)")
        late.append(ms(t - deadline))
    median = statistics.median(late)
    require(median <= 3.0, f"median lateness {median:.2f} ms > 3 ms")
    return (f"{len(events)} edges keyed through sim_gpio3/pull, each reported (rising/falling "
            f"right) with a CLOCK_MONOTONIC timestamp inside its write: lateness median "
            f"{median:.3f} ms, worst {max(late):.3f} ms")


GPIO_TEXT = "PARIS PARIS"


@scenario("gpio-send", [], trace="gpio",
          main=morsetorch("send", "--gpio", "morse-sim:LED", "--wpm", "20", GPIO_TEXT),
          final=f"{MORSETORCH} list --gpio; echo value=$(cat {SIM}/sim_gpio5/value)")
def check_gpio_send(run):
    check_exit(run, 0)
    run.edges["gpio"] = gpio_edges(run)
    message = find_message(run, "gpio", GPIO_TEXT, 60, 1, run.starts["main"], run.main_exit()[0])
    final = run.text("final.out")
    require("value=0" in final, f"the line is not low after the run: {final!r}")
    led = [line for line in final.splitlines() if line.split()[:2] == ["5", "LED"]]
    require(led and led[0].split()[-1] == "-", f"line 5 still in use after the run: {led}")
    return (f"{len(message['edges'])} edges of {GPIO_TEXT!r} on line LED by the kernel's "
            f"gpio_value events: median error {message['median']:.2f} ms, worst "
            f"{message['worst']:.2f} ms; released, low")


@scenario("gpio-rerun-cancel", [], trace="gpio", main=shell(
    f"{MORSETORCH} send --gpio morse-sim:LED --unit 300 TT & first=$!; sleep 1; "
    f"{MORSETORCH} send --gpio morse-sim:LED E; echo rerun=$?; wait $first; echo first=$?; "
    f"echo value=$(cat {SIM}/sim_gpio5/value)"))
def check_gpio_rerun(run):
    check_exit(run, 0)
    said = run.text("main.out")
    require("rerun=4" in said and "first=143" in said and "value=0" in said,
            f"expected rerun=4, first=143, value=0: {said!r} {run.text('main.err')!r}")
    require("cancelled the transmission on GPIO line" in said, f"{said!r}")
    sets = [v for _, v in gpio_edges(run)]
    require(sets and sets[-1] == 0 and sets.count(1) == 1,
            f"the line was set {sets}: expected on once (TT's first dash), then off")
    return "a rerun on the line cancelled the first sender (143), sent nothing (4), line low"


@scenario("gpio-busy", [], main=shell(
    f"{MORSETORCH} receive --gpio morse-sim:LED --timeout 2s & sleep 0.5; "
    f"{MORSETORCH} send --gpio morse-sim:LED E; echo status=$?; wait"))
def check_gpio_busy(run):
    check_exit(run, 0)
    said, errors = run.text("main.out"), run.text("main.err")
    require("status=75" in said, f"expected status=75: {said!r} {errors!r}")
    require('in use by "morsetorch"' in errors, f"the consumer is not named: {errors!r}")
    return "a line held by another consumer: exit 75, naming it (\"morsetorch\")"


def receive_scenario(name, edges_command, expected, seconds, invert=False):
    setup = f"echo {'pull-up' if invert else 'pull-down'} > {SIM}/sim_gpio3/pull"
    play = f"{edges_command} | edgeplay {SIM}/sim_gpio3/pull{' -i' if invert else ''}"
    # Listening ends a few seconds after the last edge: the last character is printed then.
    receive = [MORSETORCH, "receive", "--gpio", "morse-sim:KEY", "--timeout",
               f"{seconds + 3:.0f}s"]
    if invert:
        receive.append("--active-low")

    @scenario(name, [], setup=setup, timeout_ms=30000,
              final=f"echo pull-down > {SIM}/sim_gpio3/pull",
              main=shell(f"(sleep 0.5; {play} > /results/{name}/play.out) & exec "
                         + " ".join(receive)))
    def check(run):
        check_exit(run, 0)
        read = run.text("main.out")
        require(read == expected + "\n", f"read {read!r}, sent {expected!r}; "
                f"stderr {run.text('main.err')!r}")
        plays = run.text("play.out").count("edge ")
        return f"{plays} edges played on KEY's pull; read back exactly: {expected!r}"
    return check


receive_scenario("gpio-receive", morsetorch("send", "--dry-run", "--edges", "--wpm", "20",
                                            GPIO_TEXT), GPIO_TEXT, itu_edges(GPIO_TEXT)[-1][0] * 0.06)


_random = random.Random(1844)
RANDOM_TEXT = " ".join("".join(_random.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,?/=")
                               for _ in range(_random.randint(2, 5))) for _ in range(5))
receive_scenario("gpio-receive-random", morsetorch("send", "--dry-run", "--edges", "--wpm", "25",
                                                   RANDOM_TEXT), RANDOM_TEXT,
                 itu_edges(RANDOM_TEXT)[-1][0] * 1.2 / 25)


def hand_keyed(text, wpm, jitter, seed):
    """Edges of `text` keyed by hand: every mark and gap ±jitter of its ITU length."""
    generator = random.Random(seed)
    unit = 1.2 / wpm
    lines, t, previous = [], 0.0, 0
    for units, on in itu_edges(text):
        t += (units - previous) * unit * generator.uniform(1 - jitter, 1 + jitter)
        previous = units
        lines.append(f"{t:.6f} {1 if on else 0}")
    return "\n".join(lines) + "\n"


_random = random.Random(1906)
HAND_TEXT = " ".join("".join(_random.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
                             for _ in range(_random.randint(2, 5))) for _ in range(4))
DATA_FILES["hand-keyed.edges"] = hand_keyed(HAND_TEXT, 18, 0.10, 7)
receive_scenario("gpio-receive-hand-keyed", "cat /data/hand-keyed.edges", HAND_TEXT,
                 itu_edges(HAND_TEXT)[-1][0] * 1.2 / 18 * 1.1, invert=True)


# Serial ports: the guest's third 16550 (ttyS2; ttyS0 is the console, ttyS1 the results) on
# x86_64, with nothing behind it (qemu's -serial null). serialwatch (guest/serialwatch.c)
# proves what the kernel does to DTR and RTS at open and close, then holds the port open in
# the 16550's loopback (RTS to CTS, DTR to DSR) and samples its lines every 100 us while a
# command runs. qemu's virt board (aarch64) has one PL011, the console: there the scenarios
# say they were skipped, and why.
SERIAL = "/dev/ttyS2"
SERIAL_TEXT = "PARIS"
NO_16550 = "no-16550"
HAS_16550 = (f"[ -e /sys/class/tty/ttyS2/device ] && "
             f"[ \"$(cat /sys/class/tty/ttyS2/type)\" != 0 ]")


def serial_scenario(name, command, **options):
    """A scenario whose main runs `command` where the guest has a 16550, else says so."""
    return scenario(name, [], main=shell(f"if {HAS_16550}; then {command}; "
                                         f"else echo {NO_16550}; fi"), **options)


def serial_records(run):
    """[(kind, t_ns, lines set, rest)] of serialwatch's watch records in main.out."""
    records = []
    for line in run.text("main.out").splitlines():
        words = line.split()
        if len(words) >= 3 and words[0] in ("before", "lines", "after"):
            records.append((words[0], int(words[1]), set(words[2].split(",")) - {"-"},
                            words[3:]))
        elif len(words) == 3 and words[0] in ("exit", "signal"):
            records.append((words[0], int(words[1]), set(), words[2:]))
    return records


def skipped_without_16550(run):
    if NO_16550 in run.text("main.out"):
        return "skipped: this board has no 16550 (qemu's virt has one PL011, the console)"
    return None


def watched_serial(run):
    """serialwatch's records of a scenario that exited 0, the loopback checked; or, where the
    board has no 16550, none and why the scenario was skipped."""
    check_exit(run, 0)
    skipped = skipped_without_16550(run)
    if skipped:
        return None, skipped
    records = serial_records(run)
    check_loopback(records)
    return records, None


def check_loopback(records):
    """In loopback, CTS follows RTS and DSR follows DTR in every sample."""
    for kind, _, lines, _ in records:
        if kind in ("before", "lines", "after"):
            require(("RTS" in lines) == ("CTS" in lines) and ("DTR" in lines) == ("DSR" in lines),
                    f"the loopback does not join RTS to CTS and DTR to DSR: {kind} {lines}")


@serial_scenario("serial-kernel-facts", f"serialwatch facts {SERIAL}")
def check_serial_kernel_facts(run):
    check_exit(run, 0)
    skipped = skipped_without_16550(run)
    if skipped:
        return skipped
    steps = {}
    for line in run.text("main.out").splitlines():
        match = re.match(r"step (\S+) speed=(-?\d+) hupcl=(\d) lines=(\S+)", line)
        if match:
            lines = set(match.group(4).split(",")) & {"DTR", "RTS"}
            steps[match.group(1)] = (int(match.group(2)), int(match.group(3)), lines)
    expected = {
        "first-open": (9600, 1, {"DTR", "RTS"}), "speed-0": (0, 1, set()),
        "open-at-speed-0": (0, 1, set()), "rts-raised": (0, 1, {"RTS"}),
        "reopen-after-hupcl": (0, 1, set()), "speed-9600": (9600, 1, {"DTR", "RTS"}),
        "open-at-9600": (9600, 1, {"DTR", "RTS"}),
    }
    for step, want in expected.items():
        require(steps.get(step) == want, f"{step}: {steps.get(step)}, expected {want} "
                f"(speed, HUPCL, lines up): {run.text('main.out')!r}")
    return ("an open raises DTR and RTS unless the kept speed is 0; the speed is kept from one "
            "open to the next; a close with HUPCL drops both; leaving speed 0 raises both")


@serial_scenario("serial-send",
                 f"serialwatch watch {SERIAL} b0 "
                 + morsetorch("send", "--serial", SERIAL + ":rts", "--wpm", "20", SERIAL_TEXT))
def check_serial_send(run):
    records, skipped = watched_serial(run)
    if skipped:
        return skipped
    require(any(kind == "exit" and rest == ["0"] for kind, _, _, rest in records),
            f"send did not exit 0: {run.text('main.out')!r} {run.text('main.err')!r}")
    require("warning" not in run.text("main.err"), f"a warning at speed 0: {run.text('main.err')!r}")
    require(all("DTR" not in lines for _, _, lines, _ in records),
            f"DTR moved while RTS was keyed: {records}")
    before = next(t for kind, t, _, _ in records if kind == "before")
    end = next(t for kind, t, _, _ in records if kind in ("exit", "signal"))
    run.edges["serial"] = [(t, 1 if "RTS" in lines else 0)
                           for kind, t, lines, _ in records if kind == "lines"]
    message = find_message(run, "serial", SERIAL_TEXT, 60, 1, before, end)
    require(len(run.edges["serial"]) == len(message["edges"]),
            f"RTS moved {len(run.edges['serial'])} times, the Morse {len(message['edges'])}")
    after = [(lines, rest) for kind, _, lines, rest in records if kind == "after"]
    require(after == [(set(), ["exclusive=0"])], f"after the send: {after}")
    return (f"{len(message['edges'])} edges of {SERIAL_TEXT!r} on RTS, and no other move of any "
            f"line from open to close (sampled every 100 us; CTS through the loopback): median "
            f"error {message['median']:.2f} ms, worst {message['worst']:.2f} ms; not exclusive after")


@serial_scenario("serial-active-low-dtr",
                 f"serialwatch watch {SERIAL} b0+dtr "
                 + morsetorch("send", "--serial", "ttyS2", "--active-low", "--unit", "100", "EE"))
def check_serial_active_low(run):
    records, skipped = watched_serial(run)
    if skipped:
        return skipped
    require(all("RTS" not in lines for _, _, lines, _ in records), f"RTS moved: {records}")
    require([lines for kind, _, lines, _ in records if kind == "before"] == [{"DTR", "DSR"}],
            f"DTR was not up before the send: {records}")
    # Found up (inactive, for --active-low): each dot drops it for 100 ms, 300 ms apart, and
    # it is left up.
    dtr = [("DTR" in lines, t) for kind, t, lines, _ in records if kind == "lines"]
    require([up for up, _ in dtr] == [False, True, False, True], f"DTR went {dtr}")
    dots = [(dtr[i + 1][1] - dtr[i][1]) / 1e6 for i in (0, 2)]
    gap = (dtr[2][1] - dtr[1][1]) / 1e6
    require(all(abs(d - 100) < 20 for d in dots) and abs(gap - 300) < 20,
            f"dots of {dots} ms, {gap:.1f} ms apart: expected 100, 300 apart")
    after = [(lines, rest) for kind, _, lines, rest in records if kind == "after"]
    require(after == [({"DTR", "DSR"}, ["exclusive=0"])], f"after the send: {after}")
    return (f"DTR (the default line) keyed low with --active-low: dots of "
            f"{dots[0]:.1f} and {dots[1]:.1f} ms, {gap:.1f} ms apart; left up as found")


@serial_scenario("cwdaemon-serial-ptt",
                 f"serialwatch watch {SERIAL} b0 sh -c "
                 + shlex.quote(f"{MORSETORCH} cwdaemon -d ttyS2 -t 40 -s 20 -p 6789; "
                               f"echo daemon=$?; udpsend 6789 3 '{SERIAL_TEXT}^'; "
                               f"udpsend 6789 1 '\\e5'; sleep 0.5; "
                               f"pidof morsetorch || echo exited"))
def check_cwdaemon_serial_ptt(run):
    """cwdaemon's request keyed on DTR (its key line), PTT on RTS raised its lead time before
    the first mark and dropped after the last, the reply after the Morse (cwdaemon's tests
    allow 500 ms), and every line down once ESC 5 ended the daemon. Started without -n, as
    cwdaemon's init scripts start it, it returns once it listens, and goes on in the
    background."""
    records, skipped = watched_serial(run)
    if skipped:
        return skipped
    said = run.text("main.out")
    require("daemon=0" in said, f"the daemon did not start in the background: {said!r} "
            f"{run.text('main.err')!r}")
    require("exited" in said, f"the daemon was still running after ESC 5: {said!r}")
    before = next(t for kind, t, _, _ in records if kind == "before")
    end = next(t for kind, t, _, _ in records if kind in ("exit", "signal"))
    samples = [(t, lines) for kind, t, lines, _ in records if kind == "lines"]
    run.edges["serial"] = []
    for t, lines in samples:
        level = 1 if "DTR" in lines else 0
        if not run.edges["serial"] or run.edges["serial"][-1][1] != level:
            run.edges["serial"].append((t, level))
    message = find_message(run, "serial", SERIAL_TEXT, 60, 1, before, end)
    first_mark, last_mark = message["edges"][0][0], message["edges"][-1][0]
    rts = [(t, "RTS" in lines) for t, lines in samples]
    ptt_on = [t for (t, up), (_, was) in zip(rts[1:], rts) if up and not was]
    ptt_off = [t for (t, up), (_, was) in zip(rts[1:], rts) if not up and was]
    if rts and rts[0][1]:
        ptt_on = [rts[0][0]] + ptt_on
    require(len(ptt_on) == 1 and len(ptt_off) == 1,
            f"PTT (RTS) was raised {len(ptt_on)} and dropped {len(ptt_off)} times: {rts}")
    lead = (first_mark - ptt_on[0]) / 1e6
    tail = (ptt_off[0] - last_mark) / 1e6
    require(lead >= 39, f"PTT came {lead:.1f} ms before the first mark, not 40")
    require(0 <= tail < 50, f"PTT dropped {tail:.1f} ms after the last mark")
    replies = [int(line.split()[1]) for line in said.splitlines()
               if line.startswith("reply ") and line.endswith(f"{SERIAL_TEXT}\\r\\n")]
    require(len(replies) == 1, f"no single reply {SERIAL_TEXT!r}: {said!r}")
    # The reply goes once the key is up; serialwatch's samples (every 100 us, one vCPU under
    # tcg) may see that edge a little after the reply arrived.
    delay = (replies[0] - last_mark) / 1e6
    require(-5 <= delay < 500, f"the reply came {delay:.1f} ms after the last mark")
    after = [(lines, rest) for kind, _, lines, rest in records if kind == "after"]
    require(after == [(set(), ["exclusive=0"])], f"after the daemon: {after}")
    return (f"{len(message['edges'])} edges of {SERIAL_TEXT!r} on DTR (median error "
            f"{message['median']:.2f} ms, worst {max(abs(e) for e in message['errors']):.2f} ms); "
            f"PTT on RTS {lead:.1f} ms ahead, dropped {tail:.1f} ms after; reply {delay:.1f} ms "
            f"after the last mark; all lines down after ESC 5")


@serial_scenario("serial-killed-sender-restored",
                 f"serialwatch watch {SERIAL} b0 sh -c "
                 + shlex.quote(f"{MORSETORCH} send --serial {SERIAL}:rts --unit 400 T & p=$!; "
                               f"sleep 0.6; kill -9 $p; wait $p; sleep 0.3; {MORSETORCH} status; "
                               f"echo status=$?"))
def check_serial_killed(run):
    check_exit(run, 0)
    skipped = skipped_without_16550(run)
    if skipped:
        return skipped
    records = serial_records(run)
    said = run.text("main.out")
    rts = [("RTS" in lines, t) for kind, t, lines, _ in records if kind == "lines"]
    require([up for up, _ in rts] == [True, False], f"RTS went {rts}: {said!r}")
    held = (rts[1][1] - rts[0][1]) / 1e6
    # The dash is 1200 ms; the kill at 600 ms leaves RTS up (the port is still open here, so
    # no hang-up) until `status` restores it from the record.
    require(held > 800, f"RTS came down {held:.0f} ms after it went up, before the restore")
    require("status=0" in said and "restored serial port /dev/ttyS2" in run.text("main.err"),
            f"status did not restore the port: {said!r} {run.text('main.err')!r}")
    after = [rest for kind, _, _, rest in records if kind == "after"]
    require(after == [["exclusive=0"]], f"after the restore: {after}")
    return (f"RTS held up {held:.0f} ms by a sender killed mid-dash, then put down by `status` "
            f"from its record; the port never put in exclusive mode")


@serial_scenario("serial-stop",
                 f"serialwatch watch {SERIAL} b0 sh -c "
                 + shlex.quote(f"mkdir -p /run/lock; "
                               f"{MORSETORCH} send --serial {SERIAL}:rts --loop {SERIAL_TEXT} & "
                               f"p=$!; sleep 1.5; echo lock=$(cat /run/lock/LCK..ttyS2) p=$p; "
                               f"{MORSETORCH} stop --serial ttyS2; "
                               f"echo stop=$?; wait $p; echo first=$?; "
                               f"echo after=$(ls /run/lock); {MORSETORCH} list --serial"))
def check_serial_stop(run):
    check_exit(run, 0)
    skipped = skipped_without_16550(run)
    if skipped:
        return skipped
    said = run.text("main.out")
    require("stop=0" in said and "first=143" in said, f"expected stop=0 first=143: {said!r}")
    lock = re.search(r"lock=\s*(\d+) p=(\d+)", said)
    require(lock and lock.group(1) == lock.group(2),
            f"/run/lock/LCK..ttyS2 did not hold the sender's pid while it sent: {said!r}")
    require("after=\n" in said or re.search(r"after=$", said, re.M),
            f"the lock file is still there after the stop: {said!r}")
    after = [(lines, rest) for kind, _, lines, rest in serial_records(run) if kind == "after"]
    require(after == [(set(), ["exclusive=0"])], f"after the stop: {after}")
    listed = [line.split()[0] for line in said.splitlines() if line.startswith("/dev/tty")]
    require(SERIAL in listed and "/dev/ttyS3" not in listed,
            f"list --serial shows {listed}: expected {SERIAL}, and not the unused ttyS3")
    return (f"/run/lock/LCK..ttyS2 held the sender's pid; stop --serial cancelled the --loop "
            f"(143), RTS down, lock file gone; list --serial: {' '.join(listed)}")

# The sound: snd-aloop's loopback card (x86_64, where the host's aplay is staged) carries
# `send --sound` from its playback side (pcmC0D0p) to its capture side (pcmC0D1c), which
# sndcap (guest/sndcap.c) records with the time of each read, while the same send blinks an
# LED: multimon-ng reads the capture, and each tone edge is heard within 20 ms of the LED's.
SOUND_TEXT = "PARIS"
SOUND_DIR = "/results/sound-lockstep"
NO_PLAYER = "no-player"


@scenario("sound-lockstep", [("vm::sound", 255)],
          main=shell(
              f"if [ ! -x /usr/bin/aplay ] || [ ! -e /dev/snd/pcmC0D1c ]; then echo {NO_PLAYER}; "
              f"exit 0; fi; "
              f"mkdir -p {SOUND_DIR}; "
              f"sndcap /dev/snd/pcmC0D1c 15 /tmp/capture.raw {SOUND_DIR}/capture.times "
              f"> /tmp/sndcap.out & c=$!; "
              f"while ! grep -q ready /tmp/sndcap.out; do sleep 0.05; done; sleep 0.3; "
              + morsetorch("send", "--sound", "plughw:CARD=Loopback,DEV=0", "--led", "vm::sound",
                           "--wpm", "15", "--tone", "700", SOUND_TEXT)
              + f"; s=$?; sleep 0.5; kill $c; wait $c; "
              f"base64 /tmp/capture.raw > {SOUND_DIR}/capture.b64; exit $s"),
          timeout_ms=30000)
def check_sound_lockstep(run):
    check_exit(run, 0)
    if NO_PLAYER in run.text("main.out"):
        return "skipped: no aplay or no snd-aloop for this architecture here"
    samples = decoded_capture(run)
    heard = multimon_reading(samples)
    require(heard == SOUND_TEXT, f"multimon-ng read {heard!r} from the capture, sent {SOUND_TEXT!r}"
            f"; stderr: {run.text('main.err').strip()!r}")
    times = [tuple(map(int, line.split())) for line in run.text("capture.times").splitlines()
             if len(line.split()) == 2]
    tone = [(heard_at(times, frame), on) for frame, on in tone_edges(samples)]
    led = [(t, value > 0) for t, value in run.edges[0]]
    require(len(tone) == len(led) == 2 * len("".join(MORSE[c] for c in SOUND_TEXT)),
            f"{len(tone)} tone edges, {len(led)} LED edges")
    require([on for _, on in tone] == [on for _, on in led], "the edges do not alternate alike")
    gaps = [ms(t - l) for (t, _), (l, _) in zip(tone, led)]
    require(max(abs(g) for g in gaps) <= 20,
            f"tone edge minus LED edge (ms): {', '.join(f'{g:+.1f}' for g in gaps)}")
    gaps.sort()
    return (f"multimon-ng read {heard!r} from the loopback card; each of {len(tone)} tone edges "
            f"within {max(abs(g) for g in gaps):.1f} ms of the LED's (median "
            f"{gaps[len(gaps) // 2]:+.1f} ms, tone minus LED)")


def decoded_capture(run):
    """The capture's 16-bit samples."""
    raw = base64.b64decode(run.text("capture.b64"))
    return struct.unpack(f"<{len(raw) // 2}h", raw[:len(raw) // 2 * 2])


def multimon_reading(samples):
    """What multimon-ng's MORSE_CW reads in the samples (48 kHz, resampled by sox)."""
    raw = struct.pack(f"<{len(samples)}h", *samples)
    sox = subprocess.run(["sox", "-q", "-t", "raw", "-r", "48000", "-e", "signed", "-b", "16",
                          "-c", "1", "-", "-t", "raw", "-r", "22050", "-e", "signed", "-b", "16",
                          "-c", "1", "-"], input=raw, capture_output=True, check=True)
    read = subprocess.run(["multimon-ng", "-q", "-d", "80", "-g", "80", "-a", "MORSE_CW", "-t",
                           "raw", "-"], input=sox.stdout, capture_output=True)
    return " ".join(read.stdout.decode(errors="replace").split())


def tone_edges(samples, block=48):
    """[(frame, on)]: where the key moved. The tone's envelope (the loudest sample of each
    millisecond) crosses half its peak half a ramp (2.5 ms, 120 frames) after each edge."""
    loudness = [max(abs(x) for x in samples[i:i + block]) for i in range(0, len(samples), block)]
    half = max(loudness) / 2
    edges, on = [], False
    for index, level in enumerate(loudness):
        if (level > half) != on:
            on = not on
            edges.append((index * block - 120, on))
    return edges


def heard_at(times, frame):
    """When `frame` was captured: the first read that returned it."""
    for total, t in times:
        if total > frame:
            return t
    return times[-1][1]


# Receiving on a status line: the guest's ttyS2 is the host's 16550 in its loopback when
# run.sh could wire it (tools.py wire-serial), so the guest's RTS comes back on its CTS with
# the modem-status interrupt that receive --serial waits for (qemu polls the host's lines
# every 10 ms); where it could not, serialwatch says "unwired" and the scenarios are skipped.
UNWIRED = "unwired"
RECEIVE_TEXT = "CQ TEST 73"


def skipped_unwired(run):
    skipped = skipped_without_16550(run)
    if skipped or UNWIRED not in run.text("main.out").split():
        return skipped
    return "skipped: ttyS2 is not wired RTS to CTS (the host has no 16550 run.sh could loop back)"


@serial_scenario("serial-status-wakes", f"serialwatch wake {SERIAL}")
def check_serial_status_wakes(run):
    check_exit(run, 0)
    skipped = skipped_unwired(run)
    if skipped:
        return skipped
    lines = [line.split() for line in run.text("main.out").splitlines()]
    moves = [(int(w[1]), w[2]) for w in lines if w[0] == "rts"]
    wakes = [(int(w[1]), int(w[2].split("=")[1]), w[3]) for w in lines if w[0] == "woke"]
    require(["child", "done"] in lines, f"six changes of CTS did not wake six waits: {lines}")
    require(len(moves) == 6 and len(wakes) == 6, f"{len(moves)} moves, {len(wakes)} wakes")
    delays = []
    for (moved, level), (woke, count, seen), k in zip(moves, wakes, range(1, 7)):
        require(seen == level, f"RTS {level}, CTS {seen} when the wait ended")
        require(count == k, f"TIOCGICOUNT counted {count} changes of CTS by change {k}")
        delays.append(ms(woke - moved))
    require(all(0 <= d <= 40 for d in delays), f"wakes after the move (ms): {delays}")
    return (f"each of 6 RTS moves came back on CTS and woke TIOCMIWAIT once, "
            f"{min(delays):.1f}-{max(delays):.1f} ms later (qemu polls the host's lines every 10 ms)")


@serial_scenario("serial-receive",
                 "if [ \"$(serialwatch wake " + SERIAL + " | head -1)\" = unwired ]; "
                 "then echo unwired; else "
                 + f"serialwatch speed {SERIAL} 0 && "
                 + morsetorch("receive", "--serial", SERIAL + ":cts", "--wpm", "20",
                              "--timeout", "16s", "--edges-out", "/tmp/serial-edges")
                 + " & sleep 1; "
                 + morsetorch("send", "--serial", SERIAL + ":rts", "--wpm", "20", RECEIVE_TEXT)
                 + f"; wait; serialwatch speed {SERIAL} 9600; "
                 "echo edges; cat /tmp/serial-edges; fi",
                 timeout_ms=30000)
def check_serial_receive(run):
    check_exit(run, 0)
    skipped = skipped_unwired(run)
    if skipped:
        return skipped
    out = run.text("main.out")
    text, _, edge_text = out.partition("edges\n")
    require(text.strip() == RECEIVE_TEXT,
            f"receive --serial read {text.strip()!r}, sent {RECEIVE_TEXT!r}; "
            f"stderr: {run.text('main.err').strip()!r}")
    edges = [(float(w[0]), w[1] == "1") for w in
             (line.split() for line in edge_text.splitlines()) if len(w) == 2]
    expected = itu_edges(RECEIVE_TEXT)
    require([on for _, on in edges] == [on for _, on in expected],
            f"{len(edges)} edges read, {len(expected)} keyed")
    unit = 60
    errors = [abs((b[0] - a[0]) * 1000 - (d[0] - c[0]) * unit)
              for a, b, c, d in zip(edges, edges[1:], expected, expected[1:])]
    require(max(errors) <= 25, f"an element read {max(errors):.1f} ms off its ITU length")
    return (f"read {RECEIVE_TEXT!r} exactly from CTS while send keyed RTS at 20 WPM; "
            f"{len(edges)} edges, each element within {max(errors):.1f} ms of its length")


# The kernel's own timestamp of every brightness uleds is given: the LED's name (the first
# field of struct led_classdev) and the value, arguments 1 and 2 ($argN: the same probe on
# x86_64, where they are %di and %si, and on arm64, %x0 and %x1).
KPROBE = ("p:morse/uledset uleds:uleds_brightness_set name=+0(+0($arg1)):string value=$arg2:u32")


# From an LED to a camera: vivid, the kernel's virtual camera, shows uledrec's first LED (its
# picture bright while the LED is on, dark while off: uledrec -V), `morsetorch send` sends on
# that LED and `morsetorch receive --camera` reads the picture back. Its small size and rate
# keep the emulated CPU (one vCPU, no KVM) ahead of the frames. vidctl prints the controls
# receive changes (vivid has automatic gain), before, while and after it reads.

CAMERA = "/dev/video0"
CAMERA_LED = "vm::camera"
CAMERA_OPTIONS = ["--size", "320x180", "--fps", "15"]


def camera_scenario(name, text, wpm, receive_args, stop):
    """receive --camera RECEIVE_ARGS in the background, `send` of TEXT once it has said
    which camera it reads; then STOP (a shell line; $pid is receive's) and its status."""
    directory = f"/results/{name}"
    receive = " ".join(shlex.quote(word) for word in
                       [MORSETORCH, "receive", "--camera"] + receive_args + CAMERA_OPTIONS)
    script = (
        f"vidctl {CAMERA} > {directory}/controls.before; "
        f"{receive} > {directory}/received 2> {directory}/received.err & pid=$!; "
        # Until receive says which camera it reads (its controls are set then).
        f"for i in $(seq 100); do grep -q '^morsetorch: camera' {directory}/received.err && break; "
        f"sleep 0.1; done; "
        f"vidctl {CAMERA} > {directory}/controls.during; "
        f"sleep 1; {morsetorch('send', '--led', CAMERA_LED, '--wpm', str(wpm), text)}; "
        f"echo send=$?; {stop}; wait $pid; echo receive=$?; "
        f"vidctl {CAMERA} > {directory}/controls.after")
    return scenario(name, [(CAMERA_LED, 255)], camera=CAMERA, timeout_ms=60000,
                    main=shell(script))


def controls(run, when):
    """{name: value} from vidctl's output at `when` (before, during, after)."""
    return dict((line.split()[0], int(line.split()[1]))
                for line in run.text(f"controls.{when}").splitlines() if len(line.split()) == 2)


def check_camera_run(run, text, receive_status):
    check_exit(run, 0)
    said, errors = run.text("main.out"), run.text("received.err")
    require("send=0" in said, f"send failed: {said!r} {run.text('main.err')!r}")
    require(f"receive={receive_status}" in said,
            f"receive did not exit {receive_status}: {said!r}; stderr {errors!r}")
    read = run.text("received")
    pictures = sum(1 for line in run.text("log").splitlines() if line.startswith("picture "))
    require(read == text + "\n", f"read {read!r}, sent {text!r} ({pictures} picture switches); "
            f"stderr {errors!r}")
    before, during, after = (controls(run, when) for when in ("before", "during", "after"))
    require(before.get("autogain") == 1, f"vivid's automatic gain was not on before: {before}")
    require(during.get("autogain") == 0, f"automatic gain was not turned off while reading: "
            f"{during}; stderr {errors!r}")
    require(after.get("autogain") == 1, f"automatic gain was not put back: {after}")
    found = re.search(r"morsetorch: camera [^\n]*", errors)
    return (f"{pictures} picture switches read back exactly as {text!r}; automatic gain "
            f"1 -> 0 -> 1; {found.group(0) if found else ''}")


@camera_scenario("camera-loop", "PARIS", 8, ["--timeout", "22s"], "true")
def check_camera_loop(run):
    return check_camera_run(run, "PARIS", 0)


@camera_scenario("camera-sigterm", "SOS", 8, [CAMERA], "sleep 3; kill -TERM $pid")
def check_camera_sigterm(run):
    return check_camera_run(run, "SOS", 143)


@scenario("camera-busy-and-denied", [], timeout_ms=30000, main=shell(
    f"{morsetorch('receive', '--camera', CAMERA, '--timeout', '5s')} > /dev/null 2>&1 & "
    f"sleep 2; {morsetorch('receive', '--camera', CAMERA, '--timeout', '1s')}; echo busy=$?; "
    f"wait; {MEMBER}{shlex.quote(morsetorch('receive', '--camera', '--timeout', '1s'))}; "
    f"echo denied=$?; ls -l {CAMERA}"))
def check_camera_busy_and_denied(run):
    check_exit(run, 0)
    said, errors = run.text("main.out"), run.text("main.err")
    require("busy=75" in said, f"a camera another receive streams from: not 75: {said!r} "
            f"{errors!r}")
    require(f"{CAMERA} is busy" in errors, f"the busy camera is not named: {errors!r}")
    require("denied=77" in said, f"a user outside group video: not 77: {said!r} {errors!r}")
    require("sudo usermod -aG video" in errors, f"no advice for group video: {errors!r}")
    return "a second receive on a streaming camera: 75, naming it; a user who may not open " \
        "it: 77, with the group video advice"


def kernel_edges(run):
    """{led name: [(t_ns, value)]} from the scenario's kprobe trace."""
    edges = {}
    for line in run.text("trace").splitlines():
        match = re.search(r"\s(\d+)\.(\d{6}): uledset: .* name=\"([^\"]*)\" value=(\d+)", line)
        if match:
            t = int(match.group(1)) * 1_000_000_000 + int(match.group(2)) * 1000
            edges.setdefault(match.group(3), []).append((t, int(match.group(4))))
    return edges


def plan(out_path):
    lines = [
        "#!/bin/sh",
        "# Generated by Tests/VM/scenarios.py plan; runs inside the VM.",
        f"export MORSETORCH_RUNTIME_DIR={RUNTIME_DIR}",
        MAKE_RUNTIME_DIR,
    ]
    for s in SCENARIOS:
        directory = f"/results/{s['name']}"
        command = ["uledrec", "-d", directory]
        for led, maximum in s["leds"]:
            command += ["-L", f"{led}:{maximum}"]
        for flag, key in [("-s", "setup"), ("-c", "main"), ("-C", "second"), ("-e", "event"),
                          ("-f", "final")]:
            if s[key]:
                command += [flag, s[key]]
        command += ["-p", str(s["post_ms"]), "-t", str(s["timeout_ms"])]
        if s["camera"]:
            command += ["-V", s["camera"]]
        if s["kernel_times"]:
            command += ["-i"]
        run = [" ".join(shlex.quote(word) for word in command),
               f"echo $? > {directory}/uledrec.status"]
        trace = s["trace"] or ("uleds" if s["kernel_times"] else None)
        if trace:
            tracing = "/sys/kernel/tracing"
            name = KPROBE.split()[0][2:] if trace == "uleds" else "gpio/gpio_value"
            event = f"{tracing}/events/{name}/enable"
            define = ([f"[ -e {event} ] || echo {shlex.quote(KPROBE)} >> {tracing}/kprobe_events"]
                      if trace == "uleds" else [])
            run = [f"echo mono > {tracing}/trace_clock"] + define + [
                   f"echo > {tracing}/trace", f"echo 1 > {event}"] + run + [
                   f"echo 0 > {event}", f"cat {tracing}/trace > {directory}/trace"]
        lines += [f"echo 'vm-guest: scenario {s['name']}'", f"mkdir -p {directory}"] + run + [
            f"sendresults {directory}"]
    with open(out_path, "w") as out:
        out.write("\n".join(lines) + "\n")
    data = os.path.join(os.path.dirname(out_path), "data")
    os.makedirs(data, exist_ok=True)
    for name, content in DATA_FILES.items():
        with open(os.path.join(data, name), "w") as out:
            out.write(content)


def parse_results(text):
    files, current, complete = {}, None, None
    for line in text.replace("\r", "").split("\n"):
        if line.startswith("@@@ file "):
            current = line[len("@@@ file "):]
            files[current] = []
        elif line == "@@@ end":
            current = None
        elif line.startswith("@@@ complete "):
            complete = line[len("@@@ complete "):]
        elif current is not None:
            files[current].append(line)
    return {k: "\n".join(v) + ("\n" if v else "") for k, v in files.items()}, complete


def score(results_path):
    files, complete = parse_results(open(results_path, errors="replace").read())
    passed = failed = 0
    kernel = files.get("guest/kernel", "").split(" (")[0].strip()
    clocksource = files.get("guest/clocksource", "").strip()
    if kernel:
        print(f"guest: {kernel}, clocksource {clocksource or '?'}, "
              f"LEDs at boot: {' '.join(files.get('guest/leds-at-boot', '').split())}")
    if "guest/boot-error" in files:
        print(f"FAIL vm: {files['guest/boot-error'].strip()}")
        failed += 1
    elif complete is None:
        print("FAIL vm: the guest did not finish its scenarios (see the console log)")
        failed += 1
    for s in SCENARIOS:
        prefix = s["name"] + "/"
        own = {k[len(prefix):]: v for k, v in files.items() if k.startswith(prefix)}
        expected_failure = s["name"] in EXPECTED_FAILURES
        try:
            require(own, "no results from the guest")
            run = Run(s["name"], own)
            require(not run.errors, "harness error: " + "; ".join(run.errors))
            require(run.uledrec_status == "0", f"uledrec exited {run.uledrec_status}: "
                    f"{run.text('setup.err').strip()}")
            if s["event"] and not run.actions:
                status = run.main_exit()[1]
                raise Failure(f"morsetorch ended (status {status}) before the scenario's "
                              f"{s['event'].split(':')[-1]} was due; stderr: "
                              f"{run.text('main.err').strip()!r}")
            detail = s["check"](run)
            if expected_failure:
                print(f"XPASS {s['name']}: {detail} (expected to fail: "
                      f"{EXPECTED_FAILURES[s['name']]}; remove it from EXPECTED_FAILURES)")
            else:
                print(f"PASS {s['name']}: {detail}")
            passed += 1
        except (Failure, KeyError, IndexError, ValueError, statistics.StatisticsError) as error:
            if isinstance(error, Failure):
                reason = str(error)
            else:
                reason = f"incomplete results ({type(error).__name__}: {error})"
            if expected_failure:
                # Counted neither way: the closing line only counts what is meant to work.
                print(f"XFAIL {s['name']}: {reason} (expected to fail: "
                      f"{EXPECTED_FAILURES[s['name']]})")
            else:
                print(f"FAIL {s['name']}: {reason}")
                failed += 1
    try:
        print(f"PASS edge-timing: {check_timing()}")
        passed += 1
    except Failure as error:
        print(f"FAIL edge-timing: {error}")
        failed += 1
    if TIMING:
        print(f"timing: {TIMING_TEXT!r} at {TIMING_UNIT_MS:.0f} ms per unit; each edge's time "
              f"(CLOCK_MONOTONIC in the VM) vs the ITU timeline, constant offset removed:")
        for who, messages in TIMING.items():
            p = pooled(messages)
            drifts = ", ".join(f"{d:+.2f}" for d in p["drifts"])
            print(f"  {who:31} {p['edges']:3} edges  median {p['median']:.2f} ms  "
                  f"95% {p['p95']:.2f} ms  worst {p['worst']:.2f} ms  drift over {p['duration_ms'] / 1000:.2f} s: "
                  f"{drifts} ms")
    print(f"vm: {passed} passed, {failed} failed")
    return 1 if failed else 0


# VM_ONLY="NAME ...": only those scenarios (while working on them; the timing verdict then
# fails for want of its runs).
_only = os.environ.get("VM_ONLY", "").split()
if _only:
    SCENARIOS[:] = [s for s in SCENARIOS if s["name"] in _only]


def main(argv):
    if len(argv) == 3 and argv[1] == "plan":
        plan(argv[2])
    elif len(argv) == 3 and argv[1] == "score":
        sys.exit(score(argv[2]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)

