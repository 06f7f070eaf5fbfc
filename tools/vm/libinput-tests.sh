# In-VM tests of what a kiosk UI gets through libinput (issue 26): systemd-udevd (Debian's
# rules and hwdb) tags the devices, `libinput debug-events` (Debian's libinput-tools) and
# `evtest` read touchwire's passthrough touchscreen; real panels' descriptions (an N-Trig,
# multi-touch protocol A, no INPUT_PROP_DIRECT; an EDT Polytouch, protocol B; an ELAN, protocol
# B with TOUCH_MAJOR, and the same with axes from 42; data/evemu/) are
# made with evemu-device and played with evemu-play into touchwire's evdev input; and a press
# read late keeps the kernel's times; presses whose end a recognizer holds back are as long for
# libinput as they were made. busybox sh; prints PASS/FAIL lines.
TW=/bin/touchwire
LIBINPUT=/usr/libexec/libinput/libinput-debug-events
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; }
check() { name=$1; shift; if "$@"; then pass "$name"; else fail "$name"; fi; }
wait_for() { # FILE PATTERN SECONDS
  n=0
  while ! grep -q "$2" "$1" 2>/dev/null; do
    n=$((n + 1)); [ $n -gt $(($3 * 10)) ] && return 1; sleep 0.1
  done
}
show() { sed "s/^/    $1: /" "$2" | head -${3:-20}; }
stop_tw() { kill -TERM $1 2>/dev/null; wait $1 2>/dev/null; }
# find_dev NAME SECONDS: the /dev/input/eventN of the input device called NAME
find_dev() {
  n=0
  while [ $n -le $(($2 * 10)) ]; do
    for d in /sys/class/input/event*; do
      [ "$(cat "$d/device/name" 2>/dev/null)" = "$1" ] && echo "/dev/input/${d##*/}" && return 0
    done
    n=$((n + 1)); sleep 0.1
  done
  return 1
}
# The touch events libinput reported, one word each (TOUCH_FRAME and motion left out).
touch_events() { grep -o 'TOUCH_DOWN\|TOUCH_UP\|TOUCH_CANCEL' "$1" | tr '\n' ' '; }

[ -c /dev/uinput ] || insmod /lib/modules/uinput.ko || fail "setup: insmod uinput"
mkdir -p /run/udev
/lib/systemd/systemd-udevd --daemon --resolve-names=never 2>/tmp/udevd.err || fail "setup: systemd-udevd did not start"
udevadm trigger --action=add 2>/dev/null
udevadm settle -t 20 || echo "INFO udevadm settle timed out"

# --- libinput reads touchwire's passthrough touchscreen ---------------------------------------
cat >/tmp/l1.script <<SCRIPT
waitfile /tmp/l1.go
down 0 100 200
sleep 80
up 0
sleep 900
down 0 100 200
sleep 60
up 0
sleep 120
down 0 600 300
sleep 60
up 0
sleep 900
drag 0 100 300 400 300 20 20
up 0
sleep 800
SCRIPT
cat >/tmp/l1.toml <<TOML
[panel]
width = 800
height = 480
width_mm = 160
height_mm = 96

[controller]
chip = "evdev"
name = "tw li panel"
grab = true

[[region]]
name = "screen"
frame = [0, 0, 800, 480]

[[recognizer]]
name = "pan"
kind = "pan"
region = "screen"

[[recognizer]]
name = "double"
kind = "tap"
region = "screen"
taps = 2

[passthrough]
name = "tw li ui"

