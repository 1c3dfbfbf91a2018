// The types a user of this module names (Finger, ReaderIdentity) come with it.
@_exported import FPCore
