// Everything this module's API speaks of (fingers, readers, prints, the state directory)
// comes with it: one import is enough.
@_exported import FPCore
@_exported import FPReaders
@_exported import FPStore
@_exported import FPKeyFormats
// Errors, events, policies and key access controls live in the vocabulary that clients of the
// service share without linking libfprint; they come with this module as they always did.
@_exported import FPVocabulary
