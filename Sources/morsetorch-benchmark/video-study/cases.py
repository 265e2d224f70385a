# name: (params for gen.py, expected text, extra receive args, container ext)
T = "PARIS CQ 73"
C = {}
def case(name, exp=None, args=(), ext="mp4", **p):
    C[name] = (p, exp if exp is not None else p.get("text", T), list(args), ext)

# baseline
case("base")
# frame rates
for f, n in [("24", "24"), ("25", "25"), ("30000/1001", "2997"), ("30", "30"), ("50", "50"), ("60", "60")]:
    case(f"fps{n}", fps=f)
# WPM at 30 fps
for w in [5, 10, 15, 20, 25]:
    case(f"wpm{w}", wpm=w, text="PARIS CQ" if w <= 10 else T)
# below ~2 frames per unit
case("wpm25_fps24", wpm=25, fps="24")          # 1.15 frames/unit
case("wpm30_fps24", wpm=30, fps="24")          # 0.96 frames/unit
case("wpm40_fps24", wpm=40, fps="24")          # 0.72
case("wpm60_fps30", wpm=60, fps="30")          # 0.6
case("wpm30_fps15", wpm=30, fps="15")          # 0.6
# codec / quality
for q in [18, 23, 28, 33, 38]:
    case(f"x264_crf{q}", crf=q)
case("x264_ultrafast", preset="ultrafast")
case("x264_veryslow", preset="veryslow")
case("x264_g250_bf3", extra=["-g", "250", "-bf", "3"])
case("x264_crf38_g250_bf8", crf=38, extra=["-g", "250", "-bf", "8"])
case("x264_yuvj420p", pix_fmt="yuvj420p")
case("x265_crf28", vcodec="libx265", crf=28, extra=["-x265-params", "log-level=error"])
case("x265_crf36", vcodec="libx265", crf=36, extra=["-x265-params", "log-level=error"])
case("vp9_crf40", vcodec="libvpx-vp9", crf=40, ext="webm")
case("vp9_crf55", vcodec="libvpx-vp9", crf=55, ext="webm")
case("mjpeg_q5", vcodec="mjpeg", pix_fmt="yuvj420p", extra=["-q:v", "5"], ext="avi")
case("mjpeg_q31", vcodec="mjpeg", pix_fmt="yuvj420p", extra=["-q:v", "31"], ext="avi")
case("res1080", w=1920, h=1080, lx=1300, ly=400)
case("res1080_r3_crf28", w=1920, h=1080, lx=1300, ly=400, radius=3, crf=28)
case("res320", w=320, h=240, lx=200, ly=100, radius=3)
# scene
case("dot6px", radius=3)
case("dot12px", radius=6)
case("dot3px", radius=1.5)
case("large60px", radius=30)
case("dim30pct", on=200, off=140)
case("dim30pct_crf28", on=200, off=140, crf=28)
case("dim15pct", on=200, off=170)
case("busy_testsrc2", busy="testsrc2")
case("busy_mandelbrot", busy="mandelbrot")
case("busy_life", busy="life")
case("drift5px", vx=5, vy=2)
case("pan20px", lx=150, vx=20, vy=-6)
case("flicker10", flicker=0.10)
case("flicker25", flicker=0.25)
case("flicker25_fps24", flicker=0.25, fps="24")
case("noise8", noise=8)
case("noise20", noise=20)
case("light2_steady", light2=dict(kind="steady", x=150, y=350, radius=8, on=255))
case("light2_blink1hz", light2=dict(kind="blink", x=150, y=350, radius=8, on=255, period=1.0))
case("light2_irregular", light2=dict(kind="irregular", x=150, y=350, radius=8, on=255))
case("bloom", on=255, bloom=400)
case("bloom_big", on=255, bloom=900, radius=8)
# hand keying
case("jitter10", jitter=0.10, text="CQ CQ DE TEST K")
case("jitter25", jitter=0.25, text="CQ CQ DE TEST K")
case("farnsworth18_8", wpm=18, farnsworth=8, text="CQ CQ DE TEST K")
# stream oddities
case("vfr_drop5", vfr=dict(jitter=0.3, drop=0.05))
case("vfr_drop15", vfr=dict(jitter=0.4, drop=0.15))
case("start_midchar", lead=0.0, start_offset=0.40, text="PARIS CQ 73", exp="NARIS CQ 73")  # starts after the first dash of P (.--.): "-." left = N
case("start_light_on", start_on=2.0, lead=3.0)
case("trailing_silence20", tail=20.0)
case("long5min", lead=300.0, w=320, h=240, lx=200, ly=100, radius=3)
# combined, phone-like
case("combo_phone", fps="30000/1001", w=1920, h=1080, lx=1200, ly=500, radius=5, crf=28, jitter=0.2,
     noise=6, flicker=0.08, vx=3, vy=1, text="CQ CQ DE TEST K")
