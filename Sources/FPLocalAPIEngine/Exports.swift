// The service and the CLI's in-process commands speak the wire format from the engine's side:
// one import gives both, as `import FPLocalAPI` did before the wire format left the engine.
@_exported import FPAuthentication
@_exported import FPLocalAPI
