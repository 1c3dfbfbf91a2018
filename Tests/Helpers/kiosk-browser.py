#!/usr/bin/python3
"""The kiosk page in a real browser: headless Chromium driven by Selenium (Debian's
chromium, chromium-driver and python3-selenium), against a running fpbridge-kiosk.

    kiosk-browser.py --url URL --phase PHASE --shots DIR [--reader-socket PATH --prints DIR] [--handshake DIR]
                     [--embed-port PORT]

One phase per run (the Swift test between runs restarts fpbridged, unplugs readers...):
  ready      the page armed: "Touch the reader", every id of the contract there; ?lang=zh and #lang
  welcome    alice's finger on the reader: Reading…, then "Welcome, alice" and #session[data-user]
  forget     nothing of one person is left for the next (?forget=SECONDS sets the idle time): a
             PIN sign-in clears the user id at once and its words after 3 s; the next result at
             the reader clears the last sign-in line; a wrong PIN's user id and answer go after
             3 s idle; a key of the pad pressed from the keyboard keeps the focus
  lockout    a stranger: not recognised (4 left); four more: locked out with a countdown that
             counts down; bob signs in with the PIN pad (its digit buttons) meanwhile
  pin        an unknown user and a wrong PIN get the same words; wrong PINs until the passcode
             lockout is shown
  guesser    wrong PINs under names nobody has until the kiosk's pad is paced ("back in N s",
             N at most 5, counting down to "You can try again now"); then the next person, alice, signs in with her PIN, asked to wait at
             most once and at most 5 s (the time after the guesser is printed, not bounded)
  enrolling  armed (then DIR/armed; the test runs fpbridge enroll --at-kiosk and plays the
             scans): "An administrator is enrolling a finger: N of 5 scans done" counting up,
             no stranger's refusal, then ready again by itself (then DIR/enrolled)
  resting    a reader too warm to arm unannounced: "Tap the screen to use your finger, or use
             your PIN" with a countdown; a tap ends the rest
  unplug     the reader pulled out: unavailable, in words
  back       ready again (after the test started fpbridged again)
  layouts    800x480, 1024x600, 1280x800 and portrait 1080x1920, English and Chinese, with the
             longest words up at once: everything on one screen, nothing scrolled
  restart    armed (then DIR/armed, and the test stops fpbridged): "the reader is restarting" in
             English and Chinese (then DIR/seen, and the test starts it again); ready again by itself
  badge      with --badge-first, --badges and a login server: the badge number and "Use finger", then
             alice's finger welcomes her with a session (printed as finger-session); another finger
             under her number is refused; an unknown number is told it has no fingerprint here
  session    with a login server: alice's touch welcomes her with #session[data-session] (printed); a
             stranger's touch next leaves nothing of her sign-in in the page's DOM
  pad        with a login server and --badges: an unknown badge is a wrong PIN; badge 1001 and its
             PIN typed by clicking only the pad's buttons welcome alice with a session (printed);
             then wrong PINs for 1001 until its lockout, named as a badge number's, and alice's
             "Signed in" line gone at the first of them
  embed      with a login server and --embed-origin http://127.0.0.1:PORT: an application's page
             served here on that port frames the kiosk; alice's touch and then her PIN are handed
             to it by postMessage (their sessions printed), each followed by a forget once the
             page forgot the sign-in, the frame ready again; the same page at http://localhost:PORT
             (another origin) can neither frame the kiosk nor receive anything
  branded   with --page-dir (no fpbridged): its stylesheet, logo and words shown, and its third
             language (fr) reached by the language button and by ?lang=fr
Each state is kept as DIR/NN-PHASE-STATE.png. Exit 0 when every check held; each failure is
printed as FAIL: and the exit status is 1.
"""
import argparse
import http.server
import os
import socket
import struct
import sys
import threading
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

failures = []


def check(condition, words):
    if not condition:
        failures.append(words)
        print("FAIL: " + words, flush=True)
    return condition


