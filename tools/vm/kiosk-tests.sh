# In-VM tests of the kiosk integration (issue 14), on Debian's evdev and uinput modules
# (busybox sh; run by /init after tests.sh). Prints PASS/FAIL lines like tests.sh.
# twinput (twinput.c) is the other side: a virtual multi-touch panel made through /dev/uinput that
# plays a script, and a reader of any input device by name (touchwire's own virtual devices).
TW=/bin/touchwire
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
# lines N..M of the FRAME lines of FILE
frames() { grep '^FRAME' "$1" | sed -n "$2,$3p"; }
# board FILE NAME [controller lines] [rest]: an 800x480 evdev board reading the device called NAME
board() {
  cat >"$1" <<TOML
[panel]
width = 800
height = 480

[controller]
chip = "evdev"
name = "$2"
$3

[[region]]
name = "screen"
frame = [0, 0, 800, 480]

$4

[[output]]
type = "stdout"
TOML
}
PAN='[[recognizer]]
name = "pan"
kind = "pan"
region = "screen"'
TAP='[[recognizer]]
name = "tap"
kind = "tap"
region = "screen"'

# --- a missing /dev/uinput (the module not loaded yet) ----------------------------------------
cat >/tmp/k0.toml <<TOML
[panel]
width = 800
height = 480

[controller]
chip = "ft6x36"
bus = "sim"

[simulation]
script = "demo"

[[region]]
name = "screen"
frame = [0, 0, 800, 480]

$TAP

[passthrough]
name = "tw ui"
TOML
timeout 30 $TW run --board /tmp/k0.toml >/tmp/k0.out 2>/tmp/k0.err; rc=$?
show k0 /tmp/k0.err 3
check "uinput missing: run refuses [passthrough] with one error naming /dev/uinput and the module (exit $rc)" \
  sh -c "[ $rc -ne 0 ] && [ ! -s /tmp/k0.out ] && grep -q 'k0.toml: passthrough: /dev/uinput does not exist (load the uinput module' /tmp/k0.err"

insmod /lib/modules/uinput.ko || fail "setup: insmod uinput"
[ -c /dev/uinput ] || fail "setup: no /dev/uinput after insmod uinput"

