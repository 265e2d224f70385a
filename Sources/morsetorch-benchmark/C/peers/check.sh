#!/bin/sh
# check.sh: build the two peer decoders and run them on PARIS PARIS.
#
#   sh check.sh [WPM ...]      (default: 20)
#
# Installs libcw-dev and multimon-ng with apt-get if they are missing
# (needs root), builds libcw-receive and keyed-tone into a temporary
# directory, generates the key edges of "PARIS PARIS" at each WPM (unit
# 1.2/WPM s; dot 1 unit, dash 3, gaps 1 inside a letter, 3 between
# letters, 7 between words) and prints what each decoder returned:
#
#   libcw              libcw-receive, adaptive from libcw's default 12 WPM
#   libcw --wpm --prime  adaptive, starting at the true speed, primed
#   multimon-ng        keyed-tone | multimon-ng, default timing (50 ms)
#   multimon-ng -d -g  the same, told the dit and gap length in ms
#
# Exit status 0 when the two "told the speed" variants both return
# PARIS PARIS at every WPM, 1 otherwise.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
text="PARIS PARIS"
[ $# -gt 0 ] || set -- 20

missing=
for p in libcw-dev multimon-ng; do
	dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "installing:$missing" >&2
	apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >&2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

cwlibs="-lcw"
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libcw; then
	cwlibs=$(pkg-config --libs libcw)
fi
cc -O2 -Wall -o "$tmp/libcw-receive" "$here/libcw-receive.c" $cwlibs -lm
cc -O2 -Wall -o "$tmp/keyed-tone" "$here/keyed-tone.c" -lm

# edges WPM TEXT: the key edges of TEXT (A-Z and spaces) at WPM.
edges() {
	awk -v wpm="$1" -v text="$2" 'BEGIN {
		split("A .- B -... C -.-. D -.. E . F ..-. G --. H .... I .. J .--- K -.- L .-.. M -- N -. O --- P .--. Q --.- R .-. S ... T - U ..- V ...- W .-- X -..- Y -.-- Z --..", f, " ")
		for (i = 1; i < 52; i += 2) code[f[i]] = f[i + 1]
		u = 1.2 / wpm; t = 0
		printf "# %s at %s WPM, unit %.6f s\n", text, wpm, u
		for (i = 1; i <= length(text); i++) {
			c = substr(text, i, 1)
			if (c == " ") { t += 4 * u; continue }  # 3 units already follow the letter
			r = code[c]
			for (j = 1; j <= length(r); j++) {
				if (j > 1) t += u
				printf "%.6f 1\n", t
				t += (substr(r, j, 1) == "." ? 1 : 3) * u
				printf "%.6f 0\n", t
			}
			t += 3 * u
		}
	}'
}

status=0
for wpm in "$@"; do
	edges "$wpm" "$text" >"$tmp/edges.txt"
	dit=$(awk -v w="$wpm" 'BEGIN { printf "%d", 1200 / w + 0.5 }')
	a=$("$tmp/libcw-receive" <"$tmp/edges.txt")
	b=$("$tmp/libcw-receive" --wpm "$wpm" --prime <"$tmp/edges.txt")
	"$tmp/keyed-tone" <"$tmp/edges.txt" >"$tmp/audio.raw"
	# -q: no "Enabled demodulators" line; it ends its text with " \n".
	c=$(multimon-ng -q -a MORSE_CW -t raw - <"$tmp/audio.raw" 2>/dev/null | sed 's/ *$//')
	d=$(multimon-ng -q -d "$dit" -g "$dit" -a MORSE_CW -t raw - <"$tmp/audio.raw" 2>/dev/null | sed 's/ *$//')
	echo "$text at $wpm WPM:"
	printf '  %-34s [%s]\n' "libcw" "$a" \
		"libcw --wpm $wpm --prime" "$b" \
		"multimon-ng" "$c" \
		"multimon-ng -d $dit -g $dit" "$d"
	[ "$b" = "$text" ] && [ "$d" = "$text" ] || status=1
done
exit $status