[[output]]
type = "stdout"
TOML
twinput panel "tw li panel" 799 479 /tmp/l1.script >/tmp/l1.inj 2>&1 &
ipid=$!
wait_for /tmp/l1.inj READY 10 || fail "setup: twinput panel"
$TW run --board /tmp/l1.toml >/tmp/l1.out 2>/tmp/l1.err &
pid=$!
wait_for /tmp/l1.err "controller ready" 20 || { fail "libinput: touchwire not started"; show stderr /tmp/l1.err; }
UI=$(find_dev "tw li ui" 10) || fail "setup: touchwire's touchscreen \"tw li ui\" not found"
udevadm settle -t 10
udevadm info "$UI" >/tmp/l1.udev 2>&1
check "udev: touchwire's touchscreen is tagged ID_INPUT_TOUCHSCREEN ($UI)" grep -q 'ID_INPUT_TOUCHSCREEN=1' /tmp/l1.udev
evtest "$UI" >/tmp/l1.evtest 2>&1 &
epid=$!
$LIBINPUT --device "$UI" >/tmp/l1.li 2>&1 &
lpid=$!
wait_for /tmp/l1.li DEVICE_ADDED 30 || { fail "libinput: the device was not added"; show libinput /tmp/l1.li; }
show libinput /tmp/l1.li 3
check "libinput: a touch device of 160x96 mm (the board's width_mm/height_mm as resolution)" \
  grep -q 'DEVICE_ADDED.*tw li ui.*cap:t.*size 160x96mm' /tmp/l1.li
check "evtest: the axes have 5 units per mm and ABS_MT_TOOL_TYPE goes up to MT_TOOL_PALM" \
  sh -c "grep -A6 'ABS_MT_POSITION_X' /tmp/l1.evtest | grep -q 'Resolution *5' && grep -A4 'ABS_MT_TOOL_TYPE' /tmp/l1.evtest | grep -q 'Max *2'"
touch /tmp/l1.go
wait $ipid
sleep 1
got=$(touch_events /tmp/l1.li)
echo "INFO libinput touch events: $got"
check "libinput: a tap's touch down at its pixel's millimetres (100,200 px = 20.00/40.00 mm)" \
  grep -q 'TOUCH_DOWN.*(20.00/40.00mm)' /tmp/l1.li
check "libinput: two taps with the same contact id are two touches, the first lifted before the second lands" \
  sh -c "echo '$got' | grep -q '^TOUCH_DOWN TOUCH_UP TOUCH_DOWN TOUCH_UP TOUCH_DOWN TOUCH_UP '"
check "libinput: the drag the pan takes away ends in TOUCH_CANCEL, not TOUCH_UP" \
  [ "$got" = "TOUCH_DOWN TOUCH_UP TOUCH_DOWN TOUCH_UP TOUCH_DOWN TOUCH_UP TOUCH_DOWN TOUCH_CANCEL " ]
check "libinput: the second tap lands where it was made (600,300 px = 120.00/60.00 mm)" \
  grep -q 'TOUCH_DOWN.*(120.00/60.00mm)' /tmp/l1.li
show libinput /tmp/l1.li 40
stop_tw $pid
kill $lpid $epid 2>/dev/null; wait $lpid $epid 2>/dev/null

# --- presses whose end a recognizer holds back reach libinput as long as they were made --------
# The double tap holds a touch's end (delays_ended) until it fails: a 1 s press (its end held by
# the wait for a second tap), then a 60 ms tap and, 120 ms later with the same contact id, a 2 s
# press (the tap's end held until the press outlasts a tap, 1.5 s). held_ends = "on_time" (the
# default): each lift reaches the UI when the finger lifts. Each press's length as libinput
# reports it (its event times: touchwire's writes) is compared with the length made (twinput's
# MARKs right after its writes); the tolerance, 250 ms, is the worst difference allowed between
# touchwire's delays at a landing and at a lift. Lifts that wait for the held ends (held_ends =
# "delivered") would make the first press and the tap longer by the wait (the tap by 1.6 s) and
# the 2 s press 1.5 s shorter.
cat >/tmp/lh.script <<SCRIPT
waitfile /tmp/lh.go
down 0 100 200
mark d1
sleep 1000
up 0
mark u1
sleep 900
down 0 300 200
mark d2
sleep 60
up 0
mark u2
sleep 120
down 0 302 201
mark d3
sleep 2000
up 0
mark u3
sleep 800
SCRIPT
sed -e 's/tw li panel/tw held panel/' -e 's/tw li ui/tw held ui/' /tmp/l1.toml >/tmp/lh.toml
twinput panel "tw held panel" 799 479 /tmp/lh.script >/tmp/lh.inj 2>&1 &
ipid=$!
wait_for /tmp/lh.inj READY 10 || fail "setup: twinput panel (held ends)"
$TW run --board /tmp/lh.toml >/tmp/lh.out 2>/tmp/lh.err &
pid=$!
wait_for /tmp/lh.err "controller ready" 20 || { fail "held ends: touchwire not started"; show stderr /tmp/lh.err; }
UI=$(find_dev "tw held ui" 10) || fail "setup: touchwire's touchscreen \"tw held ui\" not found"
udevadm settle -t 10
$LIBINPUT --device "$UI" >/tmp/lh.li 2>&1 &
lpid=$!
wait_for /tmp/lh.li DEVICE_ADDED 30 || { fail "held ends: the device was not added"; show libinput /tmp/lh.li; }
touch /tmp/lh.go
wait $ipid
sleep 1
got=$(touch_events /tmp/lh.li)
echo "INFO libinput touch events: $got"
check "held ends: libinput saw three touches, each lifted (no cancel, none merged)" \
  [ "$got" = "TOUCH_DOWN TOUCH_UP TOUCH_DOWN TOUCH_UP TOUCH_DOWN TOUCH_UP " ]
