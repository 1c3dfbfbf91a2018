// As Apple's framework does, this module brings Foundation with it (NSError,
// Data, TimeInterval in its API), so `import LocalAuthentication` is enough.
@_exported import Foundation
// What the fpbridge additions speak of (readers, the state directory, prompts,
// the engine for front ends that need its events) comes with this module.
@_exported import FPAuthentication
