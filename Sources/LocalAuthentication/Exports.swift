// As Apple's framework does, this module brings Foundation with it (NSError,
// Data, TimeInterval in its API), so `import LocalAuthentication` is enough.
@_exported import Foundation
// fpbridge's settings (FPBridgeSettings) speak of these: the shared words (errors, fingers,
// passcodes), which reader, where state lives, the numbers and who asks for the passcode.
// The engine itself (AuthenticationContext, the stores, the sessions) is not re-exported: a
// front end that needs its events imports FPAuthentication.
@_exported import FPVocabulary
@_exported import enum FPReaders.ReaderSelection
@_exported import protocol FPReaders.FingerprintReader
@_exported import class FPReaders.FakeReader
@_exported import struct FPReaders.FakeScript
@_exported import struct FPStore.StateDirectory
@_exported import struct FPAuthentication.AuthConfiguration
@_exported import protocol FPAuthentication.AuthPrompt
@_exported import class FPAuthentication.ListedPasscodes
