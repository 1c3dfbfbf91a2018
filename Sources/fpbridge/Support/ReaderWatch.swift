import FPLocalAPI
import FPAuthentication
import FPTerminal
import FPReaders
import FoundationEssentials
import Glibc

/// `readers --watch`: a line (or a JSON object) per reader change, until Ctrl-C or the duration ends.
enum ReaderWatch {
    static func run(_ options: GlobalOptions, duration: Double?) async throws {
        let changes: AsyncStream<ReaderChange>
        do { changes = try await options.selection().watch() } catch { throw AuthError(error) }
        let console = options.console
        let watching = Task {
            for await change in changes { emit(change, console: console) }
        }
        let interrupt = CtrlC { watching.cancel() }
        defer { interrupt.release() }
        if let duration {
            let timer = Task {
                try await Task.sleep(for: .seconds(duration))
                watching.cancel()
            }
            await watching.value
            timer.cancel()
        } else {
            await watching.value
        }
        if !console.json { console.note("Stopped watching.") }
    }

    private static func emit(_ change: ReaderChange, console: Console) {
        let (event, fields, text): (String, JSONValue, String) = switch change {
        case .present(let info): ("present", ReadersCommand.json(info), "present  \(info.identity)\t\(info.name)")
        case .added(let info): ("added", ReadersCommand.json(info), "added    \(info.identity)\t\(info.name)")
        case .changed(let info): ("changed", ReadersCommand.json(info), "changed  \(info.identity)\t\(info.name)")
        case .removed(let identity):
            ("removed", ["driver": .string(identity.driver), "deviceId": .string(identity.deviceID)], "removed  \(identity)")
        }
        if console.json {
            print(JSONValue.object(["event": .string(event), "reader": fields]).rendered)
        } else {
            print(text)
        }
        fflush(nil)
    }
}
