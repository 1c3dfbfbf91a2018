// Everything this module's API speaks of (fingers, readers, prints, the state directory)
// comes with it: one import is enough.
@_exported import FPCore
@_exported import FPReaders
@_exported import FPStore
@_exported import FPKeyFormats
