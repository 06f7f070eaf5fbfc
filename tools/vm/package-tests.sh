#!/bin/bash
# Runs inside the Debian 12 VM of tools/vm/package-test, as a oneshot unit after multi-user:
# the .deb installed with apt, then the service as systemd supervises it. One "PASS name" or
# "FAIL name: why" line per check on the console; "TESTS DONE" at the end, then power off.
exec >/dev/ttyS0 2>&1
export PATH=/usr/sbin:/usr/bin:/sbin:/bin SYSTEMD_PAGER= SYSTEMD_COLORS=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1"; }
check() { # name command...
  local name=$1; shift
  if "$@" >/tmp/check.out 2>&1; then pass "$name"; else fail "$name: $(tr '\n' '|' </tmp/check.out | head -c 400)"; fi
}
# Waits up to $1 s for the command to succeed.
wait_for() {
  local limit=$1; shift
  local i
  for ((i = 0; i < limit * 5; i++)); do "$@" >/dev/null 2>&1 && return 0; sleep 0.2; done
  return 1
}
board=/etc/touchwire/board.toml
mainpid() { systemctl show -p MainPID --value touchwire; }
journal() { journalctl -u touchwire --no-pager -o cat; }
echo "INFO systemd $(systemctl --version | head -1 | cut -d' ' -f2) up after $(cut -d' ' -f1 /proc/uptime) s"

# 1. apt installs the package (its dependencies are already in the debootstrap root).
check "apt install ./touchwire.deb" apt-get install -y /root/touchwire.deb
check "touchwire --version" sh -c 'touchwire --version | grep -E "^touchwire [0-9]+\.[0-9]+\.[0-9]+ \(Swift"'
check "user touchwire in i2c gpio dialout input touchwire-uinput touchwire-events (id)" sh -c \
  'id -nG touchwire | tr " " "\n" | sort | tr "\n" " " | grep -qx "dialout gpio i2c input touchwire touchwire-events touchwire-uinput "'
check "board.toml is a conffile" sh -c 'dpkg-query -W -f="\${Conffiles}" touchwire | grep -q "/etc/touchwire/board.toml"'
check "man page and completions" test -f /usr/share/man/man1/touchwire.1.gz -a \
  -f /usr/share/bash-completion/completions/touchwire -a -f /usr/share/zsh/vendor-completions/_touchwire \
  -a -f /usr/share/fish/vendor_completions.d/touchwire.fish

# 2. The service: active (READY=1 received) on the simulated default board, as user touchwire.
if wait_for 90 sh -c '[ "$(systemctl is-active touchwire)" = active ]'; then
  pass "service active after install"
else
  fail "service active after install: $(systemctl is-active touchwire); $(journal | tail -15 | tr '\n' '|')"
fi
check "runs as user touchwire" sh -c '[ "$(ps -o user= -p "$(systemctl show -p MainPID --value touchwire)")" = touchwire ]'
check "status file in /run/touchwire, 0640, owned by touchwire" wait_for 20 sh -c \
  '[ "$(stat -c "%a %U" /run/touchwire/touchwire.status)" = "640 touchwire" ]'
check "event socket in /run/touchwire, 0660, owned by touchwire" sh -c \
  '[ -S /run/touchwire/events.sock ] && [ "$(stat -c "%a %U" /run/touchwire/events.sock)" = "660 touchwire" ]'
check "touchwire status reads /run/touchwire" sh -c 'touchwire status | grep -q "^touchwire status: board board"'
# The status file is rewritten once a second: wait for the snapshot that has the controller running.
check "touchwire status --prometheus" wait_for 20 sh -c 'touchwire status --prometheus | grep -q "^touchwire_controller_state{board=\"board\",state=\"running\"} 1"'

# 3. Reload: a broken board is refused (service unchanged), a fixed one is taken.
pid=$(mainpid)
cp "$board" /root/board.good
sed -i 's/^width = 800 .*/width = "wide"/' "$board"
systemctl reload touchwire
if wait_for 20 sh -c 'journalctl -u touchwire -o cat | grep -Eq "reload refused: /etc/touchwire/board.toml(:[0-9]+)?: panel.width"'; then
  pass "broken board refused, problem logged with file and key"
