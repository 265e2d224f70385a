/*
 * keyed-tone: turn Morse key timings into audio for an audio decoder.
 *
 * stdin: one edge per line, "SECONDS LEVEL" (1 = key down, 0 = key up);
 * blank lines and lines starting with '#' are ignored; times increase.
 * stdout: raw signed 16-bit little-endian mono samples at 22050 Hz: a
 * 700 Hz sine at half full scale while the key is down, silence while it
 * is up, with 1 s of silence before the first edge and 2 s after the
 * last.  Each edge has a 2 ms raised-cosine ramp centred on it, so the
 * tone is at half amplitude exactly at the edge's time.
 *
 *   keyed-tone < edges | multimon-ng -a MORSE_CW -t raw -
 *
 * Build: cc -O2 -o keyed-tone keyed-tone.c -lm
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATE 22050.0
#define FREQ 700.0
#define AMPLITUDE 0.5
#define RAMP_S 0.002
#define LEAD_S 1.0
#define TAIL_S 2.0

struct mark { double down, up; };  /* seconds, lead-in included */

/* 0 before the ramp, 1 after it, raised cosine in between; x is the
   time since the edge. */
static double ramp(double x)
{
	if (x <= -RAMP_S / 2)
		return 0;
	if (x >= RAMP_S / 2)
		return 1;
	return 0.5 - 0.5 * cos(M_PI * (x + RAMP_S / 2) / RAMP_S);
}

int main(void)
{
	struct mark *marks = NULL;
	size_t count = 0, capacity = 0;
	char line[512];
	long lineno = 0;
	int level = 0, have_edge = 0;
	double first_t = 0, last_t = 0;
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
			fprintf(stderr, "keyed-tone: line %ld: expected \"SECONDS LEVEL\"\n", lineno);
			return 1;
		}
		if (have_edge && t <= last_t) {
			fprintf(stderr, "keyed-tone: line %ld: time does not increase\n", lineno);
			return 1;
		}
		if (!have_edge)
			first_t = t;  /* the lead-in is counted from here */
		have_edge = 1;
		last_t = t;
		if (l == level)
			continue;
		level = l;
		if (level == 1) {
			if (count == capacity) {
				capacity = capacity ? 2 * capacity : 256;
				marks = realloc(marks, capacity * sizeof *marks);
				if (!marks) {
					perror("keyed-tone");
					return 1;
				}
			}
			marks[count].down = t;
			marks[count].up = INFINITY;
			count++;
		} else {
			marks[count - 1].up = t;
		}
	}
	if (!have_edge)
		return 0;
	if (count && isinf(marks[count - 1].up))
		marks[count - 1].up = last_t + 0.001;  /* key still down: let it go */
	double end_t = (count && marks[count - 1].up > last_t ? marks[count - 1].up : last_t);

	long total = lround((end_t - first_t + LEAD_S + TAIL_S) * RATE);
	size_t k = 0;
	unsigned char buffer[4096];
	size_t fill = 0;
	for (long n = 0; n < total; n++) {
		double t = n / RATE - LEAD_S + first_t;  /* in input time */
		while (k < count && t >= marks[k].up + RAMP_S / 2)
			k++;
		double v = 0;
		if (k < count) {
			double env = ramp(t - marks[k].down) * ramp(marks[k].up - t);
			if (env > 0)
				v = AMPLITUDE * env * sin(2 * M_PI * FREQ * n / RATE);
		}
		long s = lround(v * 32767.0);
		if (s > 32767)
			s = 32767;
		if (s < -32768)
			s = -32768;
		unsigned short u = (unsigned short)(short)s;
		buffer[fill++] = (unsigned char)(u & 0xff);
		buffer[fill++] = (unsigned char)(u >> 8);
		if (fill == sizeof buffer) {
			if (fwrite(buffer, 1, fill, stdout) != fill) {
				perror("keyed-tone: write");
				return 1;
			}
			fill = 0;
		}
	}
	if (fill && fwrite(buffer, 1, fill, stdout) != fill) {
		perror("keyed-tone: write");
		return 1;
	}
	free(marks);
	return fflush(stdout) == 0 ? 0 : 1;
}
