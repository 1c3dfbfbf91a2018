"""A headless desktop of the check's own, in a temporary directory: Xvfb, a private session bus,
a private system bus with python3-dbusmock's polkitd and logind and the project's AccountsService
mock, the fingerprint daemon under test on libfprint's virtual_image reader, the
org.gnome.login-screen schema, and GNOME Settings' Users panel. Nothing of the machine's own
buses, settings or home is used or changed: every process gets the temporary HOME and XDG
directories, and the buses have no service directories but the session bus's standard ones
(for the accessibility bus and dconf, started inside the check's own session)."""

import os
import shutil
import signal
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

FPRINT_ACTIONS = ['net.reactivated.fprint.device.verify', 'net.reactivated.fprint.device.enroll',
                  'net.reactivated.fprint.device.setusername']

# The one key of GDM's org.gnome.login-screen schema that the Users panel reads (GNOME Settings
# 43, cc-user-panel.c): the fingerprint row is shown only when it is true. GDM itself is not
# installed for it (it brings GNOME Shell); its default here is false, so the panel shows the
# row only because the check set the key.
LOGIN_SCREEN_SCHEMA = '''<?xml version="1.0" encoding="UTF-8"?>
<schemalist>
  <schema id="org.gnome.login-screen" path="/org/gnome/login-screen/">
    <key name="enable-fingerprint-authentication" type="b">
      <default>false</default>
    </key>
  </schema>
</schemalist>
'''


class SetupError(Exception):
    """A part of the desktop did not start; the message says which."""