# --- (a)+(c) evdev input, passive: a swipe on a uinput panel -> event + key chord ------------
cat >/tmp/k1.script <<EOF
waitfile /tmp/k1.go
drag 0 512 2048 3584 2048 12 15
up 0
waitfile /tmp/k1.done
EOF
board /tmp/k1.toml "tw test panel" "" "[[recognizer]]
name = \"swipe\"
kind = \"swipe\"
region = \"screen\"
direction = [\"right\"]
min_velocity = 20
max_duration_ms = 10000

[[binding]]
recognizer = \"swipe\"
action = \"key\"
keys = [\"KEY_LEFTMETA\", \"KEY_F5\"]"
twinput panel "tw test panel" 4095 4095 /tmp/k1.script >/tmp/k1.inj 2>&1 &
ipid=$!
wait_for /tmp/k1.inj READY 10 || fail "setup: twinput panel"
PANEL=$(sed -n 's/^READY //p' /tmp/k1.inj)
$TW probe --input >/tmp/k1.probe 2>&1
show probe /tmp/k1.probe 6
check "probe --input lists the uinput panel ($PANEL)" grep -q "$PANEL.*tw test panel" /tmp/k1.probe
$TW run --board /tmp/k1.toml >/tmp/k1.out 2>/tmp/k1.err &
pid=$!
if wait_for /tmp/k1.err "controller ready" 20; then
  pass "evdev: touchwire found the panel by name and started"
else
  fail "evdev: not started"; show stderr /tmp/k1.err
fi
check "evdev: ready line names the device and its slots" grep -q "controller ready: evdev \"tw test panel\" on $PANEL.*multi-touch, 10 slots" /tmp/k1.err
twinput read "touchwire keyboard" 30 >/tmp/k1.keys 2>&1 &
rpid=$!
wait_for /tmp/k1.keys READY 10 || fail "setup: touchwire keyboard not found"
KBD=$(sed -n 's/^READY //p' /tmp/k1.keys)
touch /tmp/k1.go
if wait_for /tmp/k1.out '"kind":"swipe","state":"recognized".*"direction":"right"' 15; then
  pass "evdev: a swipe played through /dev/uinput is recognized (event on stdout)"
else
  fail "evdev: no swipe"; show stdout /tmp/k1.out; show inj /tmp/k1.inj 4; show stderr /tmp/k1.err
fi
wait_for /tmp/k1.keys 'KEY 125 0' 5
keys=$(grep '^KEY' /tmp/k1.keys | tr '\n' ' ')
echo "INFO keys read back from $KBD: $keys"
check "keys: the swipe presses Meta+F5 on touchwire's keyboard and releases them (read back with evdev)" \
  [ "$keys" = "KEY 125 1 KEY 63 1 KEY 63 0 KEY 125 0 " ]

# Bad input on a real kernel: an input device that is no touchscreen (touchwire's own keyboard).
cat >/tmp/kbd.toml <<TOML
[panel]
width = 800
height = 480

[controller]
chip = "evdev"
device = "$KBD"

[[region]]
name = "screen"
frame = [0, 0, 800, 480]

$TAP
TOML
timeout 30 $TW run --board /tmp/kbd.toml >/tmp/kbd.out 2>/tmp/kbd.err; rc=$?
show notts /tmp/kbd.err 3
check "error: a keyboard is refused: not a touchscreen, nothing started (exit $rc)" \
  sh -c "[ $rc -ne 0 ] && [ ! -s /tmp/kbd.out ] && grep -q \"kbd.toml: controller.device: input device $KBD (\\\"touchwire keyboard\\\") is not a touchscreen\" /tmp/kbd.err"

# Permission denied: boards run as an unprivileged user (nobody, not in group input).
grep -v -e '^\[\[binding' -e 'recognizer = "swipe"' -e '^action = ' -e '^keys = ' /tmp/k1.toml >/tmp/k1n.toml
sed "s|^name = \"tw test panel\"|device = \"$PANEL\"|" /tmp/k1n.toml >/tmp/k1p.toml
chmod 644 /tmp/k1p.toml /tmp/k1n.toml /tmp/k0.toml
for b in k1p k1n; do
  timeout 30 twinput asuser 65534 65534 $TW run --board /tmp/$b.toml >/tmp/perm-$b.out 2>/tmp/perm-$b.err
  echo "rc=$?" >>/tmp/perm-$b.err
  show perm-$b /tmp/perm-$b.err 3
done
check "error: permission denied on the panel's node names it and group input" \
  sh -c "grep -q 'controller.device: permission denied opening $PANEL (.*group input' /tmp/perm-k1p.err && ! grep -q rc=0 /tmp/perm-k1p.err"
check "error: by name, unreadable devices give permission denied (group input), not 'no device named'" \
  sh -c "grep -q 'controller.name: permission denied opening /dev/input/event.*group input' /tmp/perm-k1n.err && ! grep -q rc=0 /tmp/perm-k1n.err"
timeout 30 twinput asuser 65534 65534 $TW run --board /tmp/k0.toml >/tmp/perm-u.out 2>/tmp/perm-u.err; rc=$?
show perm-uinput /tmp/perm-u.err 3
check "error: permission denied on /dev/uinput names the udev rule for group touchwire-uinput (exit $rc)" \
  sh -c "[ $rc -ne 0 ] && grep -q 'passthrough: permission denied opening /dev/uinput (.*GROUP=\"touchwire-uinput\"' /tmp/perm-u.err"
stop_tw $pid
kill $rpid 2>/dev/null; wait $rpid 2>/dev/null
touch /tmp/k1.done
wait $ipid

# --- (b) passthrough: touchwire grabs the panel, the UI reads touchwire's touchscreen ---------
cat >/tmp/k2.script <<EOF
waitfile /tmp/k2.go
down 0 100 200
sleep 100
move 0 102 201
sleep 100
up 0
sleep 500
drag 0 100 300 400 300 100 20
sleep 300
move 0 420 300
sleep 100
up 0
sleep 500
EOF
board /tmp/k2.toml "tw grab panel" "grab = true" "$PAN

[passthrough]
name = \"tw ui\""
twinput panel "tw grab panel" 799 479 /tmp/k2.script >/tmp/k2.inj 2>&1 &
ipid=$!
wait_for /tmp/k2.inj READY 10 || fail "setup: twinput panel (grab)"
$TW run --board /tmp/k2.toml >/tmp/k2.out 2>/tmp/k2.err &
pid=$!
wait_for /tmp/k2.err "controller ready" 20 || { fail "passthrough: not started"; show stderr /tmp/k2.err; }
twinput read "tw ui" 40 >/tmp/k2.ui 2>&1 &
upid=$!
twinput read "tw grab panel" 40 >/tmp/k2.panel 2>&1 &
ppid=$!
wait_for /tmp/k2.ui READY 10 || fail "setup: touchwire's touchscreen \"tw ui\" not found"
wait_for /tmp/k2.panel READY 10
touch /tmp/k2.go
wait $ipid
sleep 1
inj=$(grep -c '^FRAME' /tmp/k2.inj); ui=$(grep -c '^FRAME' /tmp/k2.ui)
echo "INFO passthrough: $inj frames injected, $ui read back from touchwire's touchscreen"
check "passthrough: a touch no recognizer takes reaches the UI frame for frame (3 in = 3 out)" \
  [ "$(frames /tmp/k2.inj 1 3)" = "$(frames /tmp/k2.ui 1 3)" ]
check "passthrough: the pan began on the drag" grep -q '"recognizer":"pan","kind":"pan","state":"began"' /tmp/k2.out
last=$(frames /tmp/k2.ui $ui $ui)
check "passthrough: the UI saw the drag's frames up to the pan, then the touch lifted (cancels_touches)" \
  sh -c "[ $ui -ge 6 ] && [ '$last' = FRAME ] && [ \"\$(frames /tmp/k2.inj 4 $((ui - 1)))\" = \"\$(frames /tmp/k2.ui 4 $((ui - 1)))\" ]"
check "passthrough: the pan's touch reaches the UI as a cancel (MT_TOOL_PALM) before its lift" \
  sh -c "[ \"\$(grep -c '^CANCEL' /tmp/k2.ui)\" = 1 ] && grep -A1 '^CANCEL' /tmp/k2.ui | tail -n 1 | grep -qx FRAME"
check "passthrough: nothing more of that touch reaches the UI (injected $inj, UI $ui, no 420,300)" \
  sh -c "[ $ui -lt $inj ] && ! grep -q '420,300' /tmp/k2.ui"
check "passthrough: grab = true: another reader of the panel gets nothing" sh -c "! grep -q '^FRAME' /tmp/k2.panel"
show ui /tmp/k2.ui 30
stop_tw $pid
kill $upid $ppid 2>/dev/null; wait $upid $ppid 2>/dev/null

# --- (d) SYN_DROPPED: a burst while touchwire is stopped overflows its evdev buffer -----------
cat >/tmp/k3.script <<EOF
waitfile /tmp/k3.go
drag 0 100 240 300 240 10 30
sleep 500
watch
stop /tmp/k3.pid
burst 0 3000
up 0
watchcheck
cont /tmp/k3.pid
sleep 800
down 0 600 100
sleep 50
up 0
sleep 1500
EOF
board /tmp/k3.toml "tw drop panel" "" "$PAN

$TAP"
twinput panel "tw drop panel" 799 479 /tmp/k3.script >/tmp/k3.inj 2>&1 &
ipid=$!
wait_for /tmp/k3.inj READY 10 || fail "setup: twinput panel (drop)"
$TW run --board /tmp/k3.toml >/tmp/k3.out 2>/tmp/k3.err &
pid=$!
echo $pid >/tmp/k3.pid
wait_for /tmp/k3.err "controller ready" 20 || { fail "syn_dropped: not started"; show stderr /tmp/k3.err; }
touch /tmp/k3.go
wait $ipid
wait_for /tmp/k3.out '"recognizer":"tap".*"state":"recognized"' 5
show out /tmp/k3.out 30
check "syn_dropped: the burst overflowed an evdev client's buffer (SYN_DROPPED seen by a stopped reader)" \
  grep -q 'DROPPED yes' /tmp/k3.inj
b=$(grep -n '"recognizer":"pan".*"state":"began"' /tmp/k3.out | head -1 | cut -d: -f1)
e=$(grep -n '"recognizer":"pan".*"state":"\(cancelled\|ended\)"' /tmp/k3.out | head -1 | cut -d: -f1)
t=$(grep -n '"recognizer":"tap".*"state":"recognized".*"x":600.0,"y":100.0' /tmp/k3.out | head -1 | cut -d: -f1)
check "syn_dropped: the pan in progress ends after the resync, no stuck touch (lines began $b, end $e)" \
  sh -c "[ -n '$b' ] && [ -n '$e' ] && [ '$e' -gt '$b' ]"
check "syn_dropped: the next gesture (a tap at 600,100) is recognized after SIGCONT (line $t)" \
  sh -c "[ -n '$t' ] && [ -n '$e' ] && [ '$t' -gt '$e' ]"
check "syn_dropped: no tap was invented from the lost lift" sh -c "[ \$(grep -c '\"recognizer\":\"tap\"' /tmp/k3.out) = 1 ]"
check "syn_dropped: touchwire kept running" kill -0 $pid
stop_tw $pid

# --- unplugged mid-touch: cancelled, logged, reopened by name when it is back -----------------
cat >/tmp/k4.script <<EOF
waitfile /tmp/k4.go
drag 0 100 240 300 240 10 30
sleep 300
unplug
sleep 1500
replug
waitfile /tmp/k4.again
down 0 600 100
sleep 50
up 0
sleep 1500
EOF
board /tmp/k4.toml "tw hotplug panel" "" "$PAN

$TAP"
twinput panel "tw hotplug panel" 799 479 /tmp/k4.script >/tmp/k4.inj 2>&1 &
ipid=$!
wait_for /tmp/k4.inj READY 10 || fail "setup: twinput panel (hotplug)"
$TW run --board /tmp/k4.toml >/tmp/k4.out 2>/tmp/k4.err &
pid=$!
wait_for /tmp/k4.err "controller ready" 20 || { fail "unplug: not started"; show stderr /tmp/k4.err; }
touch /tmp/k4.go
wait_for /tmp/k4.inj UNPLUGGED 15
n=0; while [ $(grep -c "controller ready" /tmp/k4.err) -lt 2 ] && [ $n -lt 200 ]; do sleep 0.1; n=$((n + 1)); done
touch /tmp/k4.again
wait $ipid
wait_for /tmp/k4.out '"recognizer":"tap".*"state":"recognized"' 5
show err /tmp/k4.err 10
check "unplug: logged as gone, naming the node" grep -q 'touch read failed: input device /dev/input/event[0-9]* went away (unplugged?)' /tmp/k4.err
check "unplug: the pan in progress is cancelled" grep -q '"recognizer":"pan".*"state":"cancelled"' /tmp/k4.out
check "unplug: the panel is reopened by name when it is back" sh -c "[ \$(grep -c 'controller ready: evdev \"tw hotplug panel\"' /tmp/k4.err) = 2 ]"
check "unplug: the next tap after the replug is recognized" grep -q '"recognizer":"tap".*"state":"recognized".*"x":600.0,"y":100.0' /tmp/k4.out
stop_tw $pid

# --- (f) touch to wake (issue 27): tw_backlight.ko's class device, driven through sysfs -------
# Idle 1 s → bl_power 4; the wake tap and a tap in the 300 ms guard reach no recognizer, no
# binding and not touchwire's touchscreen; a tap after the guard is a tap, seen by the UI.
BL=/sys/class/backlight/tw-backlight
cat >/tmp/k5.script <<EOF
waitfile /tmp/k5.go
down 0 100 200
sleep 50
up 0
waitfile /tmp/k5.dark
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
sleep 500
EOF
board /tmp/k5.toml "tw wake panel" "grab = true" "$TAP

[[binding]]
recognizer = \"tap\"
action = \"exec\"
min_interval_ms = 0
command = [\"/bin/sh\", \"-c\", \"echo bound >>/tmp/k5.binds\"]

[passthrough]
name = \"tw wake ui\"

[display]
idle_off_s = 1
backlight = \"tw-backlight\""
twinput panel "tw wake panel" 799 479 /tmp/k5.script >/tmp/k5.inj 2>&1 &
ipid=$!
wait_for /tmp/k5.inj READY 10 || fail "setup: twinput panel (wake)"
$TW run --board /tmp/k5.toml >/tmp/k5.out 2>/tmp/k5.err &
pid=$!
wait_for /tmp/k5.err "controller ready" 20 || { fail "wake: not started"; show stderr /tmp/k5.err; }
twinput read "tw wake ui" 30 >/tmp/k5.ui 2>&1 &
upid=$!
wait_for /tmp/k5.ui READY 10 || fail "setup: touchwire's touchscreen \"tw wake ui\" not found"
check "wake: the backlight is on at start (brightness $(cat $BL/brightness), bl_power $(cat $BL/bl_power))" \
  sh -c "[ \$(cat $BL/bl_power) = 0 ] && [ \$(cat $BL/brightness) = 200 ]"
touch /tmp/k5.go
n=0; while [ "$(cat $BL/bl_power)" != 4 ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
check "wake: idle_off_s = 1: bl_power 4 after the idle time, and a display off event (cause idle)" \
  sh -c "[ \$(cat $BL/bl_power) = 4 ] && grep -q '\"display\":\"off\",\"cause\":\"idle\"' /tmp/k5.out"
touch /tmp/k5.dark
wait $ipid
sleep 1
# (Read after the script's last idle second: the screen may be dark again by now, so the wake is
# read from the display event and the brightness, which blanking leaves as it is.)
check "wake: the wake tap switched the backlight on at the brightness found (200)" \
  sh -c "[ \$(cat $BL/brightness) = 200 ] && grep -q '\"display\":\"on\",\"cause\":\"touch\"' /tmp/k5.out"
check "wake: two taps recognized, the first and the one after the guard (not the wake tap, not the guard's)" \
  sh -c "[ \$(grep -c '\"recognizer\":\"tap\".*\"state\":\"recognized\"' /tmp/k5.out) = 2 ] && grep -q '\"x\":500.0' /tmp/k5.out && ! grep -q '\"x\":3[01]0.0' /tmp/k5.out"
check "wake: the exec binding ran twice, never for the swallowed taps" sh -c "[ \$(grep -c bound /tmp/k5.binds) = 2 ]"
check "wake: the UI (touchwire's touchscreen) saw the first and last taps only" \
  sh -c "grep -q '^FRAME 100,200' /tmp/k5.ui && grep -q '^FRAME 500,200' /tmp/k5.ui && ! grep -q '3[01]0,200' /tmp/k5.ui"
show out /tmp/k5.out 10
show ui /tmp/k5.ui 10
stop_tw $pid
kill $upid 2>/dev/null; wait $upid 2>/dev/null
check "wake: the service stopped with the backlight on" sh -c "[ \$(cat $BL/bl_power) = 0 ]"