# The presses' lengths in ms: made (MARKs) and as libinput reports them (its +S.SSSs times).
made=$(awk '/^MARK/ { t[$2] = $3 } END { printf "%d %d %d", (t["u1"] - t["d1"]) / 1000, (t["u2"] - t["d2"]) / 1000, (t["u3"] - t["d3"]) / 1000 }' /tmp/lh.inj)
# libinput prints (time - start) in uint32 milliseconds: an event queued before it took its start
# time shows as +4294967.xxxs; such a time is that much below zero.
seen=$(awk '/TOUCH_DOWN|TOUCH_UP/ { for (i = 1; i <= NF; i++) if ($i ~ /^\+[0-9.]+s$/) { v = substr($i, 2); sub(/s$/, "", v); v += 0; if (v >= 2147483.648) v -= 4294967.296; if ($0 ~ /TOUCH_DOWN/) d = v; else printf "%d ", (v - d) * 1000 + 0.5 } }' /tmp/lh.li)
echo "INFO press lengths in ms: made $made, libinput $seen"
within() { # MADE SEEN TOLERANCE_MS
  d=$(($2 - $1)); [ $d -lt 0 ] && d=$((-d)); [ $d -le $3 ]
}
set -- $made; m1=${1:-0} m2=${2:-0} m3=${3:-0}
set -- $seen; s1=${1:--9999} s2=${2:--9999} s3=${3:--9999}
check "held ends: the 1 s press whose end the double tap held is as long for libinput ($s1 ms, made $m1 ms, ±250)" \
  within "$m1" "$s1" 250
check "held ends: the tap before the press is a tap for libinput ($s2 ms, made $m2 ms, ±250)" within "$m2" "$s2" 250
check "held ends: the 2 s press after it (same contact id) is a 2 s press for libinput ($s3 ms, made $m3 ms, ±250)" \
  within "$m3" "$s3" 250
show libinput /tmp/lh.li 20
stop_tw $pid
kill $lpid 2>/dev/null; wait $lpid 2>/dev/null

# --- a real protocol A panel without INPUT_PROP_DIRECT (N-Trig), from its evemu description ---
evemu-device /tests/evemu/ntrig-multitouch.desc >/tmp/l2.dev 2>&1 &
dpid=$!
NTRIG=$(find_dev "N-Trig MultiTouch" 10) || { fail "setup: evemu-device N-Trig"; show evemu /tmp/l2.dev; }
udevadm settle -t 10
udevadm info "$NTRIG" >/tmp/l2.udev 2>&1
check "udev: the N-Trig (BTN_TOUCH, no INPUT_PROP_DIRECT) is tagged ID_INPUT_TOUCHSCREEN" \
  grep -q 'ID_INPUT_TOUCHSCREEN=1' /tmp/l2.udev
$TW probe --input >/tmp/l2.probe 2>&1
show probe /tmp/l2.probe 6
check "probe --input: the N-Trig is a multi-touch protocol A touchscreen" \
  grep -q "$NTRIG: touchscreen \"N-Trig MultiTouch\" (multi-touch protocol A, x 0…9600, y 0…7200)" /tmp/l2.probe
cat >/tmp/l2.toml <<TOML
[panel]
width = 800
height = 480

[controller]
chip = "evdev"
name = "N-Trig MultiTouch"

[[region]]
name = "screen"
frame = [0, 0, 800, 480]
multiple_touch = true

