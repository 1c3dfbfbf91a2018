import FPAuthentication

/// How long a scan started through the socket may wait for a finger, whoever asks (issue 49):
/// the one place that says it.
///
/// A client's `timeoutSeconds` holds the reader from everyone else for as long as it names: a
/// local user asking for a day kept root's verify `readerBusy` and every other request waiting
/// or refused. A person asked for a finger touches the reader within seconds; two minutes
/// covers reading the prompt, finding the reader and drying a finger, and is longer than any
/// wait fpbridge's own clients need at one scan (the CLI's default 30 s, `pam_fpbridge.so`'s
/// 60 s beside a prompt, a kiosk's proved scan 90 s). Past it nobody is at the reader, and the
/// reader is held from the others for nothing.
///
/// A longer request is **clamped**, not refused: the scan waits the bound and ends `timedOut`,
/// which every client already handles (the kiosk re-arms at once, the CLI and PAM fall to the
/// password). Refusing would break clients for asking what they legitimately may want: the kiosk
/// arms a match-on-chip reader for an hour and a cool image reader for its thermal budget (up to
/// about 220 s), and `pam_fpbridge.so` takes `timeout=` up to 3600 from a service file; a 400
/// there would be no finger at all. Clamping grants less than was asked, never more (fail
/// closed). A value that is no timeout at all (0, negative, NaN, more than
/// ``AuthConfiguration/maximumScanTimeout``) is still refused (400), as `config.json` refuses it.
package enum ClientScanTimeout {
    /// The longest a client may have a scan wait: 120 s.
    package static let longestSeconds: Double = 120

    /// The scan timeout of a request: `requested` clamped to the bound, or the state's
    /// `configured` default when the request names none. An administrator's longer default
    /// (`scanTimeoutSeconds` in `config.json`) is the bound instead: it is theirs to set for
    /// everyone, and a client asking for less than the default must not be granted more.
    /// - Throws: ``ServiceRefusal`` (400) for a value that is no timeout, naming the field.
    package static func seconds(requested: Double?, configured: Double) throws(ServiceRefusal) -> Double {
        guard let requested else { return configured }
        guard requested > 0, requested <= AuthConfiguration.maximumScanTimeout else {
            throw .badRequest("timeoutSeconds must be more than 0 and at most \(Int(AuthConfiguration.maximumScanTimeout))")
        }
        return min(requested, max(longestSeconds, configured))
    }
}