else
  fail "broken board refused: $(journal | tail -8 | tr '\n' '|')"
fi
check "refused reload keeps the service running" sh -c \
  "[ \"\$(systemctl is-active touchwire)\" = active ] && [ \"\$(systemctl show -p MainPID --value touchwire)\" = $pid ]"
cp /root/board.good "$board"
sed -i 's/^loop = false .*/loop = true/' "$board"
systemctl reload touchwire
if wait_for 30 sh -c 'journalctl -u touchwire -o cat | grep -q "reloaded /etc/touchwire/board.toml"'; then
  pass "fixed board reloaded"
else
  fail "fixed board reloaded: $(journal | tail -8 | tr '\n' '|')"
fi
check "reload kept the process" sh -c \
  "[ \"\$(systemctl is-active touchwire)\" = active ] && [ \"\$(systemctl show -p MainPID --value touchwire)\" = $pid ]"
# The reloaded board opens the same socket path: the old service gave it back first (Reload.swift),
# and the new one streams its looping demo to a client that connects now.
check "event socket back after the reload, 0660, owned by touchwire" wait_for 20 sh -c \
  '[ -S /run/touchwire/events.sock ] && [ "$(stat -c "%a %U" /run/touchwire/events.sock)" = "660 touchwire" ]'
check "event socket streams after the reload" sh -c \
  "timeout 60 touchwire monitor --board $board --socket /run/touchwire/events.sock --frames 3 >/tmp/monitor.out \
   && grep -aqE 't [0-9.]+ s  (tap|double-tap|long-press|pan|button) ' /tmp/monitor.out"

# 3b. Who may do what (docs/kiosk.md): /dev/uinput belongs to touchwire-uinput, a group only the
# service's user is in (not input: writing uinput types into any session); the event socket to
# touchwire-events, which the kiosk user joins. That user reads events and cannot write uinput;
# a user outside the group cannot connect.
# insmod (kmod), or finit_module(2) (x86-64 system call 313) from perl-base where kmod is missing.
insmod /root/uinput.ko 2>/tmp/uinput.err \
  || perl -e 'open(my $f, "<", "/root/uinput.ko") or die "$!"; syscall(313, fileno($f), "", 0) == 0 or die "$!"' 2>>/tmp/uinput.err \
  || echo "INFO uinput.ko did not load: $(ls -l /root/uinput.ko 2>&1; tr '\n' '|' </tmp/uinput.err | head -c 300)"
udevadm trigger --subsystem-match=misc --action=add 2>/dev/null || true
udevadm settle 2>/dev/null || true
useradd -m -s /bin/sh kiosk
usermod -aG touchwire-events kiosk
if [ -c /dev/uinput ]; then
  check "/dev/uinput is 0660 root:touchwire-uinput" sh -c '[ "$(stat -c "%a %U:%G" /dev/uinput)" = "660 root:touchwire-uinput" ]'
  check "the kiosk user cannot open /dev/uinput" sh -c "! runuser -u kiosk -- sh -c 'exec 3<>/dev/uinput'"
  check "the service's user can open /dev/uinput" runuser -u touchwire -- sh -c 'exec 3<>/dev/uinput'
else
  echo "INFO no /dev/uinput in this VM (no uinput module): its owner is not checked"
fi
check "kiosk user in touchwire-events, not in input or touchwire-uinput" sh -c \
  'id -nG kiosk | tr " " "\n" | grep -qx touchwire-events && ! id -nG kiosk | tr " " "\n" | grep -qxE "input|touchwire-uinput"'
check "/run/touchwire is 0750, it and the socket (0660) are touchwire:touchwire-events" sh -c \
  '[ "$(stat -c "%a %U:%G" /run/touchwire)" = "750 touchwire:touchwire-events" ] && [ "$(stat -c "%a %U:%G" /run/touchwire/events.sock)" = "660 touchwire:touchwire-events" ]'
check "the kiosk user reads the event socket" sh -c \
  "timeout 60 runuser -u kiosk -- touchwire monitor --board $board --socket /run/touchwire/events.sock --frames 2 \
   >/tmp/kiosk-monitor.out && grep -aqE 't [0-9.]+ s  ' /tmp/kiosk-monitor.out"
