// A client speaks the wire format: its requests, answers and the vocabulary they carry come
// with the client, so that a program that only talks to fpbridged needs this one module.
@_exported import FPLocalAPI
