/// The kiosk page's script: the state from `GET /events` shown in words (English or Chinese,
/// `#lang` or `?lang=zh`), its countdown counted down each second, the PIN pad, and a wake sent
/// to the kiosk on any touch of the screen or key so that a resting reader is armed at once.
enum KioskScript {
    static let javascript = #"""
    'use strict';
    (function () {
      var strings = {
        en: {
          title: 'Sign in', readerHeading: 'Fingerprint', pinHeading: 'Or use your PIN', userLabel: 'User ID',
          pinLabel: 'PIN', keysLabel: 'Digits', submit: 'Sign in', clear: 'Delete last digit', langButton: '中文',
          demoHeading: 'Demo: touch the virtual reader as', demoTouch: '{finger}',
          starting: 'Starting…', touchReader: 'Touch the reader', reading: 'Reading…', welcome: 'Welcome, {user}',
          notRecognised: 'Not recognised, try again', notRecognisedLeft: 'Not recognised, try again ({left} left)',
          lockedOut: 'Too many tries: fingerprints are locked. Use your PIN',
          lockedOutForGood: 'Fingerprints are locked until an administrator unlocks them. Use your PIN',
          resting: 'Reader resting, use your PIN', restingTap: 'Tap the screen to use your finger, or use your PIN',
          noReader: 'No fingerprint reader. Use your PIN',
          nobodyEnrolled: 'No fingerprints are enrolled yet. Use your PIN',
          serviceDown: 'The fingerprint service is not answering',
          serviceRestarting: 'The fingerprint reader is restarting. One moment…', readerTrouble: 'The reader has a problem. Use your PIN',
          notBound: '{user}, your fingerprint has no sign-in for this kiosk yet. Use your PIN',
          serverTrouble: 'Signing in is not possible right now. Use your PIN',
          kioskDown: 'This kiosk is not answering', countdownLockedOut: 'Fingerprints back in {s} s',
          countdownResting: 'Reader back in {s} s', countdownRestingTap: 'Ready by itself in {s} s', signedIn: 'Signed in: {user}',
          checking: 'Checking…', pinWrong: 'Wrong user ID or PIN', pinMissing: 'Enter your user ID and PIN',
          pinLocked: 'Too many wrong PINs for this user ID. Try again in {seconds} s',
          pinPadResting: 'Too many wrong PINs at this kiosk. The PIN pad is back in {seconds} s',
          pinNotPermitted: 'This kiosk is not set up to check PINs. Please ask staff for help', pinInvalid: 'That is not a valid user ID or PIN',
          pinTrouble: 'PINs cannot be checked right now. Try again in a moment', noAnswer: 'the kiosk did not answer',
          next: 'Next', userLabelBadge: 'Badge number', pinWrongBadge: 'Wrong badge number or PIN',
          pinMissingBadge: 'Enter your badge number and PIN', pinInvalidBadge: 'That is not a valid badge number or PIN',
          pinNotBound: 'Your PIN is right, but it has no sign-in for this kiosk yet. Please ask staff for help',
          pinServerTrouble: 'Signing in is not possible right now. Try again in a moment'
        },
        zh: {
          title: '登录', readerHeading: '指纹', pinHeading: '或使用 PIN 码', userLabel: '用户名',
          pinLabel: 'PIN 码', keysLabel: '数字', submit: '登录', clear: '删除最后一位', langButton: 'English',
          demoHeading: '演示：以此身份触摸虚拟传感器', demoTouch: '{finger}',
          starting: '正在启动…', touchReader: '请触摸指纹传感器', reading: '正在读取…', welcome: '欢迎，{user}',
          notRecognised: '未能识别，请重试', notRecognisedLeft: '未能识别，请重试（还剩 {left} 次）',
          lockedOut: '尝试次数过多，指纹已锁定。请使用 PIN 码',
          lockedOutForGood: '指纹已锁定，需由管理员解锁。请使用 PIN 码',
          resting: '传感器正在休息，请使用 PIN 码', restingTap: '轻触屏幕即可使用指纹，或使用 PIN 码',
          noReader: '未连接指纹传感器。请使用 PIN 码',
          nobodyEnrolled: '尚未录入任何指纹。请使用 PIN 码',
          serviceDown: '指纹服务没有响应', serviceRestarting: '指纹传感器正在重新启动，请稍候…', readerTrouble: '传感器出现问题。请使用 PIN 码',
          notBound: '{user}，您的指纹尚未在本机开通登录。请使用 PIN 码',
          serverTrouble: '暂时无法登录。请使用 PIN 码',
          kioskDown: '本机服务没有响应', countdownLockedOut: '{s} 秒后恢复指纹', countdownResting: '{s} 秒后传感器恢复', countdownRestingTap: '{s} 秒后自动恢复',
          signedIn: '已登录：{user}',
          checking: '正在核对…', pinWrong: '用户名或 PIN 码错误', pinMissing: '请输入用户名和 PIN 码',
          pinLocked: '该用户 PIN 码错误次数过多，请 {seconds} 秒后再试',
          pinPadResting: '本机 PIN 码错误次数过多，{seconds} 秒后恢复',
          pinNotPermitted: '本机尚未设置为可核对 PIN 码，请联系工作人员', pinInvalid: '用户名或 PIN 码格式不正确',
          pinTrouble: '暂时无法核对 PIN 码，请稍后再试', noAnswer: '本机没有响应',
          next: '下一步', userLabelBadge: '工牌号', pinWrongBadge: '工牌号或 PIN 码错误',
          pinMissingBadge: '请输入工牌号和 PIN 码', pinInvalidBadge: '工牌号或 PIN 码格式不正确',
          pinNotBound: 'PIN 码正确，但尚未在本机开通登录。请联系工作人员',
          pinServerTrouble: '暂时无法登录，请稍后再试'
        }
      };

      var body = document.body;
      var byId = function (id) { return document.getElementById(id); };
      var message = byId('message'), countdownLine = byId('countdown-line'), countdown = byId('countdown');
      var before = byId('countdown-before'), after = byId('countdown-after'), session = byId('session');
      var pinUser = byId('pin-user'), pinCode = byId('pin-code'), pinMessage = byId('pin-message');
      var lang = new URLSearchParams(location.search).get('lang') === 'zh' ? 'zh' : 'en';
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

      // The sign-in stays in #session's data for the app; its line goes after a while, so that
      // the next person at the kiosk does not read who was here before.
      function renderSession() {
        var user = Date.now() < signedInUntil ? session.dataset.user : '';
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
        renderCountdown();
        renderSession();
        renderPinAnswer();
      }

      function renderWords() {
        document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
        document.title = text('title');
        document.querySelectorAll('[data-text]').forEach(function (element) { put(element, text(element.dataset.text)); });
        document.querySelectorAll('[data-label]').forEach(function (element) {
          element.setAttribute('aria-label', text(element.dataset.label));
        });
        var switcher = byId('lang');
        put(switcher, text('langButton'));
        switcher.setAttribute('lang', lang === 'zh' ? 'en' : 'zh-CN');
        render();
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
          signedInUntil = 0;
          clearPinAnswer();
        }
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
        lang = lang === 'zh' ? 'en' : 'zh';
        var url = new URL(location.href);
        if (lang === 'zh') { url.searchParams.set('lang', 'zh'); } else { url.searchParams.delete('lang'); }
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
        } else if (pinUser.value) {
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
