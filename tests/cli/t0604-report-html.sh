# SPDX-License-Identifier: GPL-2.0-only
# The HTML report is self-contained (its one script inline, no URL
# fetched) and its charts render: headless Chromium takes a screenshot,
# kept in $BUILDDIR/test-output/report-html.png, and each chart's colour
# (reports/html.c) must cover enough pixels.
# ctest-lock: none
. "$(dirname "$0")/lib.sh"
P=$SRCDIR/tests/fixtures/profiles
CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
	skip "chromium not installed (apt-get install chromium)"
command -v python3 >/dev/null || skip "python3 not installed"

expect_exit 0 "$PERPKT" report -i "$P/sw-clock.json" --format html
H=$TMP/report.html
cp "$TMP/out" "$H"
! grep -qiE 'https?://|src=|@import' "$H" || fail "HTML fetches something"
[ "$(grep -ci '<script' "$H")" = 1 ] || fail "HTML has other scripts than the flame graph's"
for id in decomposition latency buckets functions; do
	grep -q "<svg id=\"$id\"" "$H" || fail "no $id chart"
done

OUT=$BUILDDIR/test-output
mkdir -p "$OUT"
PNG=$OUT/report-html.png
rm -f "$PNG"
timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic \
	--no-first-run --disable-background-networking --disable-component-update \
	--disable-sync --user-data-dir="$TMP/chromium" --screenshot="$PNG" \
	--window-size=1000,2400 "file://$H" >"$TMP/chromium.log" 2>&1 ||
	{ tail -5 "$TMP/chromium.log" >&2; fail "chromium failed"; }
[ -s "$PNG" ] || fail "no screenshot"

# count pixels of each chart colour (a tiny PNG decoder: no PIL here)
python3 - "$PNG" <<'PY' || fail "a chart did not render"
import collections, struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat = 8, b""
while pos < len(data):
    n, typ = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if typ == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
    elif typ == b"IDAT":
        idat += body
    pos += 12 + n
assert depth == 8 and ctype in (2, 6), (depth, ctype)
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
# (rows of filter 0 and 2, most of a screenshot, are undone a row at
# a time in C through a sum table; 1, 3 and 4 byte by byte)
add = bytes((k >> 8) + (k & 255) & 255 for k in range(65536))
prev, rows, i = bytearray(stride), [], 0
for _ in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    if f == 2:
        line = bytearray(map(add.__getitem__, map(int.__or__, map((256).__mul__, line), prev)))
    elif f != 0:
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(bytes(line)); prev = line
want = {"decomposition": (0x1f, 0x77, 0xb4), "buckets": (0x2c, 0xa0, 0x2c),
        "functions": (0x94, 0x67, 0xbd), "latency": (0xd6, 0x27, 0x28)}
# each colour's pixels counted once, then matched
seen = collections.Counter()
for r in rows:
    seen.update(zip(r[0::bpp], r[1::bpp], r[2::bpp]))
count = dict.fromkeys(want, 0)
for px, n in seen.items():
    for k, v in want.items():
        if all(abs(px[j] - v[j]) <= 8 for j in range(3)):
            count[k] += n
nonwhite = sum(seen.values()) - seen[(255, 255, 255)]
print("chart pixels:", count, "non-white:", nonwhite)
bad = [k for k, v in count.items() if v < 500]
if bad:
    print("blank charts:", bad); sys.exit(1)
PY
echo "ok: screenshot in $PNG"
