// The wire format speaks of the shared vocabulary (errors, events, fingers); whoever speaks
// it imports them with it, and JSONValue with them. The engine's own types stay out: a client
// of the socket links neither libfprint nor GLib (FPLocalAPIEngine builds these from them).
@_exported import FPVocabulary
@_exported import FPJSON
