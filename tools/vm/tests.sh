# In-VM tests of touchwire's Linux backends (busybox sh). Run by /init; prints PASS/FAIL lines.
# The I2C devices are register files on the tw-i2c-sim adapter (kmod/tw_i2c_sim.c); the GPIO
# lines are a gpio-sim bank labelled "tw-gpio":
#   0 FT INT (active low)   1 FT RST (active low)   2 GT911 INT   3 GT911 RST
#   8 tap pulse output      9 long-press hold output (active low)
CTL=/sys/kernel/debug/tw-i2c-sim/ctl
TW=/bin/touchwire
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; }
check() { name=$1; shift; if "$@"; then pass "$name"; else fail "$name"; fi; }
ctl() { echo "$*" >$CTL || echo "INFO ctl failed: $*"; }
# wait_for FILE PATTERN SECONDS
wait_for() {
  n=0
  while ! grep -q "$2" "$1" 2>/dev/null; do
    n=$((n + 1)); [ $n -gt $(($3 * 10)) ] && return 1; sleep 0.1
  done
}
show() { sed "s/^/    $1: /" "$2" | head -${3:-20}; }

# --- fixtures ----------------------------------------------------------------------------
G=/sys/kernel/config/gpio-sim/tw
mkdir $G $G/bank0 && echo 16 >$G/bank0/num_lines && echo tw-gpio >$G/bank0/label && echo 1 >$G/live \
  || fail "setup: gpio-sim bank"
SIM=/sys/devices/platform/$(cat $G/dev_name)/$(cat $G/bank0/chip_name)
pull() { echo "pull-$2" >$SIM/sim_gpio$1/pull; }
val() { cat $SIM/sim_gpio$1/value; }
# An INT pulse as the controller makes it: idle high, low, high (active-low, falling edge).
int_pulse() { pull $1 up; pull $1 down; sleep 0.05; pull $1 up; }
irqs() { awk '/irq_sim|gpio-sim/ { for (i = 2; i <= 3; i++) s += $i } END { print s + 0 }' /proc/interrupts; }