def wait_until(predicate, timeout, what, interval=0.1):
    """Polls predicate until it is true; SetupError naming what when timeout seconds pass."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise SetupError(f'{what}: not within {timeout} s')
        time.sleep(interval)


class Desktop:
    """Starts everything in order; stop() ends every process it started, by its id."""

    def __init__(self, daemon, reader_socket=None, keep=None):
        self.directory = keep or tempfile.mkdtemp(prefix='fpbridge-gnome-settings-')
        os.chmod(self.directory, 0o755)
        self.processes = []  # (name, Popen, process group of its own)
        self.daemon = daemon
        self.reader_socket = reader_socket or os.path.join(self.directory, 'reader.sock')
        self.logs = os.path.join(self.directory, 'logs')
        os.makedirs(self.logs, exist_ok=True)
        for name in ('home', 'config', 'cache', 'data'):
            os.makedirs(self.path(name), exist_ok=True)
        os.makedirs(self.path('runtime'), mode=0o700, exist_ok=True)
        self.environment = {
            key: value for key, value in os.environ.items()
            if not key.startswith(('DBUS_', 'XDG_', 'FP_', 'FPBRIDGE_', 'GSETTINGS', 'GTK', 'GDK', 'AT_SPI', 'NO_AT_BRIDGE'))
            and key not in ('DISPLAY', 'WAYLAND_DISPLAY', 'HOME')
        }
        self.environment.update({
            'HOME': self.path('home'), 'XDG_CONFIG_HOME': self.path('config'), 'XDG_CACHE_HOME': self.path('cache'),
            'XDG_DATA_HOME': self.path('data'), 'XDG_RUNTIME_DIR': self.path('runtime'),
            'LANG': 'C.UTF-8', 'LC_ALL': 'C.UTF-8',
        })

    def path(self, name):
        return os.path.join(self.directory, name)

    def start(self, name, arguments, environment=None, group=False, **options):
        """Starts a process with the desktop's environment, its output in logs/NAME.log."""
        log = open(os.path.join(self.logs, name + '.log'), 'wb')
        process = subprocess.Popen(arguments, env=environment or self.environment, stdin=subprocess.DEVNULL,
                                   stdout=options.pop('stdout', log), stderr=log,
                                   process_group=0 if group else None, **options)
        self.processes.append((name, process, group))
        return process

    def log(self, name):
        try:
            with open(os.path.join(self.logs, name + '.log'), errors='replace') as file:
                return file.read()
        except OSError:
            return ''

    def gdbus(self, *arguments, bus='--system', timeout=10):
        return subprocess.run(['/usr/bin/gdbus', 'call', bus] + list(arguments), env=self.environment,
                              capture_output=True, text=True, timeout=timeout)

    # The parts, in the order they start.

    def start_x(self):
        """Xvfb on a display it picks itself (-displayfd), keeping its framebuffer as a file."""
        os.makedirs(self.path('framebuffer'), exist_ok=True)
        read, write = os.pipe()
        self.start('xvfb', ['Xvfb', '-displayfd', str(write), '-screen', '0', '1280x900x24', '-nolisten', 'tcp',
                            '-fbdir', self.path('framebuffer')], pass_fds=(write,))
        os.close(write)
        with os.fdopen(read) as pipe:
            display = pipe.readline().strip()
        if not display:
            raise SetupError(f'Xvfb did not start: {self.log("xvfb")}')
        self.environment['DISPLAY'] = ':' + display
        self.framebuffer = os.path.join(self.path('framebuffer'), 'Xvfb_screen0')

    def start_session_bus(self):
        """A session bus with the standard service directories: GTK's accessibility bus
        (at-spi-bus-launcher) and dconf are started on it, inside the check's environment. Its
        own process group, so that what it starts ends with it."""
        process = self.start('session-bus', ['dbus-daemon', '--session', '--print-address=1', '--nofork', '--nopidfile'],
                             stdout=subprocess.PIPE, group=True)
        address = process.stdout.readline().decode().strip()
        if not address:
            raise SetupError(f'the session bus did not start: {self.log("session-bus")}')
        self.environment['DBUS_SESSION_BUS_ADDRESS'] = address

    def start_system_bus(self):
        """A bus standing in for the system bus: anyone may own any name, nothing is activated."""
        socket = self.path('system_bus_socket')
        with open(self.path('system-bus.conf'), 'w') as file:
            file.write(f'''<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
  </policy>
</busconfig>
''')
        self.start('system-bus', ['dbus-daemon', '--config-file=' + self.path('system-bus.conf'), '--nofork',
                                  '--nopidfile', '--nosyslog'])
        wait_until(lambda: os.path.exists(socket), 10, 'the private system bus')
        self.environment['DBUS_SYSTEM_BUS_ADDRESS'] = 'unix:path=' + socket

    def start_mocks(self):
        """polkitd (saying yes to fprintd's actions), logind (for PrepareForSleep) and AccountsService."""
        for template in ('polkitd', 'logind', os.path.join(HERE, 'accounts_service_mock.py')):
            name = 'mock-' + os.path.basename(template).removesuffix('.py')
            self.start(name, ['/usr/bin/python3', '-m', 'dbusmock', '--system', '--template', template])
        allowed = '[' + ','.join(f"'{action}'" for action in FPRINT_ACTIONS) + ']'
        wait_until(lambda: self.gdbus('-d', 'org.freedesktop.PolicyKit1', '-o', '/org/freedesktop/PolicyKit1/Authority',
                                      '-m', 'org.freedesktop.DBus.Mock.SetAllowed', allowed).returncode == 0,
                   15, "python3-dbusmock's polkitd")
        wait_until(lambda: self.gdbus('-d', 'org.freedesktop.login1', '-o', '/org/freedesktop/login1',
                                      '-m', 'org.freedesktop.login1.Manager.ListInhibitors').returncode == 0,
                   15, "python3-dbusmock's logind")
        wait_until(lambda: self.gdbus('-d', 'org.freedesktop.Accounts', '-o', '/org/freedesktop/Accounts',
                                      '-m', 'org.freedesktop.Accounts.FindUserById', str(os.getuid())).returncode == 0,
                   15, 'the AccountsService mock')

    def start_daemon(self):
        """fpbridged (--dbus on) or, as the reference, Debian's fprintd, on virtual_image."""
        environment = dict(self.environment, FP_VIRTUAL_IMAGE=self.reader_socket, FP_DRIVERS_WHITELIST='virtual_image',
                           FP_DRIVERS_ALLOWLIST='virtual_image', FP_DEVICE_EMULATION='1')
        os.makedirs(self.path('daemon-state'), mode=0o700, exist_ok=True)
        if self.daemon == 'fprintd':
            environment['STATE_DIRECTORY'] = self.path('daemon-state')
            self.start('fprintd', ['/usr/libexec/fprintd', '-t'], environment)
        else:
            self.start('fpbridged', [self.daemon, '--socket', self.path('fpbridged.sock'), '--state-dir',
                                     self.path('daemon-state'), '--test-mode', '--dbus', 'on',
                                     '--reader', 'libfprint:virtual_image'], environment)
        name = 'fprintd' if self.daemon == 'fprintd' else 'fpbridged'
        wait_until(lambda: 'true' in self.gdbus('-d', 'org.freedesktop.DBus', '-o', '/org/freedesktop/DBus', '-m',
                                                'org.freedesktop.DBus.NameHasOwner', 'net.reactivated.Fprint').stdout,
                   20, f'{name} taking net.reactivated.Fprint ({self.log(name)[-2000:]})')

    def start_monitor(self):
        """dbus-monitor on the system bus for the daemon's EnrollStatus signals, whoever they
        are sent to: what the daemon said, to report beside what the panel showed."""
        self.start('enroll-status', ['dbus-monitor', '--system',
                                     "type='signal',interface='net.reactivated.Fprint.Device',member='EnrollStatus'"])

    def enroll_statuses(self):
        """Every EnrollStatus the daemon has sent so far, as (result, done)."""
        lines = self.log('enroll-status').splitlines()
        statuses = []
        for index, line in enumerate(lines):
            if 'member=EnrollStatus' in line and index + 2 < len(lines):
                result = lines[index + 1].strip().removeprefix('string ').strip('"')
                statuses.append((result, lines[index + 2].strip() == 'boolean true'))
        return statuses

    def set_login_screen_key(self):
        """Compiles the schema into a private GSETTINGS_SCHEMA_DIR and sets the key through dconf,
        as a desktop's settings would have it."""
        schemas = self.path('schemas')
        os.makedirs(schemas, exist_ok=True)
        with open(os.path.join(schemas, 'org.gnome.login-screen.gschema.xml'), 'w') as file:
            file.write(LOGIN_SCREEN_SCHEMA)
        subprocess.run(['glib-compile-schemas', schemas], check=True, env=self.environment)
        self.environment['GSETTINGS_SCHEMA_DIR'] = schemas
        subprocess.run(['gsettings', 'set', 'org.gnome.login-screen', 'enable-fingerprint-authentication', 'true'],
                       check=True, env=self.environment)
        value = subprocess.run(['gsettings', 'get', 'org.gnome.login-screen', 'enable-fingerprint-authentication'],
                               capture_output=True, text=True, env=self.environment).stdout.strip()
        if value != 'true':
            raise SetupError(f'org.gnome.login-screen enable-fingerprint-authentication reads {value!r} after setting it')

    def start_settings(self):
        """GNOME Settings on its Users panel, with GTK's accessibility on (AT-SPI) and cairo
        drawing (no GL under Xvfb)."""
        environment = dict(self.environment, GDK_BACKEND='x11', GSK_RENDERER='cairo', GTK_A11Y='atspi',
                           G_MESSAGES_DEBUG='cc-fingerprint-dialog cc-fingerprint-manager')
        self.settings = self.start('gnome-control-center', ['gnome-control-center', 'user-accounts'], environment)

    def start_all(self):
        self.start_x()
        self.start_session_bus()
        self.start_system_bus()
        self.start_mocks()
        self.start_daemon()
        self.start_monitor()
        self.set_login_screen_key()
        self.start_settings()

    # What the check does to the world outside the panel.

    def prepare_for_sleep(self, sleeping):
        """logind announces suspend (True) or waking (False)."""
        result = self.gdbus('-d', 'org.freedesktop.login1', '-o', '/org/freedesktop/login1', '-m',
                            'org.freedesktop.DBus.Mock.EmitSignal', 'org.freedesktop.login1.Manager', 'PrepareForSleep',
                            'b', '[<true>]' if sleeping else '[<false>]')
        if result.returncode != 0:
            raise SetupError(f'PrepareForSleep: {result.stderr}')

    def enrolled_fingers(self, user):
        """ListEnrolledFingers as the daemon answers it: the stored state, beside what the panel shows."""
        result = self.gdbus('-d', 'net.reactivated.Fprint', '-o', '/net/reactivated/Fprint/Device/0', '-m',
                            'net.reactivated.Fprint.Device.ListEnrolledFingers', user)
        if result.returncode != 0:
            if 'NoEnrolledPrints' in result.stderr:
                return []
            raise SetupError(f'ListEnrolledFingers: {result.stderr}')
        return [part.strip(" '") for part in result.stdout.strip()[2:-3].split(',') if part.strip(" '")]

    def finger_needed(self):
        """The device's finger-needed property: true while a scan waits for the finger."""
        result = self.gdbus('-d', 'net.reactivated.Fprint', '-o', '/net/reactivated/Fprint/Device/0', '-m',
                            'org.freedesktop.DBus.Properties.Get', 'net.reactivated.Fprint.Device', 'finger-needed')
        return 'true' in result.stdout

    def alive(self, name):
        return any(n == name and p.poll() is None for n, p, _ in self.processes)

    def stop(self):
        """SIGTERM to each process it started, newest first (a group of its own to its group),
        then SIGKILL to any still running after 5 s."""
        for name, process, group in reversed(self.processes):
            if process.poll() is None or group:
                try:
                    os.killpg(process.pid, signal.SIGTERM) if group else process.terminate()
                except ProcessLookupError:
                    pass
        deadline = time.monotonic() + 5
        for name, process, group in reversed(self.processes):
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            if group:
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass

    def remove(self):
        shutil.rmtree(self.directory, ignore_errors=True)
