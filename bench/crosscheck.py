"""The short process rows timed a second time by hyperfine, as a check on bench/run.py's own timer.

bench/run.py times its commands itself because it needs what hyperfine does not give:
commands interleaved round by round, each process's peak RSS, a passcode on standard
input, an exit status checked every round. hyperfine runs every run of one command
before the next command's, so each row is timed twice here, the second time with its
commands in the opposite order, and the two halves are pooled: a machine that gets
busier during a row then slows both commands alike.

A row takes part when it asks to (Row.cross_check) and only with the commands that
share the subject's environment (hyperfine gives all of them one) and read nothing
from standard input.
"""
import json
import os
import shlex
import subprocess

from figures import milliseconds, ratios


def commands_of(row):
    subject = row.subject
    return [command for command in row.commands
            if command.env == subject.env and command.stdin is None and command.expect == 0]


def time_row(commands, rounds, warmup, work):
    """Each command's run times in seconds: hyperfine in the row's order, then in the opposite order."""
    times = {command.label: [] for command in commands}
    report = os.path.join(work, "hyperfine.json")
    for order in (commands, commands[::-1]):
        argv = ["hyperfine", "--shell=none", "--style", "none", "--warmup", str(warmup), "--runs", str(rounds),
                "--export-json", report]
        for command in order:
            argv += ["--command-name", command.label, shlex.join(command.argv)]
        finished = subprocess.run(argv, env=commands[0].env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if finished.returncode != 0:
            raise SystemExit(f"bench: hyperfine failed ({finished.returncode}): {finished.stderr.strip()}")
        with open(report) as file:
            for result in json.load(file)["results"]:
                times[result["command"]] += result["times"]
    return times


def table(rows, rounds, warmup, work):
    """The cross-check table, or None when no row takes part."""
    lines = ["| measure | command | median ms | min | max | ratio (hyperfine) | ratio (table above) |",
             "|---|---|---:|---:|---:|---|---|"]
    for row in rows:
        commands = commands_of(row)
        if not row.cross_check or len(commands) < 2:
            continue
        times = time_row(commands, rounds, warmup, work)
        anchors = commands[1:]
        for command in commands:
            if command is row.subject:
                ratio = ratios(times[command.label], [(anchor.label, times[anchor.label]) for anchor in anchors])
                ours = ratios(command.seconds, [(anchor.label, anchor.seconds) for anchor in anchors])
            else:
                ratio, ours = "anchor", ""
            median, low, high = milliseconds(times[command.label])
            lines.append(f"| {row.name if command is row.subject else ''} | {command.label} | "
                         f"{median:.1f} | {low:.1f} | {high:.1f} | {ratio} | {ours} |")
    if len(lines) == 2:
        return None
    return ("Cross-check: the same processes timed by hyperfine (`hyperfine --shell=none`, "
            f"{warmup} warm-up runs, {rounds} runs in the row's order and {rounds} in the opposite order, pooled):\n\n"
            + "\n".join(lines) + "\n")
