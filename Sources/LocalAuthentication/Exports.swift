// As Apple's framework does, this module brings Foundation with it (NSError,
// Data, TimeInterval in its API), so `import LocalAuthentication` is enough.
@_exported import Foundation
// fpbridge's settings (FPBridgeSettings) speak of these: the shared words (errors, fingers,
// passcodes, prompts, which reader) and where state lives. The engine's types (readers, the
// configuration) come with LocalAuthenticationInProcess, which this module does not link.
@_exported import FPVocabulary
@_exported import struct FPStore.StateDirectory
