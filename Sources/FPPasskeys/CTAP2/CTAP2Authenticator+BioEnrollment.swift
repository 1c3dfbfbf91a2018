import FPAuthentication

/// authenticatorBioEnrollment (CTAP 2.1 §6.7): the user's prints, the same every other door
/// matches, enrolled one sample a request with the sample's status, listed, renamed and
/// removed, as `fido2-token -S -e`, `-L -e`, `-D -e` and python-fido2's `FPBioEnrollment`
/// ask. Every subcommand but the sensor's description and a cancel is proved by a PIN/UV auth
/// token with the bio enrollment permission, which only the PIN (the passcode) gets: a finger
/// is added after the passcode, as on iOS.
extension CTAP2Authenticator {
    func bioEnrollment(_ parameters: ArraySlice<UInt8>) async throws(CTAP2Error) -> CBORValue {
        let arguments = try CTAP2Arguments(parameters, of: "bioEnrollment")
        if try arguments.bool(.int(6), "getModality") == true {
            return .map([.int(1): .int(Self.fingerprintModality)])
        }
        let modality = try arguments.int(.int(1), "modality", required: true) ?? 0
        guard modality == Self.fingerprintModality else {
            throw CTAP2Error(.invalidParameter, "modality \(modality) is not offered (1, fingerprint, is)")
        }
        let subcommand = try Self.subcommand(BioEnrollmentSubcommand.self, arguments, key: .int(2), of: "bio enrollment")
        let subParameters = arguments[.int(3)]
        let options = try subParameters.map { value throws(CTAP2Error) in try CTAP2Arguments(value, of: "subCommandParams") }
        switch subcommand {
        case .getFingerprintSensorInfo:
            let (reader, _) = try await fingers()
            return .map([.int(2): .int(reader.scanType == .swipe ? 2 : 1), .int(3): .int(Int64(reader.enrollmentStages)),
                         .int(8): .int(Int64(BioTemplate.maximumNameLength))])
        case .cancelCurrentEnrollment:
            enrollments.cancel()
            return .map([:])
        default: break
        }
        let signed = try Self.signedSubcommand(arguments, versionKey: .int(4), macKey: .int(5),
                                               prefix: [UInt8(Self.fingerprintModality), UInt8(subcommand.rawValue)], subParameters)
        let entry = try pin.authorizeEnrollment(mac: signed.mac, signed.version, message: signed.message)
        switch subcommand {
        case .enrollBegin:
            // Everything refusable is refused before the enrollment takes the reader.
            let limit = try Self.sampleLimit(options)
            let (_, prints) = try await fingers()
            guard let finger = BioTemplate.next(after: Set(prints.map(\.finger))) else {
                throw CTAP2Error(.fingerprintDatabaseFull, "all ten fingers are enrolled on this reader")
            }
            let run = BioEnrollmentRun(finger: finger) { beforeSave in passkeys.enroll(finger, standingOn: entry, beforeSave: beforeSave) }
            enrollments.begin(run)
            let (status, remaining) = try await sample(of: run, within: limit)
            return .map([.int(4): .bytes(BioTemplate.id(finger)), .int(5): .int(status.rawValue), .int(6): .int(Int64(remaining))])
        case .enrollCaptureNextSample:
            let id = try Self.templateID(options)
            guard let run = enrollments.run, BioTemplate.id(run.finger) == id else {
                throw CTAP2Error(.invalidParameter, "no enrollment of that template is in progress")
            }
            let limit = try Self.sampleLimit(options)
            let (status, remaining) = try await sample(of: run, within: limit)
            return .map([.int(5): .int(status.rawValue), .int(6): .int(Int64(remaining))])
        case .enumerateEnrollments:
            let (_, prints) = try await fingers()
            guard !prints.isEmpty else { throw CTAP2Error(.invalidOption, "no finger is enrolled on this reader") }
            return .map([.int(7): .array(prints.map(BioTemplate.info))])
        case .setFriendlyName:
            let finger = try await enrolled(try Self.templateID(options))
            let name = try options?.text(.int(2), "templateFriendlyName", required: true) ?? ""
            guard name.utf8.count <= BioTemplate.maximumNameLength else {
                throw CTAP2Error(.invalidParameter, "a name of \(name.utf8.count) bytes; at most \(BioTemplate.maximumNameLength) are kept")
            }
            try await translating { try await passkeys.rename(finger, to: name, standingOn: entry) }
            return .map([:])
        case .removeEnrollment:
            let finger = try await enrolled(try Self.templateID(options))
            try await translating { try await passkeys.removePrint(finger, standingOn: entry) }
            return .map([:])
        case .getFingerprintSensorInfo, .cancelCurrentEnrollment:
            throw CTAP2Error(.other, "unreachable")
        }
    }

    /// The only modality offered (CTAP 2.1 §6.7.1).
    static let fingerprintModality: Int64 = 1

    /// The reader and the user's prints on it; no reader is OPERATION_DENIED.
    private func fingers() async throws(CTAP2Error) -> (reader: ReaderInfo, prints: [PrintRecord]) {
        guard let fingers = try await translating({ try await passkeys.fingers() }) else {
            throw CTAP2Error(.operationDenied, "no fingerprint reader is available")
        }
        return fingers
    }

    /// The finger of an enrolled template; a template not enrolled is CTAP2_ERR_INVALID_OPTION.
    private func enrolled(_ id: [UInt8]) async throws(CTAP2Error) -> Finger {
        let (_, prints) = try await fingers()
        guard let finger = BioTemplate.finger(id), prints.contains(where: { $0.finger == finger }) else {
            throw CTAP2Error(.invalidOption, "no enrolled finger has that template id")
        }
        return finger
    }

    /// The host's timeoutMilliseconds for a sample, if it gave one.
    private static func sampleLimit(_ options: CTAP2Arguments?) throws(CTAP2Error) -> Duration? {
        let milliseconds = try options?.int(.int(3), "timeoutMilliseconds")
        if let milliseconds, milliseconds <= 0 {
            throw CTAP2Error(.invalidParameter, "timeoutMilliseconds is \(milliseconds)")
        }
        return milliseconds.map { .milliseconds($0) }
    }

    /// The next sample of `run` within `limit`, or the enrollment's end.
    private func sample(of run: BioEnrollmentRun, within limit: Duration?) async throws(CTAP2Error) -> (BioSampleStatus, Int) {
        switch await enrollments.sample(of: run, within: limit) {
        case .sample(let status, let remaining): return (status, remaining)
        case .failed(let error): throw error
        }
    }

    private static func templateID(_ options: CTAP2Arguments?) throws(CTAP2Error) -> [UInt8] {
        guard let options else { throw CTAP2Error(.missingParameter, "bio enrollment has no subCommandParams") }
        return try options.bytes(.int(1), "templateId", required: true) ?? []
    }
}
