"""GNOME Settings' widgets as its accessibility tree (AT-SPI) shows them, read over the
accessibility bus with plain D-Bus calls (python3-gi's Gio), and clicked with xdotool.

Not through libatspi (gir1.2-atspi-2.0, pyatspi, dogtail): GTK 4.8 registers a second window
(the fingerprint dialog) on the bus but leaves it out of its application's children, so
libatspi's tree never reaches it. Each window is found here by its own Parent instead. GTK 4.8
offers no actions on list rows and never sets SHOWING, so a widget counts as shown when it
is VISIBLE and has a size, and it is clicked where its extents say it is."""

import subprocess
import time

from gi.repository import Gio, GLib

ACCESSIBLE = 'org.a11y.atspi.Accessible'
COMPONENT = 'org.a11y.atspi.Component'
ACTION = 'org.a11y.atspi.Action'
ROOT = '/org/a11y/atspi/accessible/root'
STATE_SENSITIVE, STATE_VISIBLE = 24, 30  # AtspiStateType bits


class Node:
    """One accessible object: role, name, states and extents, read when made."""

    def __init__(self, tree, bus_name, path, window=None):
        self.tree, self.bus_name, self.path = tree, bus_name, path
        self.window = window or self
        self.name = tree.property(bus_name, path, 'Name')
        self.role = tree.call(bus_name, path, ACCESSIBLE, 'GetRoleName')[0]
        states = tree.call(bus_name, path, ACCESSIBLE, 'GetState')[0]
        self.states = states[0] | (states[1] << 32)
        interfaces = tree.call(bus_name, path, ACCESSIBLE, 'GetInterfaces')[0]
        self.extents = (tree.call(bus_name, path, COMPONENT, 'GetExtents', GLib.Variant('(u)', (1,)))[0]
                        if COMPONENT in interfaces else (0, 0, 0, 0))
        self.interfaces = interfaces

    @property
    def actions(self):
        """The names of the node's actions (GTK 4.8 may count one it then cannot name: left out)."""
        if ACTION not in self.interfaces:
            return []
        names = []
        for index in range(self.tree.property(self.bus_name, self.path, 'NActions', ACTION)):
            try:
                names.append(self.tree.call(self.bus_name, self.path, ACTION, 'GetName', GLib.Variant('(i)', (index,)))[0])
            except GLib.Error:
                names.append(None)
        return names

    @property
    def shown(self):
        return bool(self.states >> STATE_VISIBLE & 1) and self.extents[2] > 0 and self.extents[3] > 0

    @property
    def sensitive(self):
        return bool(self.states >> STATE_SENSITIVE & 1)

    def do(self, action):
        """Does one of the node's AT-SPI actions (a button's 'click'), as a screen reader would."""
        self.tree.call(self.bus_name, self.path, ACTION, 'DoAction', GLib.Variant('(i)', (self.actions.index(action),)))

    def children(self):
        return [Node(self.tree, name, path, self.window)
                for name, path in self.tree.call(self.bus_name, self.path, ACCESSIBLE, 'GetChildren')[0]]

    def walk(self):
        """This node and every descendant that is shown (a hidden one hides its subtree)."""
        if self.window is not self and not self.shown:
            return
        yield self
        for child in self.children():
            yield from child.walk()

    def __repr__(self):
        return f'{self.role} {self.name!r} at {self.extents}{"" if self.sensitive else " (insensitive)"}'


class Tree:
    """The application's accessible objects on the accessibility bus of the desktop's session."""

    def __init__(self, session_address, application='gnome-control-center'):
        session = Gio.DBusConnection.new_for_address_sync(
            session_address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION)
        address = session.call_sync('org.a11y.Bus', '/org/a11y/bus', 'org.a11y.Bus', 'GetAddress', None, None, 0, 10000,
                                    None).unpack()[0]
        self.bus = Gio.DBusConnection.new_for_address_sync(
            address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION)
        self.application = application
        self.bus_name = None

    def call(self, bus_name, path, interface, method, arguments=None):
        return self.bus.call_sync(bus_name, path, interface, method, arguments, None, 0, 10000, None).unpack()

    def property(self, bus_name, path, name, interface=ACCESSIBLE):
        return self.call(bus_name, path, 'org.freedesktop.DBus.Properties', 'Get',
                         GLib.Variant('(ss)', (interface, name)))[0]

    def find_application(self):
        """The application's bus name, once it has registered with the accessibility registry."""
        for name, path in self.call('org.a11y.atspi.Registry', ROOT, ACCESSIBLE, 'GetChildren')[0]:
            try:
                if self.property(name, path, 'Name') == self.application:
                    self.bus_name = name
                    return name
            except GLib.Error:
                continue  # an application that went away meanwhile
        return None

    def windows(self):
        """Every window of the application (the ones the root lists and the ones it forgets)."""
        if not self.bus_name and not self.find_application():
            return []
        found = []
        for base in self.object_bases():
            xml = self.call(self.bus_name, base, 'org.freedesktop.DBus.Introspectable', 'Introspect')[0]
            for child in Gio.DBusNodeInfo.new_for_xml(xml).nodes:
                path = base.rstrip('/') + '/' + child.path
                try:
                    if self.property(self.bus_name, path, 'Parent')[1] == ROOT:
                        found.append(Node(self, self.bus_name, path))
                except GLib.Error:
                    continue  # unregistered while we looked
        return found

    def object_bases(self):
        """Where the application keeps its accessible objects (GTK: /org/gnome/<App>/a11y)."""
        bases = []
        for name, path in self.call(self.bus_name, ROOT, ACCESSIBLE, 'GetChildren')[0]:
            bases.append(path.rsplit('/', 1)[0])
        return sorted(set(bases))

    def window(self, name):
        for window in self.windows():
            if window.name == name and window.shown:
                return window
        return None


class Screen:
    """Clicks with xdotool at a node's centre, in screen coordinates: the X window's position
    plus the border GTK draws around its client-side decorated window (extents are relative to
    the window's drawn content)."""

    def __init__(self, environment):
        self.environment = environment

    def xdotool(self, *arguments):
        return subprocess.run(['xdotool'] + list(arguments), env=self.environment, capture_output=True, text=True,
                              timeout=10)

    def origin(self, window):
        ids = self.xdotool('search', '--onlyvisible', '--name', '^' + window.name + '$').stdout.split()
        if not ids:
            return 0, 0
        geometry = self.xdotool('getwindowgeometry', '--shell', ids[-1]).stdout
        values = dict(line.split('=', 1) for line in geometry.split() if '=' in line)
        border_x = (int(values['WIDTH']) - window.extents[2]) // 2
        border_y = (int(values['HEIGHT']) - window.extents[3]) // 2
        return int(values['X']) + border_x, int(values['Y']) + border_y

    def click(self, node):
        x0, y0 = self.origin(node.window)
        x, y, width, height = node.extents
        self.xdotool('mousemove', str(x0 + x + width // 2), str(y0 + y + height // 2))
        time.sleep(0.1)  # GTK needs the pointer's enter before the press, or the press is dropped
        self.xdotool('click', '1')