check "a user outside touchwire-events cannot connect" sh -c \
  "! timeout 30 runuser -u nobody -- touchwire monitor --board $board --socket /run/touchwire/events.sock --frames 1"

# 3c. The kiosk user's session agent (docs/kiosk.md, issue 30 class 6): under the kiosk user's own
# systemd (lingering), with a session variable set in that user manager as a compositor sets it,
# `touchwire agent` runs a `session = true` exec binding and the `[display] session = true`
# commands as kiosk, with the session's XDG_RUNTIME_DIR and WAYLAND_DISPLAY; and when the service
# stops while the screen is off, the agent switches it back on.
kuid=$(id -u kiosk)
kiosk_user() { runuser -u kiosk -- env XDG_RUNTIME_DIR=/run/user/$kuid "$@"; }
session_out=/tmp/kiosk-session.out
session_lines() { grep -c "^$1 " "$session_out" || true; }
cat >/usr/local/bin/kiosk-whoami <<'PROG'
#!/bin/sh
echo "$1 $(/usr/bin/id -un) ${XDG_RUNTIME_DIR-unset} ${WAYLAND_DISPLAY-unset}" >>/tmp/kiosk-session.out
PROG
chmod 0755 /usr/local/bin/kiosk-whoami
cp "$board" /root/board.before-session
# The demo plays once (the screen is switched by hand below; a looping demo's touches would wake it).
sed -i 's/^loop = true.*/loop = false/' "$board"
cat >>"$board" <<'BOARD'

[[binding]]
recognizer = "tap"
action = "exec"
command = ["/usr/local/bin/kiosk-whoami", "tap"]
session = true

[display]
idle_off_s = 0
session = true
off_command = ["/usr/local/bin/kiosk-whoami", "off"]
on_command = ["/usr/local/bin/kiosk-whoami", "on"]
BOARD
check "board with session exec and [display] session = true validates" touchwire validate "$board"
# pam_systemd (libpam-systemd, on any desktop Debian) gives user@.service its XDG_RUNTIME_DIR;
# this minbase root lacks it, so a drop-in does the same.
if ! ls /lib/*/security/pam_systemd.so /usr/lib/*/security/pam_systemd.so >/dev/null 2>&1; then
  echo "INFO no pam_systemd here: user@.service gets XDG_RUNTIME_DIR=/run/user/UID from a drop-in"
  mkdir -p /etc/systemd/system/user@.service.d
  printf '[Service]\nEnvironment=XDG_RUNTIME_DIR=/run/user/%%i\n' >/etc/systemd/system/user@.service.d/runtime-dir.conf
  systemctl daemon-reload
fi
check "loginctl enable-linger kiosk" loginctl enable-linger kiosk
if ! wait_for 60 sh -c "[ \"\$(systemctl is-active user@$kuid.service)\" = active ]"; then
  # logind starts the lingering user's manager at boot or on enable-linger; say why it did not,
  # then start it as systemd would (user-runtime-dir@ makes /run/user/UID).
  echo "INFO user@$kuid.service not started by linger: logind $(systemctl is-active systemd-logind), dbus $(systemctl is-active dbus), linger $(ls /var/lib/systemd/linger 2>&1 | tr '\n' ' '), user@ $(systemctl is-active user@$kuid.service); $(journalctl -b -o cat --no-pager -u systemd-logind -u "user@$kuid.service" -u "user-runtime-dir@$kuid.service" | tail -6 | tr '\n' '|')"
  systemctl start "user@$kuid.service"
fi
check "user@$kuid.service (the kiosk user's systemd) active, /run/user/$kuid there" sh -c \
  "[ \"\$(systemctl is-active user@$kuid.service)\" = active ] && [ -d /run/user/$kuid ]"
check "session variable set in the kiosk user's manager" \
  kiosk_user systemctl --user set-environment WAYLAND_DISPLAY=wayland-test
# The agent connects to the running service (its looping demo taps), then the service restarts on
# the new board: the agent's stream ends, the unit brings it back (Restart=always).
check "systemctl --user enable --now touchwire-agent (as kiosk)" \
  kiosk_user systemctl --user enable --now touchwire-agent.service
