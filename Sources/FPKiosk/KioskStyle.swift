/// The kiosk page's styles: large targets (a finger, not a mouse), text at least 4.5:1 on its
/// background, a focus ring a keyboard user sees from afar, and the state told by colour and
/// by words (never by colour alone).
enum KioskStyle {
    static let css = #"""
    :root {
      --background: #0f1720; --panel: #1b2430; --text: #f4f6f8; --muted: #c3ccd6;
      --ready: #5fb0ff; --reading: #ffd166; --welcome: #5bd18b; --refused: #ff8a80;
      --resting: #ffb347; --off: #9aa5b1; --focus: #ffe14d;
      color-scheme: dark;
    }
    * { box-sizing: border-box; }
    html, body { margin: 0; height: 100%; }
    body {
      background: var(--background); color: var(--text);
      font: 24px/1.35 system-ui, "Noto Sans", "Noto Sans CJK SC", "WenQuanYi Micro Hei", sans-serif;
      display: flex; flex-direction: column; min-height: 100vh;
    }
    header { display: flex; justify-content: space-between; align-items: center; padding: 8px 32px; }
    #logo { height: 48px; width: auto; margin-right: 16px; }
    header h1 { flex: 1; }
    h1 { font-size: 28px; margin: 0; font-weight: 600; }
    h2 { font-size: 24px; margin: 0 0 0.5vh; font-weight: 600; }
    main { flex: 1; display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 24px; padding: 0 32px 2.5vh; }
    section { background: var(--panel); border-radius: 20px; padding: clamp(12px, 3vh, 24px) 28px; }
    #reader { display: flex; flex-direction: column; align-items: center; justify-content: center; text-align: center; }
    #symbol { width: clamp(96px, 26vh, 200px); height: clamp(96px, 26vh, 200px); margin-bottom: 3vh; }
    #symbol .ring { fill: none; stroke: var(--state, var(--off)); stroke-width: 5; }
    #symbol .ridges { fill: none; stroke: var(--state, var(--off)); stroke-width: 4; stroke-linecap: round; }
    #message { font-size: clamp(30px, 5.5vh, 44px); font-weight: 600; margin: 0; min-height: 1.4em; text-wrap: balance; }
    #countdown-line { font-size: 32px; color: var(--muted); margin: 16px 0 0; }
    #countdown { font-variant-numeric: tabular-nums; font-weight: 700; color: var(--text); }
    #session { font-size: 24px; color: var(--welcome); margin: 16px 0 0; }

    body[data-state="ready"] { --state: var(--ready); }
    body[data-state="reading"], body[data-state="enrolling"] { --state: var(--reading); }
    body[data-state="welcome"] { --state: var(--welcome); }
    body[data-state="notRecognised"], body[data-state="lockedOut"] { --state: var(--refused); }
    body[data-state="resting"] { --state: var(--resting); }
    body[data-state="unavailable"], body[data-state="starting"] { --state: var(--off); }
    body[data-state="reading"] #symbol { animation: pulse 1s ease-in-out infinite; }
    @keyframes pulse { 50% { opacity: 0.55; } }
    @media (prefers-reduced-motion: reduce) { body[data-state="reading"] #symbol { animation: none; } }

    form { display: flex; flex-direction: column; }
    label { font-size: 22px; color: var(--muted); margin: 0.8vh 0 0.5vh; }
    input {
      font: inherit; font-size: 30px; padding: 4px 16px; min-height: clamp(44px, 7vh, 56px); border-radius: 12px;
      border: 2px solid #6b7785; background: #0b1118; color: var(--text); width: 100%; min-width: 0;
    }
    #pin-keys { display: grid; grid-template-columns: repeat(4, 1fr); gap: 10px; margin-top: 2vh; }
    #pin-submit { grid-column: 1 / -1; }
    /* One line, whatever the language: a wrapped word (下一步 at 800x480) made its row of keys taller. */
    #pin-next { font-size: 20px; white-space: nowrap; padding: 0 4px; }
    /* Where the pad's digits go: the user id, or the PIN after "next" or a tap on it. */
    input.pad-target { border-color: var(--focus); }
    button {
      font: inherit; font-size: 30px; min-height: clamp(48px, 7.5vh, 64px); min-width: 64px; border-radius: 14px; cursor: pointer;
      border: 2px solid #6b7785; background: #2b3644; color: var(--text);
    }
    button:active { background: #3a4758; }
    #pin-submit { background: #1f6feb; border-color: #1f6feb; color: #ffffff; font-weight: 600; font-size: 24px; }
    /* Badge and finger: "Use finger" shares the last row with "Sign in" while the page asks for it. */
    #badge-touch { grid-column: 3 / -1; font-weight: 600; font-size: 24px; white-space: nowrap; padding: 0 4px;
      border-color: var(--state); }
    #pin-keys:has(#badge-touch:not([hidden])) #pin-submit { grid-column: 1 / 3; }
    #lang { font-size: 22px; min-height: 52px; padding: 0 20px; }
    :focus-visible { outline: 4px solid var(--focus); outline-offset: 3px; }
    #pin-message { font-size: clamp(24px, 3.6vh, 32px); font-weight: 600; line-height: 1.3; min-height: 2.6em; margin: 1.5vh 0 0; }
    #pin-message.ok { color: var(--welcome); }
    #pin-message.refused { color: var(--refused); }
    #demo { margin-top: 4vh; display: flex; gap: 12px; align-items: center; justify-content: center; flex-wrap: wrap;
      color: var(--muted); font-size: 20px; }
    #demo button { font-size: 20px; min-height: 52px; padding: 0 16px; }
    .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
    [hidden] { display: none !important; }
    /* Portrait (a tall kiosk screen, a narrow window): the reader above, the pad below it, the
       pad's keys as large as the width allows. */
    @media (orientation: portrait) {
      main { grid-template-columns: minmax(0, 1fr); grid-template-rows: 1fr auto; }
      #message { font-size: clamp(30px, 3.6vh, 56px); }
      #pin-keys button { min-height: clamp(48px, 6vh, 96px); }
    }
    /* Short landscape screens (800x480, 1024x600): everything smaller, so that the pad and its
       answer stay on the screen; the two fields side by side. */
    @media (orientation: landscape) and (max-height: 640px) {
      header { padding: 4px 16px; }
      h1 { font-size: 22px; }
      h2 { font-size: 20px; margin: 0; }
      #lang { min-height: 40px; font-size: 18px; }
      main { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 12px; padding: 0 16px 8px; }
      section { padding: 8px 16px; border-radius: 14px; }
      #symbol { width: clamp(64px, 18vh, 110px); height: clamp(64px, 18vh, 110px); margin-bottom: 8px; }
      #message { font-size: clamp(22px, 5vh, 30px); }
      #countdown-line, #session { font-size: 20px; margin-top: 6px; }
      form { display: grid; grid-template-columns: 1fr 1fr; column-gap: 10px; }
      form label { font-size: 16px; margin: 4px 0 2px; grid-row: 1; }
      form input { font-size: 22px; min-height: 40px; grid-row: 2; }
      #pin-keys, #pin-message { grid-column: 1 / -1; }
      #pin-keys { gap: 6px; margin-top: 8px; }
      #pin-keys button { font-size: 24px; min-height: clamp(36px, 8vh, 48px); }
      #pin-submit, #badge-touch { font-size: 20px; }
      #pin-message { font-size: 18px; margin-top: 6px; min-height: 2.6em; }
    }
    """#
}