for f in /sys/class/i2c-dev/*/name; do
  grep -q touchwire-i2c-sim $f && BUS=/dev/$(basename $(dirname $f))
done
[ -c "$BUS" ] || fail "setup: no /dev/i2c-N for touchwire-i2c-sim"
BUSN=${BUS#/dev/i2c-}
echo "INFO bus $BUS, gpio $SIM"

# The three controllers' identification registers (docs controllers.md).
ctl add 0x38 8
ctl set 0x38 0x00 0x00 0x00 0x00
ctl set 0x38 0x03 0xff 0xff 0xff 0xff 0xff 0xff 0xff 0xff 0xff 0xff 0xff 0xff
ctl set 0x38 0xa3 0x64
ctl set 0x38 0xa6 0x10
ctl set 0x38 0xa8 0x11
ctl add 0x5d 16
ctl set 0x5d 0x8140 0x39 0x31 0x31 0x00 0x60 0x10 0x20 0x03 0xe0 0x01 0x00
ctl add 0x15 8
ctl set 0x15 0xa7 0xb4 0x00 0x01

# --- the adapter itself, through i2c-tools (busybox's i2c applets shadow them) ---------------
/usr/sbin/i2ctransfer -y $BUSN w2@0x5d 0x81 0x40 r4 >/tmp/xfer.out 2>&1
check "adapter: i2ctransfer reads GT911 product id with a 16-bit register address" grep -q '0x39 0x31 0x31 0x00' /tmp/xfer.out

# --- probe -------------------------------------------------------------------------------
$TW probe --bus $BUS >/tmp/probe.out 2>&1
show probe /tmp/probe.out
check "probe: FT6336U identified at 0x38" grep -q "$BUS 0x38: FT6336U at 0x38 (chip id 0x64, firmware 0x10, vendor 0x11" /tmp/probe.out
check "probe: GT911 identified at 0x5d" grep -q "$BUS 0x5d: GT911 at 0x5d (.*firmware 0x1060.*resolution 800x480" /tmp/probe.out
check "probe: CST816S identified at 0x15" grep -q "$BUS 0x15: CST816S at 0x15 (chip id 0xb4" /tmp/probe.out
check "probe: absent GT911 at 0x14 reported" grep -q "$BUS 0x14: no Goodix GT911 (no acknowledge from I2C address 0x14" /tmp/probe.out

ctl nack 0x38 1
ctl del 0x15
$TW probe --bus $BUS >/tmp/probe2.out 2>&1
check "probe: NACKing FT at 0x38 reported as no acknowledge" grep -q "$BUS 0x38: no FocalTech FT5x06/FT6x36 (no acknowledge from I2C address 0x38" /tmp/probe2.out
check "probe: removed CST816 reported absent" grep -q "$BUS 0x15: no Hynitron CST816" /tmp/probe2.out
ctl nack 0x38 0
$TW probe --bus /dev/i2c-99 >/tmp/probe3.out 2>&1
check "probe: missing bus named" grep -q "i2c-99" /tmp/probe3.out

# --- run: FT6x36 on INT, outputs on gpio-sim and /dev/ttyS1 --------------------------------
cat >/tmp/ft.toml <<TOML
[panel]
width = 320
height = 480

[controller]
chip = "ft6x36"
bus = "$BUS"
address = 0x38
interrupt = { chip = "tw-gpio", line = 0, active_low = true }
reset = { chip = "tw-gpio", line = 1, active_low = true }
poll_interval_ms = 20

[[region]]
name = "screen"
frame = [0, 0, 320, 480]

[[recognizer]]
name = "tap"
kind = "tap"
region = "screen"

[[recognizer]]
name = "long-press"
kind = "long_press"
region = "screen"
min_duration_ms = 300

[[binding]]
recognizer = "tap"
action = "pulse"
pulse_ms = 1500
gpio = { chip = "tw-gpio", line = 8 }

[[binding]]
recognizer = "long-press"
action = "hold"
gpio = { chip = "tw-gpio", line = 9, active_low = true }

[[output]]
type = "stdout"

[[output]]
type = "uart"
device = "/dev/ttyS1"
baud = 115200
format = "text"
template = "{recognizer} {state} {x} {y}"
TOML
pull 0 up; pull 1 up; pull 8 down; pull 9 down
$TW run --board /tmp/ft.toml >/tmp/ft.out 2>/tmp/ft.err &
pid=$!
if wait_for /tmp/ft.err "controller ready" 20; then
  pass "run: FT6336U started on $BUS with reset and INT on gpio-sim"
else
  fail "run: FT controller not ready"; show stderr /tmp/ft.err
fi
ctl peek 0x38 0xa4 1
check "run: FT G_MODE (0xA4) set to interrupt trigger over I2C_RDWR" grep -q 'peek 0x38 0xa4: 01' $CTL
gpioinfo tw-gpio >/tmp/gpioinfo.out 2>&1
check "run: INT line requested by touchwire as active-low input" grep -q 'line   0:.*"touchwire".*input.*active-low' /tmp/gpioinfo.out
check "run: tap line is an output, inactive at start" [ "$(val 8)" = 0 ]
check "run: long-press hold line (active low) inactive (high) at start" [ "$(val 9)" = 1 ]

before=$(irqs)
ctl set 0x38 0x02 0x01 0x00 0x64 0x00 0xc8
int_pulse 0
sleep 0.1
ctl set 0x38 0x02 0x00 0x40 0x64 0x00 0xc8
int_pulse 0
if wait_for /tmp/ft.out '"recognizer":"tap".*"state":"recognized".*"x":100.0,"y":200.0' 5; then
  pass "run: touch at (100,200) written to registers + INT → tap recognized"
else
  fail "run: no tap"; show stdout /tmp/ft.out; show stderr /tmp/ft.err
fi
after=$(irqs)
check "run: INT falling edges reached the kernel's edge interrupt ($before → $after)" [ "$after" -ge $((before + 2)) ]
check "run: tap pulses the GPIO output line (sysfs value 1)" [ "$(val 8)" = 1 ]
sleep 2
check "run: the pulse ends (value 0 after pulse_ms)" [ "$(val 8)" = 0 ]
echo "UART-EXPECT tap recognized 100"

# Long press held, then SIGTERM: every output line goes inactive.
ctl set 0x38 0x02 0x01 0x00 0x64 0x00 0xc8
int_pulse 0
if wait_for /tmp/ft.out '"recognizer":"long-press".*"state":"began"' 5; then
  pass "run: long press began"
else
  fail "run: no long press"; show stdout /tmp/ft.out
fi
check "run: hold line active (low) during the long press" [ "$(val 9)" = 0 ]
kill -TERM $pid
n=0; while kill -0 $pid 2>/dev/null && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
wait $pid; rc=$?
check "sigterm: service exited with status 0 (got $rc)" [ $rc = 0 ]
check "sigterm: hold line back inactive (high)" [ "$(val 9)" = 1 ]
check "sigterm: tap line inactive (low)" [ "$(val 8)" = 0 ]
check "sigterm: the held touch was cancelled" grep -q '"recognizer":"long-press".*"state":"cancelled"' /tmp/ft.out
ctl set 0x38 0x02 0x00 0xff 0xff 0xff 0xff

# --- errors: busy line, NACKing controller -----------------------------------------------
gpioset --mode=signal tw-gpio 9=1 &
gpid=$!
sleep 0.3
timeout 10 $TW run --board /tmp/ft.toml >/tmp/busy.out 2>/tmp/busy.err &
bpid=$!
wait_for /tmp/busy.err 'busy' 8
kill -TERM $bpid 2>/dev/null; wait $bpid
kill $gpid; wait $gpid 2>/dev/null
show busy /tmp/busy.err 5
check "error: busy output line names the line and its holder" grep -q 'tw-gpio:9 is busy (held by "gpioset")' /tmp/busy.err

ctl nack 0x38 1
$TW run --board /tmp/ft.toml >/tmp/nack.out 2>/tmp/nack.err &
npid=$!
wait_for /tmp/nack.err 'no acknowledge' 10
show nack /tmp/nack.err 5
check "error: NACKing controller reported as no acknowledge from 0x38" grep -q 'controller not answering (.*no acknowledge from I2C address 0x38' /tmp/nack.err
ctl nack 0x38 0
if wait_for /tmp/nack.err "controller ready" 15; then
  pass "error: controller found once it answers again"
else
  fail "error: controller not found after NACK ended"; show stderr /tmp/nack.err
fi
kill -TERM $npid; wait $npid

# --- GT911: reset/INT address selection on the gpio-sim lines ---------------------------
cat >/tmp/gt.toml <<TOML
[panel]
width = 800
height = 480

[controller]
chip = "gt911"
bus = "$BUS"
address = 0x14
interrupt = { chip = "tw-gpio", line = 2, active_low = true }
reset = { chip = "tw-gpio", line = 3, active_low = true }
poll_interval_ms = 20

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
pull 2 down; pull 3 up
# The GT911 side of the address selection follows the kernel's gpio tracepoints (exact order
# and timestamps of every level touchwire sets), see twwatch.c.
TR=/sys/kernel/tracing
mount -t tracefs tracefs $TR 2>/dev/null
echo 1 >$TR/events/gpio/gpio_value/enable || fail "setup: gpio trace events"
base=$(sed -n 's/.*GPIOs \([0-9]*\)-.*tw-gpio.*/\1/p' /sys/kernel/debug/gpio)
echo "INFO tw-gpio base $base"
twwatch $TR/trace_pipe $((base + 3)) $((base + 2)) $(val 2) $CTL 0x5d >/tmp/watch.log 2>&1 &
wpid=$!
wait_for /tmp/watch.log READY 5
$TW run --board /tmp/gt.toml >/tmp/gt.out 2>/tmp/gt.err &
pid=$!
wait_for /tmp/gt.err "controller ready" 20
kill $wpid; wait $wpid 2>/dev/null
show watch /tmp/watch.log
grep ready /tmp/gt.err | sed "s/^/    gt911: /"
# Order of the changes seen on the lines: RST low, INT high, RST high (latch 0x14), INT low.
seq=$(awk 'NF == 3 && $2 != "LATCH" { printf "%s%s ", $2, $3 } NF == 3 && $2 == "LATCH" { printf "L%s ", $3 }' /tmp/watch.log)
echo "INFO GT911 line sequence: $seq"
check "gt911: reset sequence RST↓ INT↑ RST↑(latch 0x14) INT↓ on gpio-sim" \
  sh -c "echo '$seq' | grep -q '^RST0 INT1 RST1 L0x14 INT0'"