[[recognizer]]
name = "tap2"
kind = "tap"
region = "screen"
touches = 2

[[output]]
type = "stdout"
TOML
$TW run --board /tmp/l2.toml >/tmp/l2.out 2>/tmp/l2.err &
pid=$!
wait_for /tmp/l2.err "controller ready" 20 || { fail "protocol A: touchwire not started"; show stderr /tmp/l2.err; }
check "protocol A: touchwire reads the N-Trig (it was refused: \"no absolute X/Y axes\")" \
  grep -q 'controller ready: evdev "N-Trig MultiTouch".*multi-touch protocol A' /tmp/l2.err
evemu-play "$NTRIG" </tests/evemu/ntrig-2-finger-tap.events
if wait_for /tmp/l2.out '"recognizer":"tap2".*"state":"recognized"' 10; then
  pass "protocol A: a two-finger tap is a two-finger tap"
else
  fail "protocol A: no two-finger tap"; show stdout /tmp/l2.out; show stderr /tmp/l2.err
fi
stop_tw $pid
kill $dpid 2>/dev/null; wait $dpid 2>/dev/null

# --- a real protocol B panel (EDT Polytouch on edt-ft5x06, no ABS_MT_TOUCH_MAJOR) ------------
evemu-device /tests/evemu/edt-ep0430m09.desc >/tmp/l4.dev 2>&1 &
dpid=$!
EDT=$(find_dev "EP0430M09" 10) || { fail "setup: evemu-device EP0430M09"; show evemu /tmp/l4.dev; }
udevadm settle -t 10
$TW probe --input >/tmp/l4.probe 2>&1
check "probe --input: the EDT is a protocol B touchscreen with 5 slots" \
  grep -q "$EDT: touchscreen \"EP0430M09\" (multi-touch, 5 slots, x 0…1279, y 0…767)" /tmp/l4.probe
cat >/tmp/l4.toml <<TOML
[panel]
width = 800
height = 480

[controller]
chip = "evdev"
name = "EP0430M09"

[[region]]
name = "screen"
frame = [0, 0, 800, 480]

[[recognizer]]
name = "tap"
kind = "tap"
region = "screen"

[[output]]
type = "stdout"
TOML
$TW run --board /tmp/l4.toml >/tmp/l4.out 2>/tmp/l4.err &
pid=$!
wait_for /tmp/l4.err "controller ready" 20 || { fail "protocol B: touchwire not started"; show stderr /tmp/l4.err; }
evemu-play "$EDT" </tests/evemu/edt-tap.events
if wait_for /tmp/l4.out '"recognizer":"tap".*"state":"recognized".*"x":399\.[0-9]*,"y":239\.[0-9]*' 10; then
  pass "protocol B: the EDT's tap at 640,384 of 1279x767 is a tap at 399,239 of 800x480"
else
  fail "protocol B: no tap at the panel's middle"; show stdout /tmp/l4.out; show stderr /tmp/l4.err
fi
stop_tw $pid
kill $dpid 2>/dev/null; wait $dpid 2>/dev/null

# --- a real protocol B panel with ABS_MT_TOUCH_MAJOR/MINOR and orientation (ELAN, USB HID) ----
evemu-device /tests/evemu/elan-touchscreen.desc >/tmp/l6.dev 2>&1 &
dpid=$!
ELAN=$(find_dev "ELAN Touchscreen" 10) || { fail "setup: evemu-device ELAN Touchscreen"; show evemu /tmp/l6.dev; }
udevadm settle -t 10
udevadm info "$ELAN" >/tmp/l6.udev 2>&1
check "udev: the ELAN (protocol B, TOUCH_MAJOR, INPUT_PROP_DIRECT) is tagged ID_INPUT_TOUCHSCREEN" \
  grep -q 'ID_INPUT_TOUCHSCREEN=1' /tmp/l6.udev
$TW probe --input >/tmp/l6.probe 2>&1
check "probe --input: the ELAN is a protocol B touchscreen with 10 slots, x 0…3312, y 0…1872" \
  grep -q "$ELAN: touchscreen \"ELAN Touchscreen\" (multi-touch, 10 slots, x 0…3312, y 0…1872)" /tmp/l6.probe
