// The wire format speaks of the engine's types; whoever speaks it imports them with it,
// and JSONValue with them.
@_exported import FPAuthentication
@_exported import FPJSON
