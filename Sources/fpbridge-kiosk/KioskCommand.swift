import ArgumentParser
import FPKiosk
import Foundation
import Logging

/// The `fpbridge-kiosk` command: parses and checks options, then serves the kiosk.
struct KioskCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fpbridge-kiosk",
        abstract: "A walk-up kiosk: touch the reader and be welcomed, or use a PIN; a page on loopback for a browser in kiosk mode.",
        discussion: """
        The kiosk keeps fpbridged's identify armed, planned from the reader's heat so that an image \
        reader is never stopped as too hot, and serves a page (open it with \
        chromium --kiosk --app=http://127.0.0.1:PORT). It runs as a member of the group fpbridge-kiosk, \
        which fpbridged lets identify and check a named user's PIN, nothing else. PINs are passed to \
        fpbridged and never logged. With --server, each touch also signs the login server's \
        challenge (identify-and-prove, with the user's key bound to that server) and the welcome \
        carries the server's session; a right PIN does the same with a PIN challenge (a session \
        of kind kiosk-pin). With --badges, the user id is a badge number from that file. With \
        --embed-origin (and --server), the page may be framed by that origin alone, and hands it \
        each welcome's session by postMessage to that origin only. With --page-dir, that \
        directory's stylesheet, logo and words (strings.LANG.json, another language too) replace \
        the built-in ones; --export-page writes the built-in ones as a starting point.

        Badge and finger: when the reader holds more prints than fpbridged's \
        identificationOpenGalleryLimit (2000 by default), or always with --badge-first, the page asks \
        for the user id (the badge number with --badges) and "Use finger" before each touch, and the \
        touch is compared with that person's prints only (docs/kiosk.md, "Badge and finger").

        Only processes of the kiosk's own user and of the users --page-user names get an answer \
        (the owner of each loopback connection is read from /proc/self/net/tcp and tcp6); every \
        other local user is refused with 403 on every route.

        ROUTES
          GET /          the page (English; ?lang=zh for Chinese); /kiosk.css, /kiosk.js and, with
                         --page-dir, /logo beside it
          GET /events    Server-Sent Events: {state, message, parameters, countdown, user, result}; with
                         --server a welcome also carries session, to the pages watching at that moment only
          POST /pin      {"user": "...", "pin": "..."}: checked by fpbridged at once (with --server,
                         a right PIN's answer carries the session)
          POST /badge    {"user": "..."}: "Use finger", the next touch compared with that person only
          POST /wake     a touch of the screen: a resting reader is armed at once when its heat allows

        EXIT STATUS
          0  stopped by SIGTERM or SIGINT
          2  usage (bad option, a listen address that is not loopback)
          3  cannot start (the port is taken)
        """,
        version: "0.1.0")

    @Option(help: ArgumentHelp("fpbridged's socket.", valueName: "path"))
    var service = "/run/fpbridge/fpbridged.sock"

    @Option(help: ArgumentHelp("Where the page is served: a loopback address and port (0 picks a free port).",
                               valueName: "host:port"))
    var listen = "127.0.0.1:8080"

    @Option(help: ArgumentHelp("A login server (fpbridge-server): each touch signs its challenge (identify-and-prove) and the welcome carries the session.",
                               valueName: "url"))
    var server: String?

    @Option(help: ArgumentHelp("Badge numbers for the PIN pad's user id: a file of lines 'NUMBER NAME', owned by root or the kiosk's user and writable by nobody else. An unknown number is answered as a wrong PIN.",
                               valueName: "file"))
    var badges: String?

    @Flag(help: "Ask for the user id (the badge number with --badges) before every touch, and compare the touch with that person's prints only, whatever the number of prints.")
    var badgeFirst = false

    @Option(help: ArgumentHelp("The origin of your application's page that frames the kiosk's page (https://HOST[:PORT]; http:// only on loopback): only it may frame the page, and it is handed each welcome's login-server session by postMessage. Needs --server.",
                               valueName: "origin"))
    var embedOrigin: String?

    @Option(help: ArgumentHelp("A directory whose files replace the page's built-in ones: kiosk.css, logo.svg or logo.png, strings.LANG.json (the built-in table's keys; en and zh replace, another LANG adds a language; a key missing keeps the built-in words, with a warning). Read and checked at start.",
                               valueName: "dir"))
    var pageDir: String?

    @Option(help: ArgumentHelp("Write the page's built-in files (kiosk.css, strings.en.json, strings.zh.json) into this directory, as a starting point for --page-dir, and exit.",
                               valueName: "dir"))
    var exportPage: String?

    @Option(help: ArgumentHelp("A user whose browser shows the page, by name or uid (repeatable). The kiosk's own user is always allowed; every other local user is refused.",
                               valueName: "user"))
    var pageUser: [String] = []

    @Option(help: ArgumentHelp("Play touches on libfprint's virtual reader listening here (demo and tests).",
                               valueName: "path", visibility: .hidden))
    var demoTouchSocket: String?

    @Option(help: ArgumentHelp("virtual_image: the NAME.pgm images the demo touches send; without it, virtual_device's SCAN NAME.",
                               valueName: "dir", visibility: .hidden))
    var demoPrints: String?

    @Option(help: ArgumentHelp("The demo's finger buttons, comma-separated.", valueName: "names", visibility: .hidden))
    var demoFingers = "alice,bob,stranger"

    @Flag(name: .shortAndLong, help: "Log what the kiosk does on stderr (never a PIN).")
    var verbose = false

    func run() async throws {
        if let exportPage {
            let written: [String]
            do { written = try KioskPageAssets.exportBuiltIn(to: exportPage) } catch { throw ValidationError(error.description) }
            FileHandle.standardOutput.write(Data(written.map { "wrote \($0)\n" }.joined().utf8))
            return
        }
        let address: ListenAddress
        do { address = try ListenAddress(parsing: listen) } catch { throw ValidationError(error.description) }
        guard service.hasPrefix("/") else { throw ValidationError("--service must be the absolute path of fpbridged's socket") }
        if demoPrints != nil, demoTouchSocket == nil { throw ValidationError("--demo-prints needs --demo-touch-socket") }
        let pageUsers: PageUsers
        do { pageUsers = try PageUsers(naming: pageUser) } catch { throw ValidationError(error.description) }
        var badgeList: BadgeList?
        if let badges {
            do { badgeList = try BadgeList(path: badges) } catch { throw ValidationError(error.description) }
        }
        var loginServer: LoginServer?
        if let server {
            do { loginServer = try LoginServer(url: server) } catch { throw ValidationError(error.description) }
        }
        var embed: EmbedOrigin?
        if let embedOrigin {
            do { embed = try EmbedOrigin(parsing: embedOrigin) } catch { throw ValidationError(error.description) }
            guard server != nil else {
                throw ValidationError("--embed-origin hands the application a login-server session after each welcome: it needs --server")
            }
        }
        var assets = KioskPageAssets.builtIn
        if let pageDir {
            do {
                assets = try KioskPageAssets(directory: pageDir) { warning in
                    FileHandle.standardError.write(Data("fpbridge-kiosk: warning: \(warning)\n".utf8))
                }
            } catch { throw ValidationError(error.description) }
        }
        let fingers = demoFingers.split(separator: ",").map { String($0) }
        let demo = demoTouchSocket.map { DemoTouch(socket: $0, prints: demoPrints, fingers: fingers) }
        var logger = Logger(label: "fpbridge-kiosk")
        logger.logLevel = verbose ? .info : .warning
        var server = KioskServer(listen: address, backend: ServiceBackend(socket: service, server: loginServer), demo: demo,
                                 pageUsers: pageUsers, badges: badgeList, embedOrigin: embed, assets: assets)
        server.badgeFirst = badgeFirst
        let serving = Task {
            try await server.run(logger: logger) { url in
                // The one line on stdout: scripts and tests read the URL from it.
                FileHandle.standardOutput.write(Data("fpbridge-kiosk: serving \(url) for fpbridged at \(service)\n".utf8))
            }
        }
        Signals.stop(on: [SIGTERM, SIGINT]) { serving.cancel() }
        do { try await serving.value } catch is CancellationError {} catch {
            FileHandle.standardError.write(Data("fpbridge-kiosk: cannot serve on \(address): \(error)\n".utf8))
            Foundation.exit(3)
        }
    }
}

/// SIGTERM and SIGINT end the kiosk. Cancelling the serving task ends the identify loop (its
/// stream to fpbridged closes, which cancels the scan there) and the event streams; the kiosk
/// keeps no state of its own, so there is nothing else to save.
enum Signals {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    static func stop(on signals: [Int32], _ action: @escaping @Sendable () -> Void) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler {
                action()
                // Whatever is left (a page's open stream) gets a moment, then the process ends.
                DispatchQueue.main.asyncAfter(deadline: .now() + 1) { Foundation.exit(0) }
            }
            source.resume()
            sources.append(source)
        }
    }
}