sed -e 's/name = "EP0430M09"/name = "ELAN Touchscreen"/' /tmp/l4.toml >/tmp/l6.toml
$TW run --board /tmp/l6.toml >/tmp/l6.out 2>/tmp/l6.err &
pid=$!
wait_for /tmp/l6.err "controller ready" 20 || { fail "protocol B, TOUCH_MAJOR: touchwire not started"; show stderr /tmp/l6.err; }
evemu-play "$ELAN" </tests/evemu/elan-tap.events
if wait_for /tmp/l6.out '"recognizer":"tap".*"state":"recognized".*"x":399\.[0-9]*,"y":239\.[0-9]*' 10; then
  pass "protocol B, TOUCH_MAJOR: the ELAN's tap at 1656,936 of 3312x1872 (its contact growing) is a tap at 399,239"
else
  fail "protocol B, TOUCH_MAJOR: no tap at the panel's middle"; show stdout /tmp/l6.out; show stderr /tmp/l6.err
fi
stop_tw $pid
kill $dpid 2>/dev/null; wait $dpid 2>/dev/null

# --- axes that do not start at 0: the ELAN's description with X/Y from 42 (data/evemu/README) ---
evemu-device /tests/evemu/elan-touchscreen-from-42.desc >/tmp/l7.dev 2>&1 &
dpid=$!
ELAN42=$(find_dev "ELAN Touchscreen (axes from 42)" 10) || { fail "setup: evemu-device ELAN from 42"; show evemu /tmp/l7.dev; }
udevadm settle -t 10
$TW probe --input >/tmp/l7.probe 2>&1
check "probe --input: the axes from 42 are shown as they are (x 42…3354, y 42…1914)" \
  grep -q "$ELAN42: touchscreen \"ELAN Touchscreen (axes from 42)\" (multi-touch, 10 slots, x 42…3354, y 42…1914)" /tmp/l7.probe
sed -e 's/name = "EP0430M09"/name = "ELAN Touchscreen (axes from 42)"/' /tmp/l4.toml >/tmp/l7.toml
$TW run --board /tmp/l7.toml >/tmp/l7.out 2>/tmp/l7.err &
pid=$!
wait_for /tmp/l7.err "controller ready" 20 || { fail "axes from 42: touchwire not started"; show stderr /tmp/l7.err; }
evemu-play "$ELAN42" </tests/evemu/elan-from-42-taps.events
wait_for /tmp/l7.out '"x":399\.[0-9]*,"y":239\.[0-9]*' 10
show out /tmp/l7.out 6
check "axes from 42: a tap at the axes' minimum (42,42) is a tap at the panel's corner 0,0" \
  grep -Eq '"recognizer":"tap".*"state":"recognized".*"x":0(\.0*)?,"y":0(\.0*)?[,}]' /tmp/l7.out
check "axes from 42: a tap at 1698,978 (the middle of 42…3354 x 42…1914) is a tap at 399,239" \
  grep -q '"recognizer":"tap".*"state":"recognized".*"x":399\.[0-9]*,"y":239\.[0-9]*' /tmp/l7.out
stop_tw $pid
kill $dpid 2>/dev/null; wait $dpid 2>/dev/null

# --- [passthrough] slots = 2: a slot's touch lifts and another lands in it in the same report --
# On the EDT: A in slot 0, B in slot 1, then B's slot gets a new tracking id (B lifts, C lands) in
# one report. libinput must see three touches: C shown in the UI's second slot after B's lift.
evemu-device /tests/evemu/edt-ep0430m09.desc >/tmp/l8.dev 2>&1 &
dpid=$!
EDT=$(find_dev "EP0430M09" 10) || { fail "setup: evemu-device EP0430M09 (slots)"; show evemu /tmp/l8.dev; }
udevadm settle -t 10
cat >/tmp/l8.toml <<TOML
[panel]
width = 800
height = 480
width_mm = 160
height_mm = 96

[controller]
chip = "evdev"
name = "EP0430M09"
grab = true

[[region]]
name = "screen"
frame = [0, 0, 800, 480]
multiple_touch = true

[[recognizer]]
name = "pan"
kind = "pan"
region = "screen"
cancels_touches = false

