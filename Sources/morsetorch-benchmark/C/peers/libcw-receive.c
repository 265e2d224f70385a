/*
 * libcw-receive: decode Morse key timings with unixcw's libcw receiver.
 *
 * stdin: one edge per line, "SECONDS LEVEL" (1 = key down, 0 = key up);
 * blank lines and lines starting with '#' are ignored; times increase.
 * stdout: the decoded text, a single space at each word gap, a newline
 * at the end; a representation libcw cannot map prints as '?'.
 *
 *   libcw-receive [--wpm N] [--fixed] [--prime]
 *
 * --wpm N   starting speed for libcw's adaptive receiver (without it,
 *           libcw's default, CW_SPEED_INITIAL = 12 WPM);
 * --fixed   turn adaptive receive off, so N is the fixed speed;
 * --prime   before the first edge (10 s earlier) feed libcw one dot and
 *           one dash at the starting speed and discard them.  libcw 3.6's
 *           adaptive receiver mis-tracks its first marks (after the first
 *           dot it jumps to 60 WPM), which garbles the first character;
 *           priming settles its averages first.
 *
 * Each edge is handed to libcw with its own timestamp.  At each key down
 * (and once after the last key up) the receiver is polled with that
 * time, which is the length of the gap that just ended: libcw then says
 * whether a character ended and whether the gap was a word space.
 *
 * Build: cc -O2 -o libcw-receive libcw-receive.c -lcw
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include <libcw.h>

/* libcw timestamps are struct timeval; edge times start near 0, so move
   them away from the epoch (a zero timeval is nothing special to libcw,
   but an offset costs nothing). */
#define EPOCH_OFFSET_S 1000000L

static struct timeval to_timeval(double seconds)
{
	long long us = llround(seconds * 1e6) + (long long)EPOCH_OFFSET_S * 1000000LL;
	struct timeval tv;
	tv.tv_sec = (time_t)(us / 1000000LL);
	tv.tv_usec = (suseconds_t)(us % 1000000LL);
	return tv;
}

static bool pending_space = false;  /* a word gap seen, print it before the next character */
static bool printed_any = false;

/* Poll at `now` (no key down since the last key up).  Prints the finished
   character, and remembers a word space.  Returns true if a character
   was taken out of the receiver. */
static bool poll_receiver(const struct timeval *now)
{
	char representation[256];
	bool is_end_of_word = false, is_error = false;
	memset(representation, 0, sizeof representation);
	if (!cw_receive_representation(now, representation, &is_end_of_word, &is_error)) {
		/* EAGAIN: gap still inside a character; ERANGE: nothing to give. */
		return false;
	}
	if (pending_space && printed_any)
		putchar(' ');
	pending_space = false;
	int c = is_error ? 0 : cw_representation_to_character(representation);
	putchar(c ? c : '?');
	printed_any = true;
	if (is_end_of_word)
		pending_space = true;
	cw_clear_receive_buffer();
	return true;
}

/* Feed a dot and a dash at the receiver's current speed, 10 s before
   time t, then forget them (the averages stay). */
static void prime_receiver(double t)
{
	double unit = 1.2 / cw_get_receive_speed();
	double start = t - 10.0;
	double lens[2] = { 3 * unit, unit };  /* dash first: see above */
	for (int i = 0; i < 2; i++) {
		struct timeval a = to_timeval(start), b = to_timeval(start + lens[i]);
		cw_start_receive_tone(&a);
		cw_end_receive_tone(&b);
		start += lens[i] + unit;
	}
	cw_reset_receive();
}

static void usage(const char *me)
{
	fprintf(stderr, "usage: %s [--wpm N] [--fixed] [--prime] < edges\n", me);
	exit(2);
}

int main(int argc, char **argv)
{
	int wpm = 0;
	bool fixed = false, prime = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--wpm") == 0 && i + 1 < argc) {
			char *end;
			wpm = (int)strtol(argv[++i], &end, 10);
			if (*end != '\0')
				usage(argv[0]);
		} else if (strcmp(argv[i], "--fixed") == 0) {
			fixed = true;
		} else if (strcmp(argv[i], "--prime") == 0) {
			prime = true;
		} else {
			usage(argv[0]);
		}
	}
	int min_speed, max_speed;
	cw_get_speed_limits(&min_speed, &max_speed);
	if (wpm != 0 && (wpm < min_speed || wpm > max_speed)) {
		fprintf(stderr, "libcw-receive: --wpm must be %d..%d\n", min_speed, max_speed);
		return 2;
	}

	/* The speed can only be set while adaptive receive is off. */
	cw_disable_adaptive_receive();
	if (wpm != 0 && !cw_set_receive_speed(wpm)) {
		perror("libcw-receive: cw_set_receive_speed");
		return 1;
	}
	if (!fixed)
		cw_enable_adaptive_receive();
	cw_reset_receive();

	char line[512];
	int level = 0;
	bool have_edge = false;
	double last_t = 0;
	long lineno = 0;
	while (fgets(line, sizeof line, stdin)) {
		lineno++;
		char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0' || *p == '\n' || *p == '\r' || *p == '#')
			continue;
		double t;
		int l;
		if (sscanf(p, "%lf %d", &t, &l) != 2 || (l != 0 && l != 1)) {
			fprintf(stderr, "libcw-receive: line %ld: expected \"SECONDS LEVEL\"\n", lineno);
			return 1;
		}
		if (have_edge && t <= last_t) {
			fprintf(stderr, "libcw-receive: line %ld: time does not increase\n", lineno);
			return 1;
		}
		if (!have_edge && prime && !fixed)
			prime_receiver(t);
		have_edge = true;
		last_t = t;
		if (l == level)
			continue;  /* no change of the key */
		level = l;
		struct timeval tv = to_timeval(t);
		if (level == 1) {
			/* The gap that ends here tells whether a character (and a
			   word) ended. */
			poll_receiver(&tv);
			if (!cw_start_receive_tone(&tv)) {
				/* The receiver is in a state that does not take a
				   tone (e.g. an error state): flush it and retry. */
				cw_clear_receive_buffer();
				if (!cw_start_receive_tone(&tv))
					fprintf(stderr, "libcw-receive: %.6f: cw_start_receive_tone: %s\n",
						t, strerror(errno));
			}
		} else {
			if (!cw_end_receive_tone(&tv)) {
				/* ENOENT: a noise spike libcw ignored; ERANGE: mark
				   too long/short for the current speed ranges. */
				if (errno != ENOENT)
					fprintf(stderr, "libcw-receive: %.6f: cw_end_receive_tone: %s\n",
						t, strerror(errno));
			}
		}
	}
	if (level == 1) {
		struct timeval tv = to_timeval(last_t + 0.001);
		cw_end_receive_tone(&tv);
		last_t += 0.001;
	}
	/* A long silence after the last key up ends the last character. */
	struct timeval tv = to_timeval(last_t + 10.0);
	poll_receiver(&tv);
	putchar('\n');
	return 0;
}
