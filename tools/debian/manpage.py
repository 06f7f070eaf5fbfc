#!/usr/bin/env python3
"""touchwire(1) in man(7) roff, from `touchwire --experimental-dump-help` (ArgumentParser's
ToolInfo JSON) on stdin. Usage: touchwire --experimental-dump-help | manpage.py VERSION > touchwire.1

One page: the synopsis, then each subcommand with its abstract, discussion and options, then
FILES and SEE ALSO for the packaged service. Deterministic: the same help gives the same page."""
import json
import sys


def roff(text):
    """Escapes text for roff: backslashes, leading dots and quotes, hyphens in option names."""
    text = text.replace("\\", "\\e")
    lines = []
    for line in text.split("\n"):
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def flag_names(arg):
    names = []
    for n in arg.get("names", []):
        prefix = "--" if n["kind"] in ("long", "longWithSingleDash") else "-"
        if n["kind"] == "longWithSingleDash":
            prefix = "-"
        names.append("\\fB" + prefix + n["name"].replace("-", "\\-") + "\\fR")
    return ", ".join(names)


def argument_item(arg):
    kind = arg["kind"]
    value = arg.get("valueName", "")
    if kind == "positional":
        head = "\\fI" + value + "\\fR" + ("..." if arg.get("isRepeating") else "")
    elif kind == "option":
        head = flag_names(arg) + " \\fI" + value + "\\fR"
    else:
        head = flag_names(arg)
    body = roff(arg.get("abstract", ""))
    if arg.get("defaultValue"):
        body += " (default: " + roff(arg["defaultValue"]) + ")"
    return ".TP\n" + head + "\n" + body + "\n"


def main():
    version = sys.argv[1] if len(sys.argv) > 1 else ""
    info = json.load(sys.stdin)["command"]
    out = []
    out.append('.TH TOUCHWIRE 1 "" "touchwire %s" "User Commands"' % version)
    out.append(".SH NAME\ntouchwire \\- " + roff(info.get("abstract", "")))
    out.append(".SH SYNOPSIS\n.B touchwire\n\\fIsubcommand\\fR [\\fIoptions\\fR]\n.br\n"
               ".B touchwire\n\\fB\\-\\-version\\fR | \\fB\\-\\-help\\fR")
    out.append(".SH DESCRIPTION\n" + roff(info.get("discussion", info.get("abstract", ""))))
    out.append(".SH COMMANDS")
    for sub in info.get("subcommands", []):
        if not sub.get("shouldDisplay", True) or sub["commandName"] == "help":
            continue
        out.append(".SS touchwire " + sub["commandName"])
        out.append(roff(sub.get("abstract", "")))
        if sub.get("discussion"):
            out.append(".PP\n" + roff(sub["discussion"]))
        for arg in sub.get("arguments", []):
            if arg.get("shouldDisplay", True) and not any(
                n["name"] in ("help", "version") for n in arg.get("names", [])
            ):
                out.append(argument_item(arg).rstrip("\n"))
    out.append(".SH SIGNALS\nFor \\fBtouchwire run\\fR: SIGINT and SIGTERM stop it (touches in progress are "
               "cancelled, outputs flushed, GPIO lines made inactive); SIGHUP re-reads the board file (a board "
               "with errors is refused and the running one kept); SIGUSR1 logs the status block.")
    out.append(".SH FILES\n.TP\n/etc/touchwire/board.toml\nThe board file of the packaged service.\n"
               ".TP\n/run/touchwire/touchwire.status\nThe running service's status snapshot "
               "(\\fBtouchwire status\\fR reads it).\n"
               ".TP\n/lib/systemd/system/touchwire.service\nThe systemd unit "
               "(\\fBsystemctl reload touchwire\\fR re-reads the board).\n"
               ".TP\n/usr/share/doc/touchwire/\nREADME, formats and example boards.")
    out.append(".SH SEE ALSO\n.BR systemctl (1),\n.BR journalctl (1),\n.BR systemd.exec (5)")
    sys.stdout.write("\n".join(out) + "\n")


main()
