#!/usr/bin/python3
"""Where a verify through fprintd's D-Bus API spends its time, call by call.

    DBUS_SYSTEM_BUS_ADDRESS=... bench/dbus-phases.py VIRTUAL_DEVICE_SOCKET [ROUNDS]

Against whichever daemon holds net.reactivated.Fprint on that bus (fprintd or fpbridged
--dbus on), with libfprint's virtual_device on VIRTUAL_DEVICE_SOCKET and root's
right-index-finger enrolled: Claim, ListEnrolledFingers, VerifyStart, one scan to the final
VerifyStatus, VerifyStop, Release, from one python3-dbus connection; prints the median of
each in ms. BENCHMARKS.md ("fprintd's clients against fpbridged's D-Bus face") has figures.
"""
import sys, time, socket, statistics
import dbus, dbus.mainloop.glib
from gi.repository import GLib
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
vd = sys.argv[1]
bus = dbus.SystemBus()
m = dbus.Interface(bus.get_object("net.reactivated.Fprint", "/net/reactivated/Fprint/Manager"), "net.reactivated.Fprint.Manager")
path = m.GetDefaultDevice()
d = dbus.Interface(bus.get_object("net.reactivated.Fprint", path), "net.reactivated.Fprint.Device")
done = []
bus.add_signal_receiver(lambda r, dn: done.append((r, dn, time.perf_counter())), signal_name="VerifyStatus")
ctx = GLib.MainContext.default()
def scan():
    s = socket.socket(socket.AF_UNIX); s.connect(vd); s.sendall(b"SCAN p1"); s.shutdown(socket.SHUT_WR)
    while s.recv(100): pass
    s.close()
phases = {k: [] for k in ["Claim", "List", "VerifyStart", "scan->status", "VerifyStop", "Release"]}
for i in range(int(sys.argv[2]) if len(sys.argv) > 2 else 30):
    t = time.perf_counter(); d.Claim(""); phases["Claim"].append(time.perf_counter() - t)
    t = time.perf_counter(); d.ListEnrolledFingers(""); phases["List"].append(time.perf_counter() - t)
    t = time.perf_counter(); d.VerifyStart("right-index-finger"); phases["VerifyStart"].append(time.perf_counter() - t)
    done.clear()
    while ctx.iteration(False): pass
    done.clear()
    t = time.perf_counter(); scan()
    while not any(x[1] for x in done): ctx.iteration(True)
    phases["scan->status"].append(done[-1][2] - t)
    t = time.perf_counter(); d.VerifyStop(); phases["VerifyStop"].append(time.perf_counter() - t)
    t = time.perf_counter(); d.Release(); phases["Release"].append(time.perf_counter() - t)
print(" ".join(f"{k}={statistics.median(v)*1000:.2f}" for k, v in phases.items()))

