#!/usr/bin/python3
"""A client of fprintd's D-Bus API for tests: one connection, kept across steps, so that a
claim lives as long as the script (a gdbus call is a connection of its own, and a claim ends
with its connection). Steps come as arguments; each result and every signal is a line:

  call:METHOD[:ARG]      a Device method on the first device  -> "METHOD ok [RESULT]" | "METHOD error NAME: MESSAGE"
  send:METHOD[:ARG]      the same without waiting for the answer (printed when it comes): calls pipelined
  manager:METHOD         a Manager method                     -> same
  objects                GetManagedObjects on /net/reactivated/Fprint
  get:PROPERTY           a Device property                    -> "PROPERTY = VALUE"
  wait:SIGNAL[:FIRST]    until that signal (with that first argument) arrives, at most 30 s
  done:SIGNAL            until that signal arrives with its last argument true (a final
                         VerifyStatus/EnrollStatus), at most 30 s; "timeout ..." and exit 3 if none
  wait:Proceed           until the test says go on (FprintdBus.proceed(): a Proceed signal on
                         the Device interface), when it must act between two steps
  say:TEXT               print TEXT (the signals are watched from the start: "say:ready" first
                         tells the test that a signal it causes now will be seen)
  sleep:SECONDS
  vanish                 leave the bus at once, releasing nothing

Signals print as "signal NAME ARG..." and PropertiesChanged as "changed NAME=VALUE".
"""
import sys
import time

import dbus
import dbus.mainloop.glib
from gi.repository import GLib

BUS = "net.reactivated.Fprint"
DEVICE = "net.reactivated.Fprint.Device"


def say(text):
    print(text, flush=True)


def plain(value):
    if isinstance(value, dbus.Boolean):
        return str(bool(value))
    if isinstance(value, (dbus.Array, list)):
        return "[" + ",".join(plain(v) for v in value) + "]"
    if isinstance(value, (dbus.Dictionary, dict)):
        return "{" + ",".join(f"{plain(k)}={plain(v)}" for k, v in sorted(value.items())) + "}"
    if isinstance(value, (dbus.Int32, dbus.UInt32, int)):
        return str(int(value))
    return str(value)


def main(steps):
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SystemBus()
    seen = []

    def on_signal(*args, **keywords):
        member = keywords["member"]
        if member == "PropertiesChanged":
            for name, value in sorted(args[1].items()):
                line = f"changed {name}={plain(value)}"
                seen.append(("changed", name, plain(value)))
                say(line)
            return
        seen.append((member,) + tuple(plain(a) for a in args))
        say("signal " + member + " " + " ".join(plain(a) for a in args))

    bus.add_signal_receiver(on_signal, dbus_interface=DEVICE, member_keyword="member")
    bus.add_signal_receiver(on_signal, dbus_interface="org.freedesktop.DBus.Properties",
                            signal_name="PropertiesChanged", member_keyword="member")
    bus.add_signal_receiver(on_signal, dbus_interface="org.freedesktop.DBus.ObjectManager", member_keyword="member")
    manager = dbus.Interface(bus.get_object(BUS, "/net/reactivated/Fprint/Manager"), "net.reactivated.Fprint.Manager")
    path = None
    context = GLib.MainContext.default()

    def pump(seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            context.iteration(False) or time.sleep(0.005)

    def device():
        nonlocal path
        if path is None:
            devices = manager.GetDevices()
            path = devices[0] if devices else "/net/reactivated/Fprint/Device/none"
        return bus.get_object(BUS, path)

    for step in steps:
        kind, _, rest = step.partition(":")
        try:
            if kind == "call" or kind == "manager":
                method, _, argument = rest.partition(":")
                target = dbus.Interface(device(), DEVICE) if kind == "call" else manager
                arguments = [argument] if ":" in rest else []
                result = getattr(target, method)(*arguments, timeout=60)
                say(f"{method} ok" + ("" if result is None else " " + plain(result)))
            elif kind == "send":
                method, _, argument = rest.partition(":")
                arguments = [argument] if ":" in rest else []
                getattr(dbus.Interface(device(), DEVICE), method)(
                    *arguments, timeout=60,
                    reply_handler=lambda *result, method=method: say(f"{method} ok" + ("".join(" " + plain(r) for r in result))),
                    error_handler=lambda error, method=method: say(f"{method} error {error.get_dbus_name()}: {error.get_dbus_message()}"))
                continue
            elif kind == "objects":
                root = dbus.Interface(bus.get_object(BUS, "/net/reactivated/Fprint"), "org.freedesktop.DBus.ObjectManager")
                say("objects " + plain(root.GetManagedObjects()))
            elif kind == "get":
                value = device().Get(DEVICE, rest, dbus_interface="org.freedesktop.DBus.Properties")
                say(f"{rest} = {plain(value)}")
            elif kind == "wait" or kind == "done":
                name, _, first = rest.partition(":")
                end = time.monotonic() + 30
                def found():
                    return next((index for index, s in enumerate(seen)
                                 if s[0] == name and (not first or (len(s) > 1 and s[1] == first))
                                 and (kind == "wait" or s[-1] == "True")), None)
                while found() is None and time.monotonic() < end:
                    pump(0.02)
                index = found()
                if index is None:
                    say(f"timeout waiting for {kind} {rest}")
                    return 3
                # What came after it stays for the next wait.
                del seen[:index + 1]
            elif kind == "say":
                # A round trip first: the daemon handles a connection's messages in order, so
                # the signal matches sent before it are in force once it answers.
                bus.call_blocking("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetId", "", [])
                say(rest)
            elif kind == "sleep":
                pump(float(rest))
            elif kind == "vanish":
                import os
                os._exit(0)
            else:
                say(f"unknown step {step}")
                return 2
        except dbus.exceptions.DBusException as error:
            name = step.split(":")[1] if ":" in step else step
            say(f"{name} error {error.get_dbus_name()}: {error.get_dbus_message()}")
        pump(0.05)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
