// The types a user of this module names (Finger, ReaderIdentity, PrintData) come with it.
@_exported import FPCore