check "the agent runs the session exec binding as kiosk, in its session" wait_for 60 sh -c \
  "grep -qx 'tap kiosk /run/user/$kuid wayland-test' $session_out"
systemctl restart touchwire
check "service active on the session board" wait_for 60 sh -c '[ "$(systemctl is-active touchwire)" = active ]'
# The agent is back and the single demo run is over (7.2 s): the screen changes only by command.
sleep 12
check "the agent is running again" sh -c \
  "[ \"\$(runuser -u kiosk -- env XDG_RUNTIME_DIR=/run/user/$kuid systemctl --user is-active touchwire-agent)\" = active ]"
: >"$session_out"
touchwire display off --socket /run/touchwire/events.sock >/dev/null
check "display off: the agent runs off_command as kiosk in its session" \
  wait_for 20 grep -qx "off kiosk /run/user/$kuid wayland-test" "$session_out"
touchwire display on --socket /run/touchwire/events.sock >/dev/null
check "display on: the agent runs on_command as kiosk in its session" \
  wait_for 20 grep -qx "on kiosk /run/user/$kuid wayland-test" "$session_out"
touchwire display off --socket /run/touchwire/events.sock >/dev/null
wait_for 20 sh -c "[ \$(grep -c '^off ' $session_out) -ge 2 ]"
ons=$(session_lines on)
systemctl stop touchwire
check "the service stopped dark: the agent ran on_command at the end of the stream" wait_for 20 sh -c \
  "[ \$(grep -c '^on ' $session_out) -gt $ons ] && tail -1 $session_out | grep -qx 'on kiosk /run/user/$kuid wayland-test'"
check "the service itself ran no display command (every line is kiosk's)" sh -c \
  "[ -s $session_out ] && ! grep -v ' kiosk ' $session_out"
echo "INFO session agent: $(tr '\n' '|' <"$session_out"); $(journalctl -b -o cat --no-pager _UID=$kuid | tail -8 | tr '\n' '|')"
kiosk_user systemctl --user disable --now touchwire-agent.service >/dev/null 2>&1 || true
cp /root/board.before-session "$board"
systemctl start touchwire
check "service active again on the demo board" wait_for 60 sh -c '[ "$(systemctl is-active touchwire)" = active ]'

# 4. A hung pipeline (test-only fault) stops feeding the watchdog: systemd kills and restarts it.
mkdir -p /etc/systemd/system/touchwire.service.d
cat >/etc/systemd/system/touchwire.service.d/hang.conf <<'CONF'
[Service]
ExecStart=
ExecStart=/usr/bin/touchwire run --board /etc/touchwire/board.toml --test-fault hang-recognizer
WatchdogSec=4s
CONF
systemctl daemon-reload
systemctl restart touchwire
before=$(systemctl show -p NRestarts --value touchwire)
if wait_for 60 sh -c "[ \"\$(systemctl show -p NRestarts --value touchwire)\" -gt $before ]"; then
  pass "hung pipeline restarted by the watchdog"
else
  fail "hung pipeline restarted by the watchdog: NRestarts $(systemctl show -p NRestarts --value touchwire); $(journalctl -u touchwire -o cat | tail -6 | tr '\n' '|')"
fi
check "journal names the watchdog" sh -c 'journalctl -u touchwire -o cat | grep -qi "watchdog timeout"'
rm -r /etc/systemd/system/touchwire.service.d
systemctl daemon-reload
systemctl restart touchwire
check "healthy again without the fault" wait_for 60 sh -c '[ "$(systemctl is-active touchwire)" = active ]'

# 5. systemd's own rating of the installed unit.
score=$(systemd-analyze security touchwire 2>&1 | sed -n 's/.*Overall exposure level for touchwire.service: \([0-9.]*\).*/\1/p')
echo "INFO systemd-analyze security touchwire: ${score:-no score}"
if [ -n "$score" ] && awk -v s="$score" 'BEGIN { exit !(s <= 2.0) }'; then
  pass "systemd-analyze security touchwire: $score <= 2.0"
else
  fail "systemd-analyze security touchwire: ${score:-no score} (limit 2.0)"
fi