[passthrough]
name = "tw slots ui"
slots = 2
TOML
$TW run --board /tmp/l8.toml >/tmp/l8.out 2>/tmp/l8.err &
pid=$!
wait_for /tmp/l8.err "controller ready" 20 || { fail "slots = 2: touchwire not started"; show stderr /tmp/l8.err; }
UI=$(find_dev "tw slots ui" 10) || fail "setup: touchwire's touchscreen \"tw slots ui\" not found"
udevadm settle -t 10
$LIBINPUT --device "$UI" >/tmp/l8.li 2>&1 &
lpid=$!
wait_for /tmp/l8.li DEVICE_ADDED 30 || { fail "slots = 2: the device was not added"; show libinput /tmp/l8.li; }
evemu-play "$EDT" </tests/evemu/edt-slot-reuse.events
sleep 1
got=$(touch_events /tmp/l8.li)
echo "INFO libinput touch events: $got"
check "slots = 2: libinput saw three touches, the third after the second's lift, none dropped" \
  [ "$got" = "TOUCH_DOWN TOUCH_DOWN TOUCH_UP TOUCH_DOWN TOUCH_UP TOUCH_UP " ]
check "slots = 2: the third lands where it was made (800,600 of 1279x767 = 500,375 px = 100.00/75.00 mm)" \
  grep -q 'TOUCH_DOWN.*(100.00/75.00mm)' /tmp/l8.li
show libinput /tmp/l8.li 20
stop_tw $pid
kill $lpid $dpid 2>/dev/null; wait $lpid $dpid 2>/dev/null

# --- a real USB HID panel with a pen bit (eGalax): refused as a tablet, with the true reason ---
evemu-device /tests/evemu/egalax-usb-touchcontroller.desc >/tmp/l9.dev 2>&1 &
dpid=$!
EGALAX=$(find_dev "eGalax Inc. USB TouchController" 10) || { fail "setup: evemu-device eGalax"; show evemu /tmp/l9.dev; }
udevadm settle -t 10
udevadm info "$EGALAX" >/tmp/l9.udev 2>&1
check "udev: the eGalax (BTN_TOOL_PEN beside its touch axes) is tagged ID_INPUT_TABLET" \
  grep -q 'ID_INPUT_TABLET=1' /tmp/l9.udev
$TW probe --input >/tmp/l9.probe 2>&1
check "probe --input: the eGalax is listed as refused for its pen, not for missing axes" \
  sh -c "grep -F '$EGALAX: \"eGalax Inc. USB TouchController\" refused:' /tmp/l9.probe | grep -q 'pen (BTN_TOOL_PEN'"
sed -e 's/name = "EP0430M09"/name = "eGalax Inc. USB TouchController"/' /tmp/l4.toml >/tmp/l9.toml
timeout 20 $TW run --board /tmp/l9.toml >/tmp/l9.out 2>/tmp/l9.err
show stderr /tmp/l9.err 3
check "run: a board naming the eGalax stops with the true reason (a pen: a tablet), not \"no absolute X/Y axes\"" \
  sh -c "grep -q 'is not a touchscreen: it reports a pen' /tmp/l9.err && ! grep -q 'no absolute' /tmp/l9.err"
kill $dpid 2>/dev/null; wait $dpid 2>/dev/null

# --- kernel times: a 913 ms press read late (touchwire stopped) is still a long press ---------
cat >/tmp/l3.script <<SCRIPT
waitfile /tmp/l3.go
stop /tmp/l3.pid
sleep 300
down 0 400 240
sleep 913
up 0
sleep 300
cont /tmp/l3.pid
sleep 1500
SCRIPT
cat >/tmp/l3.toml <<TOML
[panel]
width = 800
height = 480

[controller]
chip = "evdev"
name = "tw time panel"

[[region]]
name = "screen"
frame = [0, 0, 800, 480]

[[recognizer]]
name = "press"
kind = "long_press"
region = "screen"

[[recognizer]]
name = "tap"
kind = "tap"
region = "screen"