# Kernel timestamps; lower bounds only (TCG stretches time): T2 RST low > 10 ms before INT is set, T4 INT held > 5 ms after RST rises.
gaps=$(awk 'NF == 3 && $2 != "LATCH" { t[$2 $3] = $1 } END { print int((t["INT1"] - t["RST0"]) / 1000), int((t["INT0"] - t["RST1"]) / 1000) }' /tmp/watch.log)
echo "INFO GT911 T2, T4 (ms): $gaps"
check "gt911: RST held low >10 ms before INT set, INT held >5 ms after RST release ($gaps ms)" \
  sh -c "set -- $gaps; [ \$1 -ge 10 ] && [ \$2 -ge 5 ]"
check "gt911: identified at 0x14 chosen by the INT level, not as the alternate" \
  sh -c "grep -q 'controller ready: GT911 at 0x14' /tmp/gt.err && ! grep -q alternate /tmp/gt.err"
pull 2 up
ctl set 0x14 0x814e 0x81 0x00 0x64 0x00 0xc8 0x00 0x10 0x00 0x00 0x00
int_pulse 2
sleep 0.3
ctl peek 0x14 0x814e 1
check "gt911: status 0x814E acknowledged (written 0) after the read" grep -q 'peek 0x14 0x814e: 00' $CTL
ctl set 0x14 0x814e 0x80
int_pulse 2
if wait_for /tmp/gt.out '"recognizer":"tap".*"state":"recognized".*"x":100.0,"y":200.0' 5; then
  pass "gt911: touch with 16-bit registers + INT → tap recognized"
else
  fail "gt911: no tap"; show stdout /tmp/gt.out; show stderr /tmp/gt.err
fi
kill -TERM $pid; wait $pid

# --- the hardware XCTests (RealGPIOTests, RealI2CTests), on this kernel ------------------------
# The release test bundle tools/vm/run copies (tools/test builds it). Here the hardware exists, so
# a test that skips is a failure, as is a missing bundle.
XT=/bin/touchwirePackageTests.xctest
for t in TouchOutputsTests.RealGPIOTests TouchLinuxTests.RealI2CTests; do
  name=${t#*.}
  if [ ! -x $XT ]; then
    fail "xctest $name: no test bundle in the initramfs (run tools/test before tools/vm/run)"
    continue
  fi
  TOUCHWIRE_TEST_GPIO=$(cat $G/bank0/chip_name):12 $XT $t >/tmp/$name.out 2>&1
  rc=$?
  if [ $rc -eq 0 ] && grep -qE "Executed [1-9][0-9]* tests?, with 0 failures" /tmp/$name.out; then
    pass "xctest $name on this kernel"
  else
    fail "xctest $name: exit $rc"; show output /tmp/$name.out
  fi
done

