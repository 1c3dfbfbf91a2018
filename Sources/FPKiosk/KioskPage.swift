import Foundation

/// The kiosk page's HTML. Its DOM ids are a contract with the browser tests (docs/kiosk.md):
/// `body[data-state]`, `#message`, `#countdown`, the PIN pad's `#pin-user`, `#pin-code`,
/// `#pin-submit`, `#pin-next`, `#pin-message`, `.pin-key`, `#badge-touch` (shown while the
/// state is `badgeFirst`), `#lang` and `#session`. The words are
/// filled in by the script from its string table, in English or Chinese.
enum KioskPage {
    /// `badges`: the user id is a badge number (`--badges`), typed with digits; `embedOrigin`:
    /// the application framing the page, which the script hands each welcome's session to.
    /// `logo`: `--page-dir` has one, shown in the header (`GET /logo`).
    static func html(demoFingers: [String], badges: Bool = false, embedOrigin: EmbedOrigin? = nil, logo: Bool = false) -> String {
        let demo = demoFingers.map(escape).joined(separator: ",")
        let back = #"<button type="button" class="pin-key pin-back" data-key="back" data-label="clear">⌫</button>"#
        let next = #"<button id="pin-next" type="button" data-text="next">Next</button>"#
        // Four columns: the digits, delete and "next" (from the user id to the PIN) in three
        // rows with 0, then "Sign in" across: as many rows as the three-column pad had.
        let keys = ["1", "2", "3"].map(key).joined() + back + ["4", "5", "6"].map(key).joined() + next
            + ["7", "8", "9", "0"].map(key).joined()
        let userField = badges ? #"inputmode="numeric" "# : ""
        return #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Sign in</title>
        <link rel="stylesheet" href="/kiosk.css">
        </head>
        <body data-state="starting" data-demo="\#(demo)" data-badges="\#(badges)" data-embed-origin="\#(escape(embedOrigin?.description ?? ""))">
        <header>
          \#(logo ? #"<img id="logo" src="/logo" alt="">"# : "")<h1 data-text="title">Sign in</h1>
          <button id="lang" type="button" lang="zh-CN">中文</button>
        </header>
        <main>
          <section id="reader" aria-labelledby="reader-heading">
            <h2 id="reader-heading" class="visually-hidden" data-text="readerHeading">Fingerprint</h2>
            <svg id="symbol" viewBox="0 0 100 100" aria-hidden="true" focusable="false">
              <circle class="ring" cx="50" cy="50" r="46"/>
              <path class="ridges" d="M30 62c0-14 8-26 20-26s20 12 20 26M36 70c-1-4-1-8-1-10 0-9 7-16 15-16s15 7 15 16c0 6-1 12-3 16M44 76c-2-6-3-11-3-16 0-5 4-9 9-9s9 4 9 9c0 7-2 14-5 19M50 60c0 8-1 15-4 22M24 48c5-12 15-19 26-19s21 7 26 19"/>
            </svg>
            <p id="message" role="status" aria-live="polite">Starting…</p>
            <p id="countdown-line" hidden><span id="countdown-before"></span><span id="countdown"></span><span id="countdown-after"></span></p>
            <p id="session" data-user="" hidden></p>
            <div id="demo" hidden>
              <span data-text="demoHeading">Demo: touch the virtual reader as</span>
            </div>
          </section>
          <section id="pin" aria-labelledby="pin-heading">
            <h2 id="pin-heading" data-text="pinHeading">Or use your PIN</h2>
            <form id="pin-form" autocomplete="off" novalidate>
              <label for="pin-user" data-text="userLabel">User ID</label>
              <input id="pin-user" name="user" type="text" \#(userField)autocapitalize="none" autocomplete="off" spellcheck="false">
              <label for="pin-code" data-text="pinLabel">PIN</label>
              <input id="pin-code" name="pin" type="password" inputmode="numeric" autocomplete="off">
              <div id="pin-keys" role="group" aria-labelledby="pin-label-keys">
                <span id="pin-label-keys" class="visually-hidden" data-text="keysLabel">Digits</span>
                \#(keys)<button id="pin-submit" type="submit" data-text="submit">Sign in</button><button id="badge-touch" type="button" data-text="badgeTouch" hidden>Use finger</button>
              </div>
              <p id="pin-message" role="status" aria-live="polite"></p>
            </form>
          </section>
        </main>
        <script src="/kiosk.js"></script>
        </body>
        </html>

        """#
    }

    private static func key(_ digit: String) -> String {
        #"<button type="button" class="pin-key" data-key="\#(digit)">\#(digit)</button>"#
    }

    /// For an attribute value: the demo's finger names come from the command line.
    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