# 5b. The exec runner (issue 30, class 6): the service runs with --exec-by-agents and spawns no
# program; touchwire-exec.service (user touchwire-exec: no capabilities, no device groups) runs
# the board's exec bindings. A binding added by a reload writes what its program got to the
# runner's StateDirectory; the runner survives the reload (same PID: it waits for the socket,
# re-reads the board and reconnects).
exec_out=/var/lib/touchwire-exec/exec-status
exec_journal() { journalctl -u touchwire-exec --no-pager -o cat; }
check "touchwire-exec.service active as user touchwire-exec" wait_for 30 sh -c \
  '[ "$(systemctl is-active touchwire-exec)" = active ] && [ "$(stat -c %U "/proc/$(systemctl show -p MainPID --value touchwire-exec)")" = touchwire-exec ]'
check "user touchwire-exec only in touchwire-exec touchwire-events (id)" sh -c \
  'id -nG touchwire-exec | tr " " "\n" | sort | tr "\n" " " | grep -qx "touchwire-events touchwire-exec "'
check "service runs with --exec-by-agents" sh -c "tr '\0' ' ' </proc/$(mainpid)/cmdline | grep -q -- --exec-by-agents"
exec_pid=$(systemctl show -p MainPID --value touchwire-exec)
cp "$board" /root/board.before-exec
cat >>"$board" <<'BINDING'

[[binding]]
recognizer = "tap"
action = "exec"
command = ["/bin/sh", "-c", "grep -E '^(Groups|CapEff|CapAmb|NoNewPrivs):' /proc/self/status >/var/lib/touchwire-exec/exec-status"]
BINDING
systemctl reload touchwire
if wait_for 90 test -s "$exec_out"; then
  pass "exec binding ran by touchwire-exec after the reload"
else
  fail "exec binding ran by touchwire-exec: $(exec_journal | tail -8 | tr '\n' '|') / $(journal | tail -4 | tr '\n' '|')"
fi
echo "INFO exec child: $(tr '\n' ' ' <"$exec_out" 2>/dev/null)"
check "exec child: no capabilities (CapEff, CapAmb 0), NoNewPrivs 1" sh -c \
  "grep -qx 'CapEff:[[:space:]]*0000000000000000' $exec_out && grep -qx 'CapAmb:[[:space:]]*0000000000000000' $exec_out \
   && grep -qx 'NoNewPrivs:[[:space:]]*1' $exec_out"
allowed="$(getent group touchwire-exec | cut -d: -f3) $(getent group touchwire-events | cut -d: -f3)"
check "exec child: no supplementary group beyond touchwire-exec, touchwire-events" sh -c \
  "for g in \$(sed -n 's/^Groups:[[:space:]]*//p' $exec_out); do case ' $allowed ' in *\" \$g \"*) ;; *) echo \"group \$g\"; exit 1;; esac; done"
check "the service spawned nothing, the runner logged the run" sh -c \
  "! journalctl -u touchwire -o cat | grep -q 'exec binding \"tap\"' && journalctl -u touchwire-exec -o cat | grep -q 'exec binding \"tap\": /bin/sh exited with status 0'"
check "touchwire-exec survived the reload (same PID)" sh -c \
  "[ \"\$(systemctl show -p MainPID --value touchwire-exec)\" = $exec_pid ]"
cp /root/board.before-exec "$board"
systemctl reload touchwire
exec_score=$(systemd-analyze security touchwire-exec 2>&1 | sed -n 's/.*Overall exposure level for touchwire-exec.service: \([0-9.]*\).*/\1/p')
echo "INFO systemd-analyze security touchwire-exec: ${exec_score:-no score}"

# 6. Stop: clean exit, status file removed.
systemctl stop touchwire
check "stopped cleanly" sh -c '[ "$(systemctl show -p Result --value touchwire)" = success ]'
check "status file removed on stop" test ! -e /run/touchwire/touchwire.status
check "touchwire-exec stopped with the service (PartOf)" sh -c '[ "$(systemctl is-active touchwire-exec)" != active ]'
echo "INFO journal tail: $(journal | tail -5 | tr '\n' '|')"
echo "TESTS DONE"
sync
systemctl poweroff --force --force
