#!/usr/bin/python3
"""A logind for tests that holds its answers to Inhibit until told (Tests/TestSupport/LogindMock.swift).

python3-dbusmock's logind template answers Inhibit at once; this one keeps each call waiting, so a
test can show what the service does while logind is slow. On the bus given as the first argument:
org.freedesktop.login1.Manager's Inhibit and ListInhibitors (an inhibitor counts while its
descriptor is open at the other end, as in logind), and on org.freedesktop.DBus.Mock
WaitingInhibits, AnswerInhibits and RefuseInhibits. PrepareForSleep is emitted with
org.freedesktop.DBus.Mock.EmitSignal as dbusmock does.
"""
import os
import select
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

MANAGER = 'org.freedesktop.login1.Manager'
MOCK = 'org.freedesktop.DBus.Mock'

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.bus.BusConnection(sys.argv[1])


class Manager(dbus.service.Object):
    def __init__(self):
        super().__init__(bus, '/org/freedesktop/login1')
        self.waiting = []  # (who, reply, error)
        self.held = []     # (who, read end of a pipe whose write end went to the caller)

    @dbus.service.method(MANAGER, in_signature='ssss', out_signature='h', async_callbacks=('reply', 'error'))
    def Inhibit(self, what, who, why, mode, reply, error):
        self.waiting.append((str(who), reply, error))

    @dbus.service.method(MANAGER, in_signature='', out_signature='a(ssssuu)')
    def ListInhibitors(self):
        # A descriptor closed at the caller's end (or never received) releases its inhibitor.
        still = []
        for who, read_end in self.held:
            readable, _, _ = select.select([read_end], [], [], 0)
            if readable and os.read(read_end, 1) == b'':
                os.close(read_end)
            else:
                still.append((who, read_end))
        self.held = still
        return [('sleep', who, 'held-logind', 'delay', dbus.UInt32(0), dbus.UInt32(0)) for who, _ in self.held]

    @dbus.service.method(MOCK, in_signature='', out_signature='u')
    def WaitingInhibits(self):
        return len(self.waiting)

    @dbus.service.method(MOCK, in_signature='', out_signature='')
    def AnswerInhibits(self):
        for who, reply, _ in self.waiting:
            read_end, write_end = os.pipe()
            reply(dbus.types.UnixFd(write_end))
            os.close(write_end)
            self.held.append((who, read_end))
        self.waiting = []

    @dbus.service.method(MOCK, in_signature='', out_signature='')
    def RefuseInhibits(self):
        for _, _, error in self.waiting:
            error(dbus.exceptions.DBusException('refused by the test', name='org.freedesktop.DBus.Error.AccessDenied'))
        self.waiting = []

    @dbus.service.method(MOCK, in_signature='sssav', out_signature='')
    def EmitSignal(self, interface, name, signature, args):
        message = dbus.lowlevel.SignalMessage('/org/freedesktop/login1', interface, name)
        message.append(*args, signature=signature)
        bus.send_message(message)


manager = Manager()
name = dbus.service.BusName('org.freedesktop.login1', bus)
GLib.MainLoop().run()
