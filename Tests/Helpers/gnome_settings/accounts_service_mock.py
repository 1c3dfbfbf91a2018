"""AccountsService (org.freedesktop.Accounts) as a python3-dbusmock template, for GNOME Settings'
Users panel on a private system bus (Tests/Helpers/gnome_settings).

Debian 12's python3-dbusmock (0.28) has no accounts_service template, so this is the project's
own, written from the interface files Debian's accountsservice ships
(/usr/share/dbus-1/interfaces/org.freedesktop.Accounts*.xml). It serves one user: the one this
process runs as (GNOME Settings shows the fingerprint row only for its own, local user), as a
local administrator (an administrator gets no parental-controls row to wait on).

    python3 -m dbusmock --system --template Tests/Helpers/gnome_settings/accounts_service_mock.py
"""

import os
import pwd

import dbus

BUS_NAME = 'org.freedesktop.Accounts'
MAIN_OBJ = '/org/freedesktop/Accounts'
MAIN_IFACE = 'org.freedesktop.Accounts'
USER_IFACE = 'org.freedesktop.Accounts.User'
SYSTEM_BUS = True


def user_path(uid):
    """The object path AccountsService gives a user."""
    return f'/org/freedesktop/Accounts/User{uid}'


def load(mock, parameters):
    entry = pwd.getpwuid(int(parameters.get('uid', os.getuid())))
    path = user_path(entry.pw_uid)
    mock.AddObject(path, USER_IFACE, {
        'Uid': dbus.UInt64(entry.pw_uid),
        'UserName': entry.pw_name,
        'RealName': parameters.get('real_name', entry.pw_gecos.split(',')[0] or entry.pw_name),
        'AccountType': dbus.Int32(1),  # administrator
        'HomeDirectory': entry.pw_dir,
        'Shell': entry.pw_shell,
        'Email': '',
        'Language': '',
        'Session': '',
        'SessionType': '',
        'XSession': '',
        'Location': '',
        'LoginFrequency': dbus.UInt64(0),
        'LoginTime': dbus.Int64(0),
        'LoginHistory': dbus.Array([], signature='(xxa{sv})'),
        'IconFile': '',
        'Saved': True,
        'Locked': False,
        'PasswordMode': dbus.Int32(0),
        'PasswordHint': '',
        'AutomaticLogin': False,
        'SystemAccount': False,
        'LocalAccount': True,
    }, [
        # Setters the panel may call; none of them is part of what is checked.
        (name, signature, '', '') for name, signature in [
            ('SetRealName', 's'), ('SetEmail', 's'), ('SetLanguage', 's'), ('SetIconFile', 's'),
            ('SetAccountType', 'i'), ('SetAutomaticLogin', 'b'), ('SetLocked', 'b'), ('SetPasswordMode', 'i'),
        ]
    ] + [('GetPasswordExpirationPolicy', '', 'xxxxxx', 'ret = (0, 0, 99999, 7, -1, -1)')])
    mock.AddMethods(MAIN_IFACE, [
        ('ListCachedUsers', '', 'ao', f'ret = [dbus.ObjectPath("{path}")]'),
        ('FindUserById', 'x', 'o',
         f'if args[0] != {entry.pw_uid}:\n'
         '    raise dbus.exceptions.DBusException("no such user", name="org.freedesktop.Accounts.Error.Failed")\n'
         f'ret = dbus.ObjectPath("{path}")'),
        ('FindUserByName', 's', 'o',
         f'if args[0] != "{entry.pw_name}":\n'
         '    raise dbus.exceptions.DBusException("no such user", name="org.freedesktop.Accounts.Error.Failed")\n'
         f'ret = dbus.ObjectPath("{path}")'),
        ('CacheUser', 's', 'o', f'ret = dbus.ObjectPath("{path}")'),
        ('UncacheUser', 's', '', ''),
    ])
    mock.AddProperties(MAIN_IFACE, {
        'DaemonVersion': '22.08.8',
        'HasNoUsers': False,
        'HasMultipleUsers': False,
        'AutomaticLoginUsers': dbus.Array([], signature='o'),
    })
