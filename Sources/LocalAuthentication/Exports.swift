// What the fpbridge additions speak of (readers, the state directory, prompts,
// the engine for front ends that need its events) comes with this module.
@_exported import FPAuthentication
