// The types a user of this module names (Finger, ReaderIdentity, PrintData) come with it.
@_exported import FPCore
// So do ScanType, RetryReason and ReaderTemperature, which the service's clients share.
@_exported import FPVocabulary
