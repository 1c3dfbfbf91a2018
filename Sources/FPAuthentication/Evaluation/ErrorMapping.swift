import FPReaders
import FPStore
import FoundationEssentials

extension AuthError {
    /// Gives any error from the layers below its authentication code.
    public init(_ error: any Error) {
        switch error {
        case let error as AuthError: self = error
        case let error as ReaderError: self = AuthError(reader: error)
        case let error as StoreError: self = AuthError(store: error)
        case let failure as CounterWriteFailure: self = AuthError(store: failure.error)
        case is CancellationError: self = AuthError(.systemCancel, "the operation was cancelled")
        default: self = AuthError(.readerFailure, "\(error)")
        }
    }

    init(reader error: ReaderError) {
        let message = error.description
        let fault = error.fault
        switch error {
        case .noReader: self = AuthError(.biometryNotAvailable, message, cause: .noReader)
        case .permissionDenied: self = AuthError(.biometryNotAvailable, message)
        case .notSupported: self = AuthError(.notSupported, message, readerFault: fault)
        case .busy: self = AuthError(.readerBusy, message, readerFault: fault)
        case .removed: self = AuthError(.biometryDisconnected, message, readerFault: fault)
        case .tooHot(let seconds):
            self = AuthError(.readerTooHot, message, retryAfter: seconds.map { max(1, $0.rounded(.up)) } ?? ReaderTemperature.coolingTime,
                             readerFault: fault)
        case .cancelled: self = AuthError(.systemCancel, message)
        case .timedOut: self = AuthError(.timedOut, message)
        // The sensor's own storage disagreeing with ours is a reader-side state, not a usage error.
        case .printNotFound: self = AuthError(.readerFailure, message + " (the sensor's storage no longer holds it)", readerFault: fault)
        case .duplicatePrint:
            self = AuthError(.readerFailure, message + " (the sensor already holds this finger, perhaps from other software; "
                             + "clearing the sensor's storage removes it)", readerFault: fault, cause: .sensorHoldsFinger)
        case .invalidPrint: self = AuthError(.stateDamaged, message, cause: .damagedState)
        case .scriptEnded: self = AuthError(.scriptEnded, message)
        case .invalidScript, .invalidSelection: self = AuthError(.invalidInput, message)
        case .notOpen, .alreadyOpen, .storageFull, .protocolError, .general, .dataInvalid:
            self = AuthError(.readerFailure, message, readerFault: fault)
        }
    }

    init(store error: StoreError) {
        switch error {
        case .damaged: self = AuthError(.stateDamaged, error.description, cause: .damagedState)
        case .io:
            let message = "cannot use the state directory: \(error.description)"
            switch error.fileSystemFailure {
            case .full: self = AuthError(.stateDamaged, message + " (the disk is full)", cause: .diskFull)
            case .notWritable: self = AuthError(.stateDamaged, message + " (this user may not write there)", cause: .stateNotWritable)
            case .other, nil: self = AuthError(.stateDamaged, message)
            }
        case .invalidUserName, .invalidKeyLabel: self = AuthError(.invalidInput, error.description)
        case .unsafeDirectory: self = AuthError(.stateDamaged, error.description, cause: .unsafeStateDirectory)
        }
    }
}
