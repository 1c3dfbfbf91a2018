"""GNOME Settings' Users panel enrolling, listing and deleting a fingerprint through a daemon
serving fprintd's D-Bus API, and a suspend during an enrollment, headless.

    /usr/bin/python3 Tests/Helpers/gnome_settings --daemon .build/debug/fpbridged --shots DIR --image PGM
    /usr/bin/python3 Tests/Helpers/gnome_settings --daemon fprintd ...   # Debian's fprintd, the reference

Prints one line per step (PASS or FAIL and what the panel showed) and exits 1 when any step
failed, 2 when the desktop could not be set up. scripts/gnome-settings-check.sh runs it."""

import argparse
import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from gnome_settings import checks  # noqa: E402  (after the path above)
from gnome_settings.desktop import Desktop, SetupError  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--daemon', required=True, help="fpbridged's path, or 'fprintd' for Debian's fprintd")
    parser.add_argument('--shots', required=True, help='where the screenshots go (made if missing)')
    parser.add_argument('--image', required=True, help='the finger: a binary PGM for virtual_image')
    parser.add_argument('--keep', action='store_true', help='keep the temporary directory (logs) and say where')
    parser.add_argument('--timeout', type=int, default=420, help='seconds for the whole check (default 420)')
    arguments = parser.parse_args()
    if arguments.daemon != 'fprintd' and not os.access(arguments.daemon, os.X_OK):
        parser.error(f'{arguments.daemon} is not an executable (build first: swift build)')
    os.makedirs(arguments.shots, exist_ok=True)

    def out_of_time(*_):
        raise TimeoutError(f'the check took longer than {arguments.timeout} s')
    signal.signal(signal.SIGALRM, out_of_time)
    signal.alarm(arguments.timeout)

    started = time.monotonic()
    desktop = Desktop(arguments.daemon)
    status = 0
    try:
        desktop.start_all()
        results = checks.run(desktop, arguments.shots, arguments.image)
        for step, passed, detail in results:
            print(f'{"PASS" if passed else "FAIL"}  {step}: {detail}')
        failed = [step for step, passed, _ in results if not passed]
        status = 1 if failed else 0
        if failed:
            print(f'gnome-settings check: {len(failed)} step(s) failed: {", ".join(failed)}')
            tail = desktop.log('gnome-control-center').strip().splitlines()[-15:]
            print('gnome-control-center, last lines:\n  ' + '\n  '.join(tail))
    except (SetupError, TimeoutError) as error:
        print(f'gnome-settings check: could not run: {error}')
        for name in ('xvfb', 'session-bus', 'system-bus', 'gnome-control-center'):
            print(f'--- {name}:\n{desktop.log(name)[-1500:]}')
        status = 2
    finally:
        signal.alarm(0)
        desktop.stop()
        if arguments.keep:
            print(f'gnome-settings check: logs kept in {desktop.logs}')
        else:
            desktop.remove()
    print(f'gnome-settings check: {time.monotonic() - started:.0f} s; screenshots in {os.path.abspath(arguments.shots)}')
    return status


if __name__ == '__main__':
    sys.exit(main())