[[output]]
type = "stdout"
TOML
twinput panel "tw time panel" 799 479 /tmp/l3.script >/tmp/l3.inj 2>&1 &
ipid=$!
wait_for /tmp/l3.inj READY 10 || fail "setup: twinput panel (time)"
$TW run --board /tmp/l3.toml >/tmp/l3.out 2>/tmp/l3.err &
pid=$!
echo $pid >/tmp/l3.pid
wait_for /tmp/l3.err "controller ready" 20 || { fail "kernel times: touchwire not started"; show stderr /tmp/l3.err; }
touch /tmp/l3.go
wait $ipid
wait_for /tmp/l3.out '"recognizer":"press".*"state":"ended"' 5
show out /tmp/l3.out 10
check "kernel times: a 913 ms press read after it ended is a long press (the kernel's times, not the read's)" \
  grep -q '"recognizer":"press".*"state":"began"' /tmp/l3.out
check "kernel times: and not a tap" sh -c "! grep -q '\"recognizer\":\"tap\"' /tmp/l3.out"
stop_tw $pid

# --- touch to wake, as libinput sees it (issue 27): the wake tap never reaches the UI ---------
# The screen (tw_backlight.ko's class device) goes dark after 1 s idle (counted from the start:
# the taps wait for it, however long libinput takes to start); the wake tap and a tap within the
# 300 ms guard give libinput no touch at all; the tap after the guard, and one 150 ms after it
# (the screen on), are touches.
BL=/sys/class/backlight/tw-backlight
cat >/tmp/l4.script <<SCRIPT
waitfile /tmp/l4.dark
down 0 300 200
sleep 50
up 0
sleep 100
down 0 310 200
sleep 50
up 0
sleep 600
down 0 500 200
sleep 50
up 0
sleep 150
down 0 100 200
sleep 50
up 0
sleep 500
SCRIPT
sed -e 's/tw li panel/tw wake li panel/' -e 's/tw li ui/tw wake li ui/' /tmp/l1.toml >/tmp/l4.toml
printf '\n[display]\nidle_off_s = 1\nbacklight = "tw-backlight"\n' >>/tmp/l4.toml
twinput panel "tw wake li panel" 799 479 /tmp/l4.script >/tmp/l4.inj 2>&1 &
ipid=$!
wait_for /tmp/l4.inj READY 10 || fail "setup: twinput panel (wake, libinput)"
$TW run --board /tmp/l4.toml >/tmp/l4.out 2>/tmp/l4.err &
pid=$!
wait_for /tmp/l4.err "controller ready" 20 || { fail "wake/libinput: touchwire not started"; show stderr /tmp/l4.err; }
UI=$(find_dev "tw wake li ui" 10) || fail "setup: touchwire's touchscreen \"tw wake li ui\" not found"
udevadm settle -t 10
$LIBINPUT --device "$UI" >/tmp/l4.li 2>&1 &
lpid=$!
wait_for /tmp/l4.li DEVICE_ADDED 30 || { fail "wake/libinput: the device was not added"; show libinput /tmp/l4.li; }
n=0; while [ "$(cat $BL/bl_power)" != 4 ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
check "wake/libinput: the screen went dark after the idle second (bl_power 4)" [ "$(cat $BL/bl_power)" = 4 ]
touch /tmp/l4.dark
wait $ipid
sleep 1
got=$(touch_events /tmp/l4.li)
echo "INFO libinput touch events: $got"
check "wake/libinput: the wake touch brought the screen back (display on, cause touch)" \
  grep -q '"display":"on","cause":"touch"' /tmp/l4.out
check "wake/libinput: libinput saw two touches, the one after the guard and the next" \
  [ "$got" = "TOUCH_DOWN TOUCH_UP TOUCH_DOWN TOUCH_UP " ]
check "wake/libinput: the first at 500,200 px (100.00/40.00 mm), the last at 100,200 px (20.00/40.00 mm)" \
  sh -c "grep 'TOUCH_DOWN' /tmp/l4.li | head -1 | grep -q '(100.00/40.00mm)' && grep 'TOUCH_DOWN' /tmp/l4.li | tail -1 | grep -q '(20.00/40.00mm)'"
check "wake/libinput: no touch of the wake tap or the guard's (300/310 px = 60.00/62.00 mm)" \
  sh -c "! grep -q 'TOUCH_DOWN.*(6[02].00/40.00mm)' /tmp/l4.li"
show libinput /tmp/l4.li 30
stop_tw $pid
kill $lpid 2>/dev/null; wait $lpid 2>/dev/null
