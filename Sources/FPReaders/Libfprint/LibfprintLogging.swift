internal import CLibfprint
import Logging
import Synchronization

/// Sends GLib's and libfprint's log messages to swift-log instead of stdout.
///
/// GLib's default writer prints debug and info messages on stdout, which is
/// the command line's JSON channel; this writer keeps stdout clean.
enum LibfprintLogging {
    static let logger = Logger(label: "libfprint")
    /// GLib criticals and errors (failed assertions) seen in this process: a test can
    /// tell that nothing went wrong inside libfprint even when nothing crashed.
    static let criticals = Atomic<Int>(0)

    static func install() {
        g_log_set_writer_func({ level, fields, count, _ in
            var message = ""
            var domain = "glib"
            if let fields {
                for field in UnsafeBufferPointer(start: fields, count: Int(count)) {
                    guard let key = field.key, let value = field.value else { continue }
                    let name = String(cString: key)
                    guard name == "MESSAGE" || name == "GLIB_DOMAIN" else { continue }
                    let text = field.length < 0
                        ? String(cString: value.assumingMemoryBound(to: CChar.self))
                        : String(decoding: UnsafeRawBufferPointer(start: value, count: Int(field.length)), as: UTF8.self)
                    if name == "MESSAGE" { message = text } else { domain = text }
                }
            }
            let text: Logger.Message = "\(domain): \(message)"
            let flags = level.rawValue
            if flags & (G_LOG_LEVEL_ERROR.rawValue | G_LOG_LEVEL_CRITICAL.rawValue) != 0 {
                LibfprintLogging.criticals.add(1, ordering: .relaxed)
                LibfprintLogging.logger.error(text)
            } else if flags & G_LOG_LEVEL_WARNING.rawValue != 0 {
                LibfprintLogging.logger.warning(text)
            } else if flags & (G_LOG_LEVEL_MESSAGE.rawValue | G_LOG_LEVEL_INFO.rawValue) != 0 {
                LibfprintLogging.logger.info(text)
            } else {
                LibfprintLogging.logger.debug(text)
            }
            return G_LOG_WRITER_HANDLED
        }, nil, nil)
    }
}
