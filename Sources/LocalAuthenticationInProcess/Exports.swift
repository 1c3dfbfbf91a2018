// `import LocalAuthenticationInProcess` brings Apple's API and the engine's types its settings
// speak of: reader objects (the fake reader and its scripts) and the configuration.
@_exported import LocalAuthentication
@_exported import protocol FPReaders.FingerprintReader
@_exported import class FPReaders.FakeReader
@_exported import struct FPReaders.FakeScript
@_exported import struct FPAuthentication.AuthConfiguration
