import Foundation

/// The kiosk page's script: the state from `GET /events` shown in words (English or Chinese, or
/// the languages of `--page-dir`: `#lang` or `?lang=zh`), its countdown counted down each
/// second, the PIN pad, and a wake sent to the kiosk on any touch of the screen or key so that
/// a resting reader is armed at once; with `--embed-origin`, each welcome's session handed to
/// the application framing the page.
enum KioskScript {
    /// The script with `languages`' words in it, in their order (the first is the default).
    static func javascript(languages: [KioskLanguage]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let tables = (try? encoder.encode(languages)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        return template.replacingOccurrences(of: "/*STRINGS*/", with: tables)
    }

    private static let template = #"""
    'use strict';
    (function () {
      // The words, a table per language in the order the language button goes through them:
      // the built-in ones, or those of --page-dir (the kiosk puts them here as it serves the script).
      var tables = /*STRINGS*/;
      var strings = {}, languages = [];
      tables.forEach(function (entry) { strings[entry.language] = entry.strings; languages.push(entry.language); });

      var body = document.body;
      var byId = function (id) { return document.getElementById(id); };
      var message = byId('message'), countdownLine = byId('countdown-line'), countdown = byId('countdown');
      var before = byId('countdown-before'), after = byId('countdown-after'), session = byId('session');
      var pinUser = byId('pin-user'), pinCode = byId('pin-code'), pinMessage = byId('pin-message');
      // ?lang=CODE, one of the tables' languages; the first one otherwise.
      var requested = new URLSearchParams(location.search).get('lang');
      var lang = languages.indexOf(requested) >= 0 ? requested : languages[0];
      function htmlLang(code) { return code === 'zh' ? 'zh-CN' : code; }
      function nextLanguage() { return languages[(languages.indexOf(lang) + 1) % languages.length]; }
      var shown = { state: 'starting', message: 'starting', parameters: {} };
      var countdownEnds = null, pinAnswer = null, signedInUntil = 0;
      // How long what one person typed or was told stays on screen without a touch or a key:
      // ?forget=SECONDS (2 to 600; 20 by default). The next result at the reader clears it too.
      var forgetParameter = Number(new URLSearchParams(location.search).get('forget'));
      var forgetMs = 1000 * (forgetParameter >= 2 && forgetParameter <= 600 ? forgetParameter : 20);
      var pinTouchedAt = 0, pinRetryEnds = null;

      // With --badges the user id is a badge number, and the words that name it say so.
      var badges = body.dataset.badges === 'true';

      function text(key, parameters) {
        if (badges && strings.en[key + 'Badge']) { key = key + 'Badge'; }
        var template = strings[lang][key] || strings.en[key] || key;
        return template.replace(/\{(\w+)\}/g, function (_, name) {
          return parameters && parameters[name] !== undefined ? String(parameters[name]) : '';
        });
      }

      // Set only when it changed: aria-live reads every change aloud.
      function put(element, value) { if (element.textContent !== value) { element.textContent = value; } }

      function renderCountdown() {
        if (countdownEnds === null) {
          countdownLine.hidden = true;
          put(countdown, '');
          return;
        }
        var seconds = Math.max(0, Math.ceil((countdownEnds - Date.now()) / 1000));
        var key = shown.state === 'lockedOut' ? 'countdownLockedOut'
          : (shown.message === 'restingTap' ? 'countdownRestingTap' : 'countdownResting');
        var parts = text(key).split('{s}');
        if (parts.length === 1) { parts = text(key, { s: '\u0000' }).split('\u0000'); }
        put(before, parts[0]);
        put(countdown, String(seconds));
        put(after, parts[1] || '');
        countdownLine.hidden = false;
      }

      // The sign-in stays in #session's data for the app until it is forgotten: after a while,
      // at the next result at the reader or the pad, or when the next finger is being read. Then
      // its line, its user and its session go from the page (the DOM too, which DevTools or
      // anything running as the browser's user can read), so that the next person finds nothing.
      function renderSession() {
        if (Date.now() >= signedInUntil) {
          delete session.dataset.user;
          delete session.dataset.session;
        }
        var user = session.dataset.user || '';
        session.hidden = !user;
        put(session, user ? text('signedIn', { user: user }) : '');
        if (!user && handedOff) {
          // The application is told when the kiosk forgets the sign-in, so that it can forget too.
          handedOff = false;
          window.parent.postMessage({ type: 'fpbridge-kiosk.forget' }, embedOrigin);
        }
      }

      // --embed-origin: the application framing this page is handed each welcome that carries a
      // login-server session, by postMessage to exactly that origin (the browser delivers it to
      // no other, and no other may frame the page); the application checks the session at the
      // login server. Never to '*', never in a URL.
      var embedOrigin = body.dataset.embedOrigin || '', handedOff = false;
      function handOff(user, token, via) {
        if (!embedOrigin || !token || window.parent === window) { return; }
        window.parent.postMessage({ type: 'fpbridge-kiosk.welcome', user: user, session: token, via: via }, embedOrigin);
        handedOff = true;
      }

      // The PIN pad's answer; a wait it names counts down until it is over.
      function renderPinAnswer() {
        if (!pinAnswer) { return; }
        var parameters = pinAnswer.parameters || {};
        if (pinRetryEnds !== null) {
          var left = Math.max(0, Math.ceil((pinRetryEnds - Date.now()) / 1000));
          // The wait is over: say so, rather than "back in 0 s".
          if (left === 0) { pinMessage.className = ''; put(pinMessage, text('pinTryAgain')); return; }
          parameters = Object.assign({}, parameters, { seconds: String(left) });
        }
        put(pinMessage, text(pinAnswer.message, parameters));
      }

      // What the PIN pad last told someone, gone.
      function clearPinAnswer() {
        pinAnswer = null;
        pinRetryEnds = null;
        pinMessage.className = '';
        pinMessage.setAttribute('aria-live', 'polite');
        put(pinMessage, '');
      }

      // What the last person typed and was told at the PIN pad, gone; the pad types the next
      // person's user id first.
      function forgetPin() {
        pinUser.value = '';
        pinCode.value = '';
        clearPinAnswer();
        choose(pinUser);
      }

      // The field the pad's keys type into: the user id until "next" (or a tap on the PIN
      // field), so that both are filled by touch alone; a tap on either chooses it.
      var padTarget = pinUser;
      function choose(field) {
        padTarget = field;
        pinUser.classList.toggle('pad-target', field === pinUser);
        pinCode.classList.toggle('pad-target', field === pinCode);
      }

      function render() {
        body.dataset.state = shown.state;
        // A lockout interrupts: it is announced at once, the rest when the reader is idle.
        message.setAttribute('aria-live', shown.state === 'lockedOut' ? 'assertive' : 'polite');
        put(message, text(shown.message, shown.parameters));
        // The person names themselves first (the badge number) when the kiosk asks for it.
        byId('badge-touch').hidden = shown.state !== 'badgeFirst';
        renderCountdown();
        renderSession();
        renderPinAnswer();
      }

      function renderWords() {
        document.documentElement.lang = htmlLang(lang);
        document.title = text('title');
        document.querySelectorAll('[data-text]').forEach(function (element) { put(element, text(element.dataset.text)); });
        document.querySelectorAll('[data-label]').forEach(function (element) {
          element.setAttribute('aria-label', text(element.dataset.label));
        });
        var switcher = byId('lang');
        // The button names the next language in that language's own words.
        put(switcher, strings[nextLanguage()].languageName);
        switcher.setAttribute('lang', htmlLang(nextLanguage()));
        switcher.hidden = languages.length < 2;
        render();
      }

      function forgetSignIn() {
        signedInUntil = 0;
        renderSession();
      }

      function signIn(user, token) {
        session.dataset.user = user;
        signedInUntil = Date.now() + forgetMs;
        // The login server's session (fpbridge-kiosk --server), for the app this page hands over to.
        if (token) { session.dataset.session = token; } else { delete session.dataset.session; }
        renderSession();
      }

      // The kiosk's state, as it changes. The kiosk also sends the state it is in again every
      // 10 s (to keep the stream alive and correct the countdown): that repeat is no new result.
      // The reader's results are numbered (snapshot.result, one more with each), so the same
      // stranger twice is two results and a repeat is none; what they say cannot tell that.
      var source = new EventSource('/events');
      var lastResult = null;
      source.onmessage = function (event) {
        var snapshot;
        try { snapshot = JSON.parse(event.data); } catch (error) { return; }
        var isNew = snapshot.result !== lastResult;
        lastResult = snapshot.result;
        shown = { state: snapshot.state, message: snapshot.message, parameters: snapshot.parameters || {} };
        countdownEnds = typeof snapshot.countdown === 'number' ? Date.now() + snapshot.countdown * 1000 : null;
        // The next result at the reader is the next person's: the last one's sign-in line and
        // PIN answer go (what is being typed now stays). A repeat of the state shown takes
        // nothing away: a PIN answered during a lockout stays up with its countdown.
        if (isNew && ['welcome', 'notRecognised', 'lockedOut'].indexOf(snapshot.state) >= 0) {
          forgetSignIn();
          clearPinAnswer();
        }
        // Somebody's finger is being read: whoever signed in before is no longer at the kiosk.
        if (snapshot.state === 'reading') { forgetSignIn(); }
        if (isNew && snapshot.state === 'welcome' && snapshot.user) {
          signIn(snapshot.user, snapshot.session);
          handOff(snapshot.user, snapshot.session, 'finger');
        }
        render();
      };
      source.onerror = function () {
        // The browser reconnects by itself; meanwhile the page says the kiosk is not there.
        shown = { state: 'unavailable', message: 'kioskDown', parameters: {} };
        countdownEnds = null;
        render();
      };
      setInterval(function () {
        renderCountdown();
        renderSession();
        renderPinAnswer();
        if ((pinAnswer || pinUser.value || pinCode.value) && Date.now() - pinTouchedAt > forgetMs) { forgetPin(); }
      }, 250);
      byId('pin-form').addEventListener('input', function () { pinTouchedAt = Date.now(); });

      // A touch of the screen or a key: a resting reader is armed at once when its heat allows.
      var lastWake = 0;
      function wake() {
        var now = Date.now();
        if (now - lastWake < 2000) { return; }
        lastWake = now;
        fetch('/wake', { method: 'POST' }).catch(function () {});
      }
      document.addEventListener('pointerdown', wake, { passive: true });
      document.addEventListener('keydown', wake);

      byId('lang').addEventListener('click', function () {
        lang = nextLanguage();
        var url = new URL(location.href);
        if (lang !== languages[0]) { url.searchParams.set('lang', lang); } else { url.searchParams.delete('lang'); }
        history.replaceState(null, '', url.toString());
        renderWords();
      });

      pinUser.addEventListener('focus', function () { choose(pinUser); });
      pinCode.addEventListener('focus', function () { choose(pinCode); });
      byId('pin-next').addEventListener('click', function () {
        choose(pinCode);
        pinTouchedAt = Date.now();
      });
      document.querySelectorAll('.pin-key').forEach(function (button) {
        button.addEventListener('click', function () {
          var key = button.dataset.key;
          padTarget.value = key === 'back' ? padTarget.value.slice(0, -1) : padTarget.value + key;
          pinTouchedAt = Date.now();
          // Focus stays on the key: a keyboard user presses the next one without Tab-ing back.
        });
      });

      function answered(answer) {
        pinAnswer = answer;
        pinTouchedAt = Date.now();
        pinRetryEnds = typeof answer.retryAfter === 'number' ? Date.now() + answer.retryAfter * 1000 : null;
        pinMessage.className = answer.ok ? 'ok' : 'refused';
        var locked = answer.message === 'pinLocked' || answer.message === 'pinPadResting';
        pinMessage.setAttribute('aria-live', locked ? 'assertive' : 'polite');
        renderPinAnswer();
        if (answer.ok && answer.user) {
          // With --server, the login server's session, as a finger's welcome carries it.
          signIn(answer.user, answer.session);
          handOff(answer.user, answer.session, 'pin');
          // Signed in: the user id is not left for the next person to read.
          pinUser.value = '';
          choose(pinUser);
        } else if (!answer.ok && answer.message !== 'pinMissing') {
          // A refusal is the next person's result: the last one's sign-in line goes, as it
          // does for the reader's next result (an empty field is no one's result yet).
          forgetSignIn();
        }
        if (!answer.ok && pinUser.value) {
          // Refused: the person tries the PIN again, or taps the user id to change it.
          choose(pinCode);
        }
      }

      byId('pin-form').addEventListener('submit', function (event) {
        event.preventDefault();
        var user = pinUser.value.trim(), pin = pinCode.value;
        // The PIN leaves the field at once, whatever the answer.
        pinCode.value = '';
        if (!user || !pin) { answered({ ok: false, message: 'pinMissing', parameters: {} }); return; }
        pinMessage.className = '';
        pinRetryEnds = null;  // a new try: the last answer's wait no longer speaks for the pad
        pinAnswer = { message: 'checking', parameters: {} };
        put(pinMessage, text('checking'));
        fetch('/pin', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ user: user, pin: pin }) })
          .then(function (response) { return response.json(); })
          .then(function (answer) {
            if (typeof answer.message !== 'string' || !(answer.message in strings.en)) {
              answer = { ok: false, message: 'pinTrouble', parameters: { detail: answer.message || text('noAnswer') } };
            }
            answered(answer);
          })
          .catch(function () { answered({ ok: false, message: 'pinTrouble', parameters: { detail: text('noAnswer') } }); });
      });

