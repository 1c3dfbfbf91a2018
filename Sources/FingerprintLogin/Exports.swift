// The wire types (sessions, devices, payments, errors) come with the client.
@_exported import FPAccountAPI