class Page:
    def __init__(self, url, shots, phase):
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--window-size=1280,800", "--lang=en-US"]:
            options.add_argument(argument)
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        self.url, self.shots, self.phase = url, shots, phase
        self.count = len([name for name in os.listdir(shots) if name.endswith(".png")])

    def open(self, query=""):
        self.driver.get(self.url + query)
        # Every state the page shows, in order: some last only a moment (Reading…).
        self.driver.execute_script("""
            window.kioskStates = [document.body.dataset.state];
            new MutationObserver(function () { window.kioskStates.push(document.body.dataset.state); })
                .observe(document.body, { attributes: true, attributeFilter: ['data-state'] });""")

    def states(self):
        return self.driver.execute_script("return window.kioskStates;")

    def state(self):
        return self.driver.find_element(By.TAG_NAME, "body").get_attribute("data-state")

    def text(self, selector):
        return self.driver.find_element(By.CSS_SELECTOR, selector).text

    def attribute(self, selector, name):
        return self.driver.find_element(By.CSS_SELECTOR, selector).get_attribute(name)

    def wait(self, condition, seconds=30):
        try:
            WebDriverWait(self.driver, seconds, poll_frequency=0.05).until(lambda _: condition())
            return True
        except Exception:
            return False

    def wait_state(self, state, seconds=30):
        return check(self.wait(lambda: self.state() == state, seconds),
                     f"{self.phase}: the page never showed {state} within {seconds} s (it shows {self.state()}: {self.text('#message')!r})")

    def shot(self, name):
        self.count += 1
        path = os.path.join(self.shots, f"{self.count:02d}-{self.phase}-{name}.png")
        self.driver.save_screenshot(path)
        print("screenshot " + path, flush=True)

    def pin(self, user, pin, with_keys=False):
        field = self.driver.find_element(By.ID, "pin-user")
        field.clear()
        field.send_keys(user)
        self.watch_answers()
        if with_keys:
            # The pad types into the user id until "next" moves it to the PIN.
            self.driver.find_element(By.ID, "pin-next").click()
            for digit in pin:
                self.driver.find_element(By.CSS_SELECTOR, f'.pin-key[data-key="{digit}"]').click()
            self.driver.find_element(By.ID, "pin-submit").click()
        else:
            code = self.driver.find_element(By.ID, "pin-code")
            code.send_keys(pin)
            code.send_keys(Keys.ENTER)
        return self.answer()

    def digits(self, digits):
        """Digits typed on the pad's keys into the field they go to."""
        for digit in digits:
            self.driver.find_element(By.CSS_SELECTOR, f'.pin-key[data-key="{digit}"]').click()

    def pad(self, user, pin):
        """Both fields by touch alone: the pad's digits, "next", the PIN's digits, "Sign in"."""
        self.watch_answers()
        for digit in user:
            self.driver.find_element(By.CSS_SELECTOR, f'.pin-key[data-key="{digit}"]').click()
        self.driver.find_element(By.ID, "pin-next").click()
        for digit in pin:
            self.driver.find_element(By.CSS_SELECTOR, f'.pin-key[data-key="{digit}"]').click()
        self.driver.find_element(By.ID, "pin-submit").click()
        return self.answer()

    def watch_answers(self):
        # Every text #pin-message takes from now on: the answer may read as the last one did.
        self.driver.execute_script("""
            window.pinAnswers = [];
            if (!window.pinWatcher) {
              var target = document.getElementById('pin-message');
              window.pinWatcher = new MutationObserver(function () { window.pinAnswers.push(target.textContent); });
              window.pinWatcher.observe(target, { childList: true, characterData: true, subtree: true });
            }""")

    def answer(self):
        answered = lambda: [text for text in self.driver.execute_script("return window.pinAnswers;")
                            if text not in ("", "Checking…", "正在核对…")]
        self.wait(lambda: answered(), 15)
        return (answered() or [""])[0]

    def close(self):
        self.driver.quit()


def touch(reader_socket, image):
    """Plays the touch beside the page's checks: the page moves on while the frame is sent."""
    thread = threading.Thread(target=send_frame, args=(reader_socket, image), daemon=True)
    thread.start()
    return thread


def send_frame(reader_socket, image):
    """One frame for libfprint's virtual_image, kept open while the reader takes it."""
    with open(image, "rb") as handle:
        data = handle.read()
    fields = data.split(maxsplit=4)
    width, height = int(fields[1]), int(fields[2])
    pixels = data[-width * height:]
    deadline = time.time() + 20
    while True:
        try:
            connection = socket.socket(socket.AF_UNIX)
            connection.connect(reader_socket)
            break
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.1)
    time.sleep(0.3)
    connection.sendall(struct.pack("=ii", width, height) + pixels)
    time.sleep(0.8)
    connection.close()


def unplug(reader_socket):
    connection = socket.socket(socket.AF_UNIX)
    connection.connect(reader_socket)
    connection.sendall(struct.pack("=ii", -5, 0))
    time.sleep(0.5)
    connection.close()