      // "Use finger": the typed user id (or badge number) names whose prints the next touch is
      // compared with; the kiosk arms the reader for that person and the result comes as any
      // finger's does, on the event stream.
      byId('badge-touch').addEventListener('click', function () {
        var user = pinUser.value.trim();
        pinCode.value = '';
        if (!user) { answered({ ok: false, message: 'badgeMissing', parameters: {} }); return; }
        pinMessage.className = '';
        pinRetryEnds = null;
        fetch('/badge', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ user: user }) })
          .then(function (response) { return response.json(); })
          .then(function (answer) {
            if (typeof answer.message !== 'string' || !(answer.message in strings.en)) {
              answer = { ok: false, message: 'pinTrouble', parameters: { detail: answer.message || text('noAnswer') } };
            }
            answered(answer);
            // Taken: the number is not left on screen for the next person.
            if (answer.ok) { pinUser.value = ''; choose(pinUser); }
          })
          .catch(function () { answered({ ok: false, message: 'pinTrouble', parameters: { detail: text('noAnswer') } }); });
      });

      // The demo's virtual finger (fpbridge-kiosk --demo-touch-socket).
      var fingers = (body.dataset.demo || '').split(',').filter(function (name) { return name; });
      if (fingers.length > 0) {
        var demo = byId('demo');
        fingers.forEach(function (finger) {
          var button = document.createElement('button');
          button.type = 'button';
          button.className = 'demo-touch';
          button.dataset.finger = finger;
          button.textContent = finger;
          button.addEventListener('click', function () {
            fetch('/demo/touch', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ finger: finger }) });
          });
          demo.appendChild(button);
        });
        demo.hidden = false;
      }

      choose(pinUser);
      renderWords();
    })();
    """#
}
