/// The local API's fixed names: its path prefix and the media type of streamed answers.
package enum LocalAPI {
    /// Every path starts with this; a breaking change gets a new prefix.
    package static let prefix = "/v1"
    /// One JSON object per line, each written as it happens.
    package static let streamMediaType = "application/x-ndjson"
    /// The socket a system service listens on.
    package static let systemSocket = "/run/fpbridge/fpbridged.sock"
    /// Where the system service's unit is when fpbridged is installed on this machine (the package's,
    /// then `make install`'s): the CLI then never falls back to its own files.
    package static let systemUnits = ["/usr/lib/systemd/system/fpbridged.service", "/lib/systemd/system/fpbridged.service",
                                      "/etc/systemd/system/fpbridged.service"]
    /// The largest request body the service reads; a request over it gets 413.
    package static let maximumBodyBytes = 64 * 1024
}
