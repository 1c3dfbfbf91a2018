import Foundation
import NIOSSL
import PostgresNIO
import SystemPackage
import FPCore

/// What each sslmode asks of NIOSSL, for the pool's connections and the start-up check alike.
extension PostgresTLSMode {
    /// The client's TLS settings; nil: no TLS.
    func configuration() throws -> TLSConfiguration? {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch self {
        case .disable: return nil
        case .prefer, .require: tls.certificateVerification = .none
        case .verifyCA(let file):
            tls.certificateVerification = .noHostnameVerification
            tls.trustRoots = try Self.trustRoots(file)
        case .verifyFull(let file):
            // With an IP address for host PostgresNIO sends no SNI and NIOSSL checks the address
            // connected to against the certificate's IP subject alternative names instead.
            tls.certificateVerification = .fullVerification
            tls.trustRoots = try Self.trustRoots(file)
        }
        return tls
    }

    /// How the mode is named in a message.
    var name: String {
        switch self {
        case .disable: "disable"
        case .prefer: "prefer"
        case .require: "require"
        case .verifyCA: "verify-ca"
        case .verifyFull: "verify-full"
        }
    }

    /// The CA certificates of `file`, read now so that a missing or broken file stops the start
    /// with its name (NIOSSL would only fail the first handshake, and without it); nil: the
    /// system's trust store.
    private static func trustRoots(_ file: String?) throws -> NIOSSLTrustRoots {
        guard let file else { return .default }
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw DatabaseFailure(description: "--database: cannot read the CA file sslrootcert=\(file): \(Errno.last.description)")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        let bytes: [UInt8]
        do { bytes = Array(try handle.readToEnd() ?? Data()) } catch {
            throw DatabaseFailure(description: "--database: cannot read the CA file sslrootcert=\(file): \(error)")
        }
        guard let certificates = try? NIOSSLCertificate.fromPEMBytes(bytes), !certificates.isEmpty else {
            throw DatabaseFailure(description: "--database: the CA file sslrootcert=\(file) holds no PEM certificate")
        }
        return .certificates(certificates)
    }
}