case("combo_busy", busy="testsrc2", noise=6, vx=4, vy=2, crf=33, on=220, off=120, jitter=0.15, text="CQ CQ DE TEST K")
case("combo_dim_flicker", on=200, off=140, flicker=0.15, noise=5, crf=28)
case("combo_2lights_drift", light2=dict(kind="irregular", x=150, y=350, radius=8, on=255), vx=5, vy=2, noise=5)
# --- follow-ups (ablations of failures) ---
case("farnsworth18_8_flag", wpm=18, farnsworth=8, text="CQ CQ DE TEST K", args=["--farnsworth", "8"])
case("flicker15", flicker=0.15)
case("flicker20", flicker=0.20)
case("flicker10_fps24", flicker=0.10, fps="24")
case("pan10px", lx=250, vx=10, vy=-3)
case("pan15px", lx=200, vx=15, vy=-4)
case("vfr_drop10", vfr=dict(jitter=0.4, drop=0.10))
case("start_light_on_short", start_on=0.5, lead=1.5)
case("start_light_on_long_lead", start_on=2.0, lead=10.0)
P = dict(fps="30000/1001", w=1920, h=1080, lx=1200, ly=500, radius=5, crf=28, jitter=0.2, noise=6, flicker=0.08,
         vx=3, vy=1, text="CQ CQ DE TEST K")
def abl(name, **kw):
    q = dict(P); q.update(kw); q = {k: v for k, v in q.items() if v is not None}; case(name, **q)
abl("phone_noflicker", flicker=None)
abl("phone_nonoise", noise=None)
abl("phone_nodrift", vx=None, vy=None)
abl("phone_flicker_only", noise=None, vx=None, vy=None, jitter=None, crf=23)
abl("phone_flicker_only_640", noise=None, vx=None, vy=None, jitter=None, crf=23, w=640, h=480, lx=400, ly=200)
abl("phone_noise_only", flicker=None, vx=None, vy=None, jitter=None, crf=23)
abl("phone_noise_only_crf28", flicker=None, vx=None, vy=None, jitter=None)
case("busy_testsrc2_big", busy="testsrc2", radius=12)
case("busy_testsrc2_late", busy="testsrc2", lead=6.0)
# real variable-frame-rate containers (frames removed, timestamps kept; ffmpeg re-times them to CFR for y4m)
case("realvfr_drop_every7", post=["-vf", "select='not(eq(mod(n\\,7)\\,3))'", "-fps_mode", "vfr", "-c:v", "libx264", "-crf", "23"])
case("realvfr_random15", post=["-vf", "select='gt(random(0)\\,0.15)'", "-fps_mode", "vfr", "-c:v", "libx264", "-crf", "23"])
case("realvfr_random15_mkv", ext="mkv", post=["-vf", "select='gt(random(0)\\,0.15)'", "-fps_mode", "vfr", "-c:v", "libx264", "-crf", "23"])
case("start_on_0.8s", start_on=0.8, lead=2.0)
case("start_on_1.2s", start_on=1.2, lead=2.0)
# an on-screen clock (CCTV/dashcam style), drawn by ffmpeg over the plain scene
case("osd_clock", post=["-vf", "drawtext=text='%{pts\\:hms}':x=10:y=10:fontsize=24:fontcolor=white:box=1:boxcolor=black", "-c:v", "libx264", "-crf", "23"])
case("osd_framecount", post=["-vf", "drawtext=text='%{n}':x=10:y=10:fontsize=24:fontcolor=white", "-c:v", "libx264", "-crf", "23"])
# ambient-only flicker (the LED itself steady in brightness)
case("amb_flicker15", flicker=0.15, flicker_ambient=True)
case("amb_flicker25", flicker=0.25, flicker_ambient=True)
case("amb_flicker25_bg120", flicker=0.25, flicker_ambient=True, bg=120)
abl("amb_phone_flicker8_1080", noise=None, vx=None, vy=None, jitter=None, crf=23, flicker_ambient=True)
abl("amb_phone_flicker5_1080", noise=None, vx=None, vy=None, jitter=None, crf=23, flicker=0.05, flicker_ambient=True)
abl("amb_combo_phone", flicker_ambient=True)
case("x265_10bit", vcodec="libx265", crf=28, pix_fmt="yuv420p10le", extra=["-x265-params", "log-level=error"])
case("x264_10bit_1080", w=1920, h=1080, lx=1300, ly=400, pix_fmt="yuv420p10le", crf=23)
case("pan7px", lx=250, vx=7, vy=-2)
case("shake_4px_1hz", shake=dict(ax=4, ay=3, hz=1.0))
case("shake_10px_0.5hz", shake=dict(ax=10, ay=6, hz=0.5))
case("shake_20px_0.3hz", shake=dict(ax=20, ay=12, hz=0.3))
case("jitter20_paris_seed9", jitter=0.20, seed=9)
case("jitter25_paris_seed2", jitter=0.25, seed=2)
case("jitter20_message_seed9", jitter=0.20, seed=9, text="MESSAGE RECEIVED")
case("light2_irregular_big", light2=dict(kind="irregular", x=150, y=350, radius=16, on=255))
case("light2_irregular_big_early", light2=dict(kind="irregular", x=150, y=350, radius=16, on=255), lead=5.0)
# the manual's claim: 30 WPM at 30 fps, 60 WPM at 60 fps (1.2 frames a dot)
case("wpm30_fps30", wpm=30, fps="30")
case("wpm60_fps60", wpm=60, fps="60")
case("wpm35_fps30", wpm=35, fps="30")   # 1.03 frames/unit
case("wpm30_fps30_jit10", wpm=30, fps="30", jitter=0.10)
