// The wire format speaks of the engine's types; whoever speaks it imports them with it.
@_exported import FPAuthentication