def serve_application(port, kiosk_url):
    """The developer's application on loopback: a page that frames the kiosk and keeps every
    message it is handed, with the origin it came from, in window.received."""
    html = f"""<!doctype html><html><head><meta charset="utf-8"><title>App</title></head><body>
<iframe id="kiosk" name="kiosk" src="{kiosk_url}" style="width:1200px;height:740px;border:0"></iframe>
<script>
window.received = [];
window.addEventListener('message', function (event) {{ window.received.push({{ origin: event.origin, data: event.data }}); }});
</script></body></html>""".encode()

    class Application(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(html)))
            self.end_headers()
            self.wfile.write(html)

        def log_message(self, *_):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Application)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def tell(directory, name):
    """Tells the Swift test the page got this far (it stops or starts fpbridged then)."""
    open(os.path.join(directory, name), "w").close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--phase", required=True)
    parser.add_argument("--shots", required=True)
    parser.add_argument("--reader-socket")
    parser.add_argument("--prints")
    parser.add_argument("--handshake")
    parser.add_argument("--embed-port", type=int)
    arguments = parser.parse_args()
    image = lambda name: os.path.join(arguments.prints, name + ".pgm")
    page = Page(arguments.url, arguments.shots, arguments.phase)
    try:
        phase = arguments.phase
        if phase == "ready":
            page.open()
            page.wait_state("ready")
            check(page.text("#message") == "Touch the reader", f"ready says {page.text('#message')!r}")
            for selector in ["#message", "#countdown", "#pin-user", "#pin-code", "#pin-submit", "#pin-message", "#lang", "#session"]:
                check(len(page.driver.find_elements(By.CSS_SELECTOR, selector)) == 1, f"no {selector} on the page")
            check(len(page.driver.find_elements(By.CSS_SELECTOR, ".pin-key")) >= 10, "fewer than ten .pin-key buttons")
            check(page.attribute("#message", "aria-live") == "polite", "#message is not aria-live")
            check(page.attribute("#pin-code", "type") == "password" and page.attribute("#pin-code", "inputmode") == "numeric",
                  "#pin-code is not a numeric password field")
            check(page.text("#countdown") == "", "a countdown while ready")
            page.shot("ready")
            # Keyboard only: Tab reaches the PIN pad's fields and buttons.
            body = page.driver.find_element(By.TAG_NAME, "body")
            body.send_keys(Keys.TAB)
            reached = set()
            for _ in range(20):
                reached.add(page.driver.switch_to.active_element.get_attribute("id") or "")
                page.driver.switch_to.active_element.send_keys(Keys.TAB)
            check({"lang", "pin-user", "pin-code", "pin-submit"} <= reached, f"Tab reaches only {sorted(reached)}")
            page.open("?lang=zh")
            page.wait_state("ready")
            check(page.wait(lambda: page.text("#message") == "请触摸指纹传感器"), f"?lang=zh says {page.text('#message')!r}")
            page.shot("ready-zh")
            page.driver.find_element(By.ID, "lang").click()
            check(page.wait(lambda: page.text("#message") == "Touch the reader"), "#lang did not switch back to English")
        elif phase == "welcome":
            page.open()
            page.wait_state("ready")
            touch(arguments.reader_socket, image("whorl"))
            # Reading… is up while matching runs (NBIS on virtual_image: a moment); the welcome comes after it.
            if page.wait(lambda: page.state() in ("reading", "welcome"), 10) and page.state() == "reading":
                page.shot("reading")
            page.wait_state("welcome")
            states = page.states()
            check("reading" in states and states.index("reading") < states.index("welcome"), f"states shown: {states}")
            check(page.text("#message") == "Welcome, alice", f"welcome says {page.text('#message')!r}")
            check(page.attribute("#session", "data-user") == "alice", "#session has no data-user alice")
            page.shot("welcome")
            page.wait_state("ready")
        elif phase == "forget":
            page.open("?forget=3")
            page.wait_state("ready")
            answer = page.pin("bob", "2468", with_keys=True)
            check(answer == "Welcome, bob", f"bob's PIN says {answer!r}")
            check(page.attribute("#pin-user", "value") == "", "bob's user id stays in its field after his sign-in")
            check(page.text("#session") == "Signed in: bob", f"the sign-in line says {page.text('#session')!r}")
            page.shot("pin-welcome")
            check(page.wait(lambda: page.text("#pin-message") == "" and not page.driver.find_element(By.ID, "session").is_displayed(), 8),
                  f"bob's welcome stays up: {page.text('#pin-message')!r}, {page.text('#session')!r}")
            check(page.attribute("#session", "data-user") is None, "bob stays in #session's data-user after his sign-in was forgotten")
            page.shot("pin-forgotten")
            # alice at the reader, then a stranger, with a long idle time: the stranger's result,
            # not the time, clears alice's line.
            page.open("?forget=120")
            page.wait_state("ready")
            touch(arguments.reader_socket, image("whorl"))
            page.wait_state("welcome")
            check(page.text("#session") == "Signed in: alice", f"alice's line says {page.text('#session')!r}")
            page.wait_state("ready")
            check(page.text("#session") == "Signed in: alice", "alice's line went before the next result or the idle time")
            touch(arguments.reader_socket, image("arch"))
            page.wait_state("notRecognised")
            check(not page.driver.find_element(By.ID, "session").is_displayed(),
                  f"alice's line sits under the stranger's result: {page.text('#session')!r}")
            check(page.attribute("#session", "data-user") is None, "alice stays in #session's data-user under the stranger's result")
            page.shot("next-result")
            # alice again: identification's count of strangers starts from nothing for the next phase.
            page.wait_state("ready")
            touch(arguments.reader_socket, image("whorl"))
            page.wait_state("welcome")
            page.wait_state("ready")
            # A wrong PIN: the user id and the answer stay while the person retries, go when idle.
            page.open("?forget=3")
            page.wait_state("ready")
            answer = page.pin("zed", "1111")
            check(answer == "Wrong user ID or PIN", f"a wrong PIN says {answer!r}")
            check(page.attribute("#pin-user", "value") == "zed", "the user id went at once after a wrong PIN")
            check(page.wait(lambda: page.text("#pin-message") == "" and page.attribute("#pin-user", "value") == "", 8),
                  "a wrong PIN's user id and answer stay up")
            # The pad from the keyboard: Enter on a key types its digit and the focus stays there
            # (into the PIN after "next"; the user id comes first).
            page.driver.find_element(By.ID, "pin-next").click()
            key = page.driver.find_element(By.CSS_SELECTOR, '.pin-key[data-key="7"]')
            page.driver.execute_script("arguments[0].focus();", key)
            page.driver.switch_to.active_element.send_keys(Keys.ENTER)
            page.driver.switch_to.active_element.send_keys(Keys.ENTER)
            check(page.attribute("#pin-code", "value") == "77", f"two Enters on the 7 key typed {page.attribute('#pin-code', 'value')!r}")
            check(page.driver.switch_to.active_element.get_attribute("data-key") == "7", "the focus left the key it was on")
        elif phase == "lockout":
            page.open()
            page.wait_state("ready")
            touch(arguments.reader_socket, image("arch"))
            page.wait_state("notRecognised")
            check(page.text("#message") == "Not recognised, try again (4 left)", f"not recognised says {page.text('#message')!r}")
            page.shot("notRecognised")
            # (tented_arch is carol's since the enrolling phase.)
            for stranger in ["arch", "arch", "arch", "arch"]:
                page.wait_state("ready")
                touch(arguments.reader_socket, image(stranger))
                page.wait(lambda: page.state() in ("notRecognised", "lockedOut"), 30)
            page.wait_state("lockedOut")
            first = page.text("#countdown")
            check(first.isdigit() and 0 < int(first) <= 30, f"the lockout's countdown is {first!r}")
            check(page.wait(lambda: page.text("#countdown").isdigit() and int(page.text("#countdown")) < int(first), 5),
                  "the lockout's countdown does not count down")
            check(page.attribute("#message", "aria-live") == "assertive", "the lockout is not announced assertively")
            page.shot("lockedOut")
            answer = page.pin("bob", "2468", with_keys=True)
            check(answer == "Welcome, bob", f"the PIN pad during the lockout says {answer!r}")
            check(page.attribute("#session", "data-user") == "bob", "#session has no data-user bob")
            check(page.state() == "lockedOut", "a PIN lifted identification's lockout")
            check(page.attribute("#pin-code", "value") == "", "the PIN stays in its field")
            page.shot("pin-during-lockout")
        elif phase == "pin":
            page.open()
            unknown = page.pin("zed", "1111")
            wrong = page.pin("bob", "1111")
            check(unknown == wrong == "Wrong user ID or PIN", f"unknown user: {unknown!r}, wrong PIN: {wrong!r}")
            page.shot("pin-wrong")
            for _ in range(8):
                answer = page.pin("bob", "1111")
                if answer.startswith("Too many wrong PINs"):
                    break
            check(answer.startswith("Too many wrong PINs for this user ID"), f"after many wrong PINs: {answer!r}")
            check(page.attribute("#pin-message", "aria-live") == "assertive", "the PIN lockout is not announced assertively")
            seconds = lambda: int("".join(c for c in page.text("#pin-message") if c.isdigit()) or "0")
            first = seconds()
            # Across the kiosk's repeat of its state (every 10 s; fingerprints are still locked
            # from the phase before): a repeat is no new result and takes the answer away from
            # nobody. It did: the answer went at the first repeat of the lockout.
            check(page.wait(lambda: 0 < seconds() <= first - 11, 16),
                  f"the PIN lockout's seconds do not count down from {first} across the kiosk's repeat of its state")
            page.shot("pin-locked")
        elif phase == "guesser":
            page.open()
            paced = "Too many wrong PINs at this kiosk."
            answer = ""
            for index in range(16):
                answer = page.pin(f"nobody-{index}", "0000")
                if answer.startswith(paced):
                    break
            guessed = time.monotonic()
            check(answer.startswith(paced), f"16 wrong PINs under names nobody has, the pad still says {answer!r}")
            digits = "".join(c for c in answer if c.isdigit())
            check(digits.isdigit() and 1 <= int(digits) <= 5, f"the paced pad's wait is {digits!r} s, not 1 to 5")
            page.shot("paced")
            # The seconds count down to words that say the pad is open again, not "back in 0 s".
            check(page.wait(lambda: page.text("#pin-message") == "You can try again now", 8),
                  f"the paced pad's countdown ended on {page.text('#pin-message')!r}")
            page.shot("pad-open-again")
            # The next person: a right PIN, again once the pad's few seconds (as it says them) are
            # over; the pad may ask to wait once, never for more than 5 s, and then lets her in.
            # (The time is printed, not held to a bound: under load typing alone takes seconds.)
            waits = []
            for _ in range(3):
                answer = page.pin("alice", "2468")
                if not answer.startswith(paced):
                    break
                told = int("".join(c for c in answer if c.isdigit()) or "0")
                waits.append(told)
                # As she would: until the pad's own countdown says it is open again (no fixed sleep).
                page.wait(lambda: page.text("#pin-message") == "You can try again now", told + 3)
            seconds = time.monotonic() - guessed
            print(f"next person: {seconds:.1f} s after the guesser (the pad asked her to wait {waits} s)", flush=True)
            check(answer == "Welcome, alice", f"the next person's right PIN after a guesser: {answer!r} (waits {waits})")
            check(len(waits) <= 1 and all(1 <= w <= 5 for w in waits),
                  f"the next person was asked to wait {waits} s: more than once, or longer than 5 s")
            page.shot("next-person")
        elif phase == "enrolling":
            page.open()
            page.wait_state("ready", 60)
            tell(arguments.handshake, "armed")
            page.wait_state("enrolling", 60)
            page.shot("enrolling")
            counting = lambda: page.text("#message").startswith("An administrator is enrolling a finger: ")
            check(page.wait(lambda: counting() and not page.text("#message").startswith(
                "An administrator is enrolling a finger: 0 of"), 60),
                  f"no scan of the enrollment counted on the page: {page.text('#message')!r}")
            page.shot("enrolling-stage")
            page.wait_state("ready", 90)
            shown = page.states()
            check("notRecognised" not in shown and "welcome" not in shown,
                  f"a scan of the enrollment went to identification: the page showed {shown}")
            page.shot("ready-after-enrolling")
            tell(arguments.handshake, "enrolled")
        elif phase == "resting":
            page.open()
            page.wait_state("resting")
            check(page.text("#message") == "Tap the screen to use your finger, or use your PIN", f"resting says {page.text('#message')!r}")
            check(page.text("#countdown").isdigit() and int(page.text("#countdown")) > 0, f"resting countdown {page.text('#countdown')!r}")
            page.shot("resting")
            # The tap it asks for arms the reader for the person at the screen: the rest ends (the
            # test's fake reader has nobody enrolled, so the page goes on to say that; the Swift
            # test reads the scan in the kiosk's log).
            page.driver.find_element(By.ID, "symbol").click()
            check(page.wait(lambda: page.state() != "resting", 10), f"the tap did not end the rest: {page.text('#message')!r}")
            page.shot("resting-tapped")
        elif phase == "unplug":
            page.open()
            page.wait_state("ready")
            unplug(arguments.reader_socket)
            page.wait_state("unavailable")
            check(page.text("#message") == "No fingerprint reader. Use your PIN", f"unplugged says {page.text('#message')!r}")
            page.shot("unavailable")
        elif phase == "session":
            page.open()
            page.wait_state("ready")
            touch(arguments.reader_socket, image("whorl"))
            page.wait_state("welcome")
            token = page.attribute("#session", "data-session")
            check(page.attribute("#session", "data-user") == "alice" and bool(token), "no session for alice on the page")
            print(f"session {token}", flush=True)
            page.shot("welcome-session")
            # The next person, a stranger: nothing of alice's sign-in is left in the page, DOM included.
            page.wait_state("ready")
            touch(arguments.reader_socket, image("arch"))
            page.wait_state("notRecognised")
            check(page.attribute("#session", "data-session") is None and page.attribute("#session", "data-user") is None,
                  "alice's session or name stays in #session's data under the stranger's result")
            check(token not in page.driver.page_source, "alice's session token is still somewhere in the page's DOM")
        elif phase == "badge":
            # --badge-first with --badges and --server: the badge number on the pad's keys, "Use
            # finger", then the finger; the touch is compared with that person's prints alone.
            page.open()
            page.wait_state("badgeFirst")
            check(page.text("#message").startswith("Type your badge number and press Use finger"),
                  f"badgeFirst says {page.text('#message')!r}")
            button = page.driver.find_element(By.ID, "badge-touch")
            check(button.is_displayed() and button.text == "Use finger", f"#badge-touch: {button.text!r}")
            page.shot("badge-first")
            page.watch_answers()
            button.click()
            check(page.answer() == "Enter your badge number first", "Use finger with no number")
            page.digits("1001")
            button.click()
            page.wait_state("ready")
            check(not button.is_displayed(), "Use finger stays up while the reader is armed")
            check(page.attribute("#pin-user", "value") == "", "the badge number stays in its field")
            page.shot("badge-armed")
            touch(arguments.reader_socket, image("whorl"))
            page.wait_state("welcome")
            check(page.text("#message") == "Welcome, alice", f"badge 1001's finger says {page.text('#message')!r}")
            token = page.attribute("#session", "data-session")
            check(page.attribute("#session", "data-user") == "alice" and bool(token), "no session for alice on the page")
            print(f"finger-session {token}", flush=True)
            page.shot("badge-welcome")
            page.wait_state("badgeFirst")
            # Somebody else's finger under alice's number: refused, as a stranger is.
            page.digits("1001")
            button.click()
            page.wait_state("ready")
            touch(arguments.reader_socket, image("arch"))
            page.wait_state("notRecognised")
            check(page.attribute("#session", "data-user") is None, "alice's sign-in stays under the refusal")
            page.shot("badge-refused")
            page.wait_state("badgeFirst")
            # A number nobody has: the words of a person with no print here, without a scan.
            page.digits("9999")
            button.click()
            page.wait_state("notRecognised")
            check(page.text("#message") == "No fingerprint for this badge number here. Use your PIN",
                  f"an unknown badge says {page.text('#message')!r}")
            page.shot("badge-unknown")
            page.open("?lang=zh")
            page.wait_state("badgeFirst")
            check(page.text("#badge-touch") == "使用指纹", f"#badge-touch in Chinese: {page.text('#badge-touch')!r}")
        elif phase == "pad":
            page.open()
            page.wait_state("ready")
            check(page.attribute("#pin-user", "inputmode") == "numeric", "#pin-user is not numeric with --badges")
            check(page.text('label[for="pin-user"]') == "Badge number", f"the user id's label is {page.text('label[for=pin-user]')!r}")
            # An unknown badge number and a wrong PIN: the same words.
            unknown = page.pad("9999", "2468")
            check(unknown == "Wrong badge number or PIN", f"an unknown badge says {unknown!r}")
            # A fresh page: only the pad's buttons are clicked, no field is ever touched or typed in.
            page.open()
            page.wait_state("ready")
            answer = page.pad("1001", "2468")
            check(answer == "Welcome, alice", f"badge 1001's PIN says {answer!r}")
            token = page.attribute("#session", "data-session")
            check(page.attribute("#session", "data-user") == "alice" and bool(token), "no session for alice on the page")
            check(page.driver.switch_to.active_element.tag_name != "input", "a field took the focus")
            check(page.attribute("#pin-user", "value") == "" and page.attribute("#pin-code", "value") == "",
                  "the badge number or the PIN stays in its field")
            print(f"session {token}", flush=True)
            page.shot("pad-session")
            # A badge's PIN locked: the words name the badge number, as the pad does.
            for _ in range(8):
                answer = page.pad("1001", "1111")
                if answer.startswith("Too many wrong PINs"):
                    break
            check(answer.startswith("Too many wrong PINs for this badge number."), f"a badge's PIN locked says {answer!r}")
            check(not page.driver.find_element(By.ID, "session").is_displayed(),
                  f"alice's sign-in line stays under the next person's wrong PINs: {page.text('#session')!r}")
            page.shot("pad-badge-locked")
        elif phase == "embed":
            serve_application(arguments.embed_port, arguments.url + "?forget=3")
            kiosk_origin = arguments.url.rstrip("/")
            # Only the application's origin may frame the page.
            policy = urllib.request.urlopen(arguments.url).headers.get("Content-Security-Policy", "")
            check(policy.endswith(f"frame-ancestors http://127.0.0.1:{arguments.embed_port}"), f"the page's policy: {policy!r}")
            received = lambda: page.driver.execute_script("return window.received;") or []
            of_type = lambda kind: [m for m in received() if isinstance(m.get("data"), dict) and m["data"].get("type") == kind]
            # Another origin (localhost is not 127.0.0.1 to a browser), in a tab of its own.
            page.driver.get(f"http://localhost:{arguments.embed_port}/")
            other = page.driver.current_window_handle
            page.driver.switch_to.new_window("tab")
            page.driver.get(f"http://127.0.0.1:{arguments.embed_port}/")
            page.driver.switch_to.frame("kiosk")
            page.wait_state("ready")
            page.driver.switch_to.default_content()
            touch(arguments.reader_socket, image("whorl"))
            check(page.wait(lambda: of_type("fpbridge-kiosk.welcome"), 30), f"no welcome handed to the application: {received()}")
            welcome = (of_type("fpbridge-kiosk.welcome") or [{"data": {}}])[0]
            check(welcome.get("origin") == kiosk_origin, f"the welcome came from {welcome.get('origin')!r}, not {kiosk_origin}")
            data = welcome["data"]
            check(data.get("user") == "alice" and data.get("via") == "finger" and bool(data.get("session")),
                  f"the finger's welcome handed over: {data}")
            print(f"finger-session {data.get('session')}", flush=True)
            page.shot("embed-welcome")
            # The kiosk forgets the sign-in after the idle time (3 s) and says so; its page is ready
            # for the next person.
            check(page.wait(lambda: of_type("fpbridge-kiosk.forget"), 15), f"the application was not told to forget: {received()}")
            page.driver.switch_to.frame("kiosk")
            page.wait_state("ready")
            check(not page.driver.find_element(By.ID, "session").is_displayed(), "the sign-in line stays up in the frame")
            # alice's PIN, typed in the frame: handed over as well.
            answer = page.pin("alice", "2468")
            check(answer == "Welcome, alice", f"alice's PIN in the frame says {answer!r}")
            page.driver.switch_to.default_content()
            check(page.wait(lambda: len(of_type("fpbridge-kiosk.welcome")) >= 2, 10), f"the PIN's welcome was not handed over: {received()}")
            pin = (of_type("fpbridge-kiosk.welcome")[1:] or [{"data": {}}])[0]["data"]
            check(pin.get("user") == "alice" and pin.get("via") == "pin" and bool(pin.get("session"))
                  and pin.get("session") != data.get("session"), f"the PIN's welcome handed over: {pin}")
            print(f"pin-session {pin.get('session')}", flush=True)
            check(page.wait(lambda: len(of_type("fpbridge-kiosk.forget")) >= 2, 15), f"no forget after the PIN's welcome: {received()}")
            check(all(m.get("origin") == kiosk_origin for m in received()), f"a message from elsewhere: {received()}")
            # The other origin: the kiosk would not be framed there, and nothing reached it.
            page.driver.switch_to.window(other)
            check(received() == [], f"another origin was handed {received()}")
            page.shot("embed-other-origin")
        elif phase == "restart":
            page.open()
            page.wait_state("ready")
            tell(arguments.handshake, "armed")
            restarting = "The fingerprint reader is restarting. One moment…"
            check(page.wait(lambda: page.text("#message") == restarting, 30),
                  f"fpbridged stopped: the page says {page.text('#message')!r}, not {restarting!r}")
            check(page.state() == "unavailable", f"restarting in state {page.state()}")
            page.shot("restarting")
            page.driver.find_element(By.ID, "lang").click()
            check(page.wait(lambda: page.text("#message") == "指纹传感器正在重新启动，请稍候…"),
                  f"restarting in Chinese says {page.text('#message')!r}")
            page.shot("restarting-zh")
            # A PIN while fpbridged is away: plain words in the page's language, no path, no internal name.
            answer = page.pin("bob", "2468")
            check(answer == "暂时无法核对 PIN 码，请稍后再试", f"a PIN while fpbridged is away, in Chinese: {answer!r}")
            page.driver.find_element(By.ID, "lang").click()
            answer = page.pin("bob", "2468")
            check(answer == "PINs cannot be checked right now. Try again in a moment",
                  f"a PIN while fpbridged is away: {answer!r}")
            check("/" not in answer and "fpbridged" not in answer, f"the answer names internals: {answer!r}")
            page.shot("pin-while-away")
            tell(arguments.handshake, "seen")
            page.wait_state("ready", 60)
            check(page.text("#message") == "Touch the reader", f"back, the page says {page.text('#message')!r}")
            page.shot("ready-after-restart")
        elif phase == "layouts":
            # The screens kiosks have, landscape and portrait: everything on one screen, nothing
            # scrolled, with the longest words shown at once (a lockout with its countdown, a
            # two-line PIN answer, a sign-in line), in both languages.
            for lang in ["en", "zh"]:
                for width, height in [(800, 480), (1024, 600), (1280, 800), (1080, 1920)]:
                    page.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                                {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
                    page.open("?lang=zh" if lang == "zh" else "")
                    page.wait(lambda: page.state() not in ("starting",), 10)
                    page.driver.execute_script("""
                        document.getElementById('message').textContent = document.documentElement.lang === 'en'
                          ? 'Fingerprints are locked until an administrator unlocks them. Use your PIN'
                          : '指纹已锁定，需由管理员解锁。请使用 PIN 码';
                        document.getElementById('countdown-line').hidden = false;
                        document.getElementById('countdown').textContent = '600';
                        document.getElementById('pin-message').textContent = document.documentElement.lang === 'en'
                          ? 'Too many wrong PINs at this kiosk. The PIN pad is back in 60 s'
                          : '本机 PIN 码错误次数过多，60 秒后恢复';
                        var session = document.getElementById('session');
                        session.hidden = false; session.textContent = 'Signed in: alice';
                        document.getElementById('badge-touch').hidden = false;""")
                    fits = page.driver.execute_script("""
                        var d = document.documentElement, submit = document.getElementById('pin-submit').getBoundingClientRect(),
                            message = document.getElementById('pin-message').getBoundingClientRect(),
                            badge = document.getElementById('badge-touch').getBoundingClientRect();
                        var keys = Array.from(document.querySelectorAll('#pin-keys button:not(#pin-submit):not(#badge-touch)'))
                            .map(function (key) { return Math.round(key.getBoundingClientRect().height); });
                        return { scrollH: d.scrollHeight, scrollW: d.scrollWidth, h: window.innerHeight, w: window.innerWidth,
                                 submit: submit.bottom, pinMessage: message.bottom, keys: keys,
                                 badge: badge.bottom, badgeRow: Math.abs(badge.top - submit.top) < 1 };""")
                    check(fits["scrollH"] <= fits["h"] and fits["scrollW"] <= fits["w"]
                          and fits["submit"] <= fits["h"] and fits["pinMessage"] <= fits["h"]
                          and fits["badge"] <= fits["h"] and fits["badgeRow"],
                          f"{width}x{height} {lang}: the page does not fit: {fits}")
                    # Every key of the pad one height: a word wrapped in one (下一步) made its row taller.
                    check(len(fits["keys"]) == 12 and len(set(fits["keys"])) == 1,
                          f"{width}x{height} {lang}: the pad's keys are not one height: {fits['keys']}")
                    page.shot(f"layout-{width}x{height}-{lang}")
        elif phase == "branded":
            page.open()
            check(page.wait(lambda: page.text("#message") == "Fingerprints are having a rest", 15),
                  f"the page directory's words are not shown: {page.text('#message')!r}")
            check(page.driver.execute_script("return getComputedStyle(document.body).backgroundColor;") == "rgb(0, 0, 51)",
                  "the page directory's stylesheet is not applied")
            check(page.driver.execute_script("var logo = document.getElementById('logo'); return !!logo && logo.naturalWidth > 0;"),
                  "the page directory's logo is not shown")
            page.shot("branded")
            # The language button goes through every language, each named in its own words.
            for button, message, lang in [("中文", "指纹服务没有响应", "zh-CN"), ("Français", "Le service ne répond pas", "fr"),
                                          ("English", "Fingerprints are having a rest", "en")]:
                check(page.text("#lang") == button, f"the language button says {page.text('#lang')!r}, not {button!r}")
                page.driver.find_element(By.ID, "lang").click()
                check(page.wait(lambda: page.text("#message") == message, 5), f"after {button}: {page.text('#message')!r}")
                check(page.driver.execute_script("return document.documentElement.lang;") == lang, f"html lang after {button}")
                if lang == "fr":
                    page.shot("branded-fr")
            page.open("?lang=fr")
            check(page.wait(lambda: page.text("#message") == "Le service ne répond pas", 15), f"?lang=fr says {page.text('#message')!r}")
        elif phase == "back":
            page.open()
            page.wait_state("ready", 60)
            page.shot("ready-again")
        else:
            check(False, f"unknown phase {phase}")
    finally:
        page.close()
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
