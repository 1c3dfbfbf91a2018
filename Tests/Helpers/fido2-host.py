#!/usr/bin/python3
"""A WebAuthn client and relying party that nobody here wrote: python-fido2's Fido2Client
drives fpbridge's authenticator over CTAPHID reports on a Unix SOCK_SEQPACKET socket (64 bytes
a packet, as a /dev/hidraw device carries them), and python-fido2's Fido2Server judges every
registration and sign-in.

    fido2-host.py SOCKET STEP...

Steps, run in order in one session (credentials registered are kept for the later steps):
  info                 getInfo as python-fido2 reads it
  register             a discoverable credential, user verification required
  register-excluded    the same account again, its credentials excluded
  register-user:NAME   as `register`, for another account at the site (id and name NAME)
  login                sign in with the registered credentials allowed
  login-discoverable   sign in with no credential named (the site finds the account)
  login-accounts       the same, every account's assertion read (getNextAssertion for each after
                       the first) and judged: "users" in the order given, "counters"
  login-cancelled      sign in, cancelled by the client 0.5 s after it starts
  retries              getPINRetries and getUVRetries
  selection            authenticatorSelection (the platform asks which key the user means)
  register-pin:PIN     register as `register`, with a PIN token (protocol two) in place of uv
  login-pin:PIN        sign in with a PIN token got by Fido2Client (protocol two)
  login-pin-v1:PIN     sign in with a PIN token under protocol one, made by hand
  login-uv-token:N     one token got with the finger (getPinUvAuthTokenUsingUvWithPermissions),
                       then N sign-ins with it; "uses" lists each one's result
  login-uv-token-any:N the same with a token for no site named
  uv-token-bad-salt:SALT  a token got with the finger, shown first with hmac-secret salts whose
                       saltAuth is wrong, then alone; "uses" lists both results
  token-other-site:PIN a PIN token for other.example shown to example.com
  bad-mac              a sign-in whose pinUvAuthParam is no token's
  token-permission:PIN a PIN token asked for largeBlobWrite (0x10, not granted)
  set-pin:PIN          setPIN
  register-hmac        register as `register`, asking for hmac-secret (hmacCreateSecret)
  register-protect:N   register as `register`, asking for credProtect level N (1 to 3), enforced;
                       "extensions" is what the authenticator data says
  hmac:SALT[,SALT2]    sign in with the registered credentials and hmacGetSecret for the salts (hex,
                       32 bytes each); "output1" (and "output2") in hex, or null when none came
  hmac-raw:SALT        the same made by hand (python-fido2's client fails on an answer with no
                       extension output); "extensions" is what the authenticator data carries
  hmac-bad-auth:SALT   the same with a saltAuth that is not the shared secret's MAC
  hmac-raw-v1:SALT     hmac-raw under PIN/UV protocol one
  hmac-raw-nokey4:SALT hmac-raw under protocol one with no protocol named (CTAP 2.0's way)
  hmac-raw-proto3:SALT hmac-raw naming protocol 3
  hmac-raw-short       hmac-raw with a 16-byte salt
  register-raw:RP      a discoverable credential for the site RP made by hand (any site; no server)
  credman:PIN          credential management with a PIN token: the metadata, then every site and
                       its credentials ("sites": {rp: [[user name, credProtect], ...]})
  credman-uv           the same with a token got with the finger
  credman-delete:PIN   deletes example.com's first credential, then lists as credman does
  credman-rename:PIN   renames example.com's first credential's account, then lists
  set-pin-nul          setPIN with a PIN that holds a NUL ("1234", NUL, "5678")
  bio-info             getModality and getFingerprintSensorInfo, with no token ("kind", "samples",
                       "name_length", "modality")
  bio-enroll:PIN[,MS]  enrolls a finger with python-fido2's FPEnrollmentContext and a PIN token (MS:
                       its timeout per sample); "template" (hex), "samples" ([status, remaining] per
                       sample), "capture_error" (the status that ended it, if one did)
  bio-list:PIN         enumerateEnrollments: "templates" {hex id: friendly name}
  bio-rename:PIN,HEX   names the template HEX "work finger", then lists
  bio-remove:PIN,HEX   removes the template HEX, then lists
  bio-uv-token         a token for bio enrollment asked with the finger
  bio-cm-token:PIN     enumerateEnrollments with a PIN token for credential management only
  bio-cancel:PIN       enrollBegin, cancelCurrentEnrollment, then enrollCaptureNextSample
  bio-stale:PIN        enrollCaptureNextSample naming a template no enrollment is in progress for

Each step prints one JSON line: {"step": ..., "ok": true, ...} or {"step": ..., "ok": false,
"ctap": <CTAP status>, "error": ...}.
"""
import json
import socket
import sys
import threading

from fido2.attestation import Attestation
from fido2.client import ClientError, Fido2Client
from fido2.ctap import CtapError
from fido2.ctap2.bio import BioEnrollment, CaptureError, FPBioEnrollment
from fido2.ctap2.credman import CredentialManagement
from fido2.ctap2.extensions import CredProtectExtension, HmacSecretExtension
from fido2.ctap2.pin import ClientPin, PinProtocolV1, PinProtocolV2
from fido2.hid import CtapHidDevice
from fido2.hid.base import CtapHidConnection, HidDescriptor
from fido2.server import Fido2Server
from fido2.utils import sha256
from fido2.webauthn import PublicKeyCredentialRpEntity

ORIGIN = "https://example.com"
USER = {"id": b"alice-at-example", "name": "alice@example.com", "displayName": "Alice"}


class SocketConnection(CtapHidConnection):
    def __init__(self, path):
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.socket.connect(path)

    def read_packet(self):
        packet = self.socket.recv(64)
        if not packet:
            raise OSError("the authenticator closed the socket")
        return packet

    def write_packet(self, data):
        self.socket.send(data)

    def close(self):
        self.socket.close()


def ctap_status(error):
    cause = error
    while cause is not None and not isinstance(cause, CtapError):
        cause = getattr(cause, "cause", None)
    return int(cause.code) if cause is not None else None


def sign_in(client, server, credentials, token, protocol, rp_id="example.com", extensions=None):
    """One getAssertion made by hand with `token` (or none), judged by the server."""
    options, state = server.authenticate_begin(credentials, user_verification="required")
    client_data = client._build_client_data("webauthn.get", options["publicKey"]["challenge"])
    param = protocol.authenticate(token, client_data.hash) if token is not None else None
    assertion = client.ctap2.get_assertion(
        rp_id, client_data.hash, [{"type": "public-key", "id": c.credential_id} for c in credentials],
        pin_uv_param=param, pin_uv_protocol=protocol.VERSION if param is not None else None, extensions=extensions)
    server.authenticate_complete(state, credentials, assertion.credential["id"], client_data,
                                 assertion.auth_data, assertion.signature)
    return {"ok": True, "counter": assertion.auth_data.counter, "flags": assertion.auth_data.flags}


def manage(client, step, argument):
    """Credential management as python-fido2's CredentialManagement does it."""
    pin = ClientPin(client.ctap2)
    permission = ClientPin.PERMISSION.CREDENTIAL_MGMT
    token = pin.get_uv_token(permission) if step == "credman-uv" else pin.get_pin_token(argument, permission)
    manager = CredentialManagement(client.ctap2, pin.protocol, token)
    R = CredentialManagement.RESULT

    def listing():
        metadata = manager.get_metadata()
        sites = {}
        for rp in manager.enumerate_rps():
            creds = manager.enumerate_creds(rp[R.RP_ID_HASH])
            sites[rp[R.RP]["id"]] = [[c[R.USER].get("name"), c.get(R.CRED_PROTECT)] for c in creds]
        return {"existing": metadata[R.EXISTING_CRED_COUNT], "remaining": metadata[R.MAX_REMAINING_COUNT], "sites": sites}

    if step in ("credman-delete", "credman-rename"):
        first = manager.enumerate_creds(sha256(b"example.com"))[0]
        if step == "credman-delete":
            manager.delete_cred(first[R.CREDENTIAL_ID])
        else:
            user = dict(first[R.USER])
            user["name"] = "renamed@example.com"
            manager.update_user_info(first[R.CREDENTIAL_ID], user)
    return listing()


def bio(client, step, argument):
    """Bio enrollment as python-fido2's FPBioEnrollment does it."""
    if step == "bio-info":
        info = FPBioEnrollment(client.ctap2, None, None).get_fingerprint_sensor_info()
        return {"kind": info[BioEnrollment.RESULT.FINGERPRINT_KIND], "samples": info[BioEnrollment.RESULT.MAX_SAMPLES_REQUIRED],
                "name_length": info.get(8), "modality": client.ctap2.bio_enrollment(get_modality=True)[1]}
    pin = ClientPin(client.ctap2)
    if step == "bio-uv-token":
        pin.get_uv_token(ClientPin.PERMISSION.BIO_ENROLL)
        return {}
    code, _, detail = argument.partition(",")
    permission = ClientPin.PERMISSION.CREDENTIAL_MGMT if step == "bio-cm-token" else ClientPin.PERMISSION.BIO_ENROLL
    token = pin.get_pin_token(code, permission)
    enrollment = FPBioEnrollment(client.ctap2, pin.protocol, token)
    listing = lambda: {"templates": {k.hex(): v for k, v in enrollment.enumerate_enrollments().items()}}
    if step == "bio-enroll":
        context = enrollment.enroll(int(detail) if detail else None)
        samples, template = [], None
        # A retry's status (too short, poor quality) asks for another sample, as fido2-token goes
        # on; FP_EXISTS ends the enrollment.
        while template is None and len(samples) < 20:
            try:
                template = context.capture()
                samples.append([0, context.remaining])
            except CaptureError as error:
                samples.append([int(error.code), context.remaining])
                if error.code == FPBioEnrollment.FEEDBACK.FP_EXISTS:
                    return {"template": context.template_id.hex(), "samples": samples, "capture_error": int(error.code)}
        return {"template": template.hex(), "samples": samples}
    if step in ("bio-list", "bio-cm-token"):
        return listing()
    if step == "bio-rename":
        enrollment.set_name(bytes.fromhex(detail), "work finger")
        return listing()
    if step == "bio-remove":
        enrollment.remove_enrollment(bytes.fromhex(detail))
        return listing()
    if step == "bio-cancel":
        template, status, remaining = enrollment.enroll_begin()
        enrollment.enroll_cancel()
        enrollment.enroll_capture_next(template)
        return {}
    if step == "bio-stale":
        enrollment.enroll_capture_next(b"\x02")
        return {}
    raise ValueError("unknown step " + step)


def main():
    path, steps = sys.argv[1], sys.argv[2:]
    device = CtapHidDevice(HidDescriptor(path, 0x1209, 0xF1D0, 64, 64), SocketConnection(path))
    client = Fido2Client(device, ORIGIN)
    server = Fido2Server(PublicKeyCredentialRpEntity("example.com", "Example"), attestation="none")
    credentials = []
    counters = []
    for step in steps:
        result = {"step": step}
        step, _, argument = step.partition(":")
        try:
            if step == "info":
                info = client.ctap2.get_info()
                result.update(versions=info.versions, options=info.options, aaguid=info.aaguid.hex(),
                              max_msg_size=info.max_msg_size, algorithms=[a["alg"] for a in info.algorithms or []],
                              pin_protocols=info.pin_uv_protocols, min_pin_length=info.min_pin_length)
            elif step.startswith("credman"):
                result.update(manage(client, step, argument))
            elif step.startswith("bio-"):
                result.update(bio(client, step, argument))
            elif step == "register-raw":
                client.ctap2.make_credential(
                    sha256(argument.encode()), {"id": argument, "name": argument},
                    {"id": argument.encode(), "name": "alice@" + argument}, [{"type": "public-key", "alg": -7}],
                    options={"rk": True, "uv": True})
            elif step == "selection":
                client.ctap2.selection()
            elif step == "retries":
                pin = ClientPin(client.ctap2)
                result.update(pin_retries=pin.get_pin_retries()[0], uv_retries=pin.get_uv_retries()[0])
            elif step in ("set-pin", "set-pin-nul"):
                ClientPin(client.ctap2).set_pin(argument if step == "set-pin" else "1234\x005678")
                client.info = client.ctap2.get_info()
                result.update(client_pin=client.info.options.get("clientPin"))
            elif step == "login-pin-v1":
                pin = ClientPin(client.ctap2, PinProtocolV1())
                token = pin.get_pin_token(argument, ClientPin.PERMISSION.GET_ASSERTION, "example.com")
                result.update(sign_in(client, server, credentials, token, pin.protocol))
            elif step in ("login-uv-token", "login-uv-token-any"):
                pin = ClientPin(client.ctap2)
                token = pin.get_uv_token(ClientPin.PERMISSION.GET_ASSERTION,
                                         "example.com" if step == "login-uv-token" else None)
                uses = []
                for _ in range(int(argument)):
                    try:
                        uses.append(sign_in(client, server, credentials, token, pin.protocol))
                    except CtapError as error:
                        uses.append({"ok": False, "ctap": int(error.code)})
                result.update(uses=uses)
            elif step == "uv-token-bad-salt":
                pin = ClientPin(client.ctap2)
                token = pin.get_uv_token(ClientPin.PERMISSION.GET_ASSERTION, "example.com")
                secret_input = HmacSecretExtension(client.ctap2).process_get_input({"hmacGetSecret": {"salt1": bytes.fromhex(argument)}})
                secret_input[3] = bytes(len(secret_input[3]))
                uses = []
                for extensions in ({"hmac-secret": secret_input}, None):
                    try:
                        uses.append(sign_in(client, server, credentials, token, pin.protocol, extensions=extensions))
                    except CtapError as error:
                        uses.append({"ok": False, "ctap": int(error.code)})
                result.update(uses=uses)
            elif step == "token-other-site":
                pin = ClientPin(client.ctap2)
                token = pin.get_pin_token(argument, ClientPin.PERMISSION.GET_ASSERTION, "other.example")
                result.update(sign_in(client, server, credentials, token, pin.protocol))
            elif step == "bad-mac":
                result.update(sign_in(client, server, credentials, b"\x01" * 32, PinProtocolV2()))
            elif step == "token-permission":
                ClientPin(client.ctap2).get_pin_token(argument, 0x10)
            elif step == "hmac":
                options, state = server.authenticate_begin(credentials, user_verification="required")
                request = dict(options["publicKey"])
                salts = [bytes.fromhex(salt) for salt in argument.split(",")]
                secret = {"salt1": salts[0]}
                if len(salts) > 1:
                    secret["salt2"] = salts[1]
                request["extensions"] = {"hmacGetSecret": secret}
                response = client.get_assertion(request).get_response(0)
                server.authenticate_complete(state, credentials, response.credential_id, response.client_data,
                                             response.authenticator_data, response.signature)
                outputs = (response.extension_results or {}).get("hmacGetSecret") or {}
                result.update(output1=outputs["output1"].hex() if "output1" in outputs else None,
                              output2=outputs["output2"].hex() if "output2" in outputs else None,
                              flags=response.authenticator_data.flags, counter=response.authenticator_data.counter)
            elif step.startswith("hmac-raw") or step == "hmac-bad-auth":
                options, state = server.authenticate_begin(credentials, user_verification="required")
                client_data = client._build_client_data("webauthn.get", options["publicKey"]["challenge"])
                one = step in ("hmac-raw-v1", "hmac-raw-nokey4")
                extension = HmacSecretExtension(client.ctap2, PinProtocolV1() if one else None)
                salt = bytes(16) if step == "hmac-raw-short" else bytes.fromhex(argument)
                if step == "hmac-raw-short":
                    # python-fido2 refuses a short salt itself: the input made by hand.
                    pin = ClientPin(client.ctap2)
                    key_agreement, shared = pin._get_shared_secret()
                    salt_enc = pin.protocol.encrypt(shared, salt)
                    secret_input = {1: key_agreement, 2: salt_enc, 3: pin.protocol.authenticate(shared, salt_enc), 4: pin.protocol.VERSION}
                else:
                    secret_input = extension.process_get_input({"hmacGetSecret": {"salt1": salt}})
                if step == "hmac-bad-auth":
                    secret_input[3] = bytes(len(secret_input[3]))
                if step == "hmac-raw-nokey4":
                    del secret_input[4]
                if step == "hmac-raw-proto3":
                    secret_input[4] = 3
                assertion = client.ctap2.get_assertion(
                    "example.com", client_data.hash, [{"type": "public-key", "id": c.credential_id} for c in credentials],
                    extensions={"hmac-secret": secret_input}, options={"uv": True})
                server.authenticate_complete(state, credentials, assertion.credential["id"], client_data,
                                             assertion.auth_data, assertion.signature)
                result.update(extensions=assertion.auth_data.extensions, flags=assertion.auth_data.flags)
                if assertion.auth_data.extensions:
                    result.update(output1=extension.process_get_output(assertion.auth_data)["hmacGetSecret"]["output1"].hex(),
                                  extensions=None)
            elif step == "login-accounts":
                options, state = server.authenticate_begin([], user_verification="required")
                selection = client.get_assertion(options["publicKey"])
                users, counters_seen = [], []
                for index, assertion in enumerate(selection.get_assertions()):
                    response = selection.get_response(index)
                    server.authenticate_complete(state, credentials, response.credential_id, response.client_data,
                                                 response.authenticator_data, response.signature)
                    users.append(assertion.user["name"])
                    counters_seen.append(response.authenticator_data.counter)
                result.update(users=users, counters=counters_seen)
            elif step in ("register", "register-excluded", "register-pin", "register-hmac", "register-protect", "register-user"):
                user = {"id": argument.encode(), "name": argument, "displayName": argument} if step == "register-user" else USER
                options, state = server.register_begin(user, credentials if step == "register-excluded" else [],
                                                       resident_key=True, user_verification="required")
                request = dict(options["publicKey"])
                if step == "register-hmac":
                    request["extensions"] = {"hmacCreateSecret": True}
                if step == "register-protect":
                    request["extensions"] = {"credentialProtectionPolicy": list(CredProtectExtension.POLICY)[int(argument) - 1],
                                             "enforceCredentialProtectionPolicy": True}
                response = client.make_credential(request, pin=argument if step == "register-pin" else None)
                data = server.register_complete(state, response.client_data, response.attestation_object)
                credentials.append(data.credential_data)
                # The server was asked for no attestation; python-fido2's own verifier judges the
                # statement the authenticator gave (its kind, or the exception if it is false).
                attestation = response.attestation_object
                verified = Attestation.for_type(attestation.fmt)().verify(
                    attestation.att_statement, attestation.auth_data, response.client_data.hash)
                result.update(hmac_create=(response.extension_results or {}).get("hmacCreateSecret"),
                              extensions=response.attestation_object.auth_data.extensions)
                result.update(credential=data.credential_data.credential_id.hex(), flags=data.flags,
                              aaguid=data.credential_data.aaguid.hex(), format=attestation.fmt,
                              attestation=verified.attestation_type.name)
            elif step.startswith("login"):
                options, state = server.authenticate_begin([] if step == "login-discoverable" else credentials,
                                                           user_verification="required")
                event = threading.Event()
                if step == "login-cancelled":
                    threading.Timer(0.5, event.set).start()
                selection = client.get_assertion(options["publicKey"], event=event, pin=argument or None)
                assertion = selection.get_response(0)
                server.authenticate_complete(state, credentials, assertion.credential_id, assertion.client_data,
                                             assertion.authenticator_data, assertion.signature)
                counter = assertion.authenticator_data.counter
                if counters and counter <= counters[-1]:
                    raise ValueError("the signature counter did not grow: %d after %d" % (counter, counters[-1]))
                counters.append(counter)
                user = selection.get_assertions()[0].user
                result.update(credential=assertion.credential_id.hex(), counter=counter,
                              flags=assertion.authenticator_data.flags,
                              user=user["name"] if user else None)
            else:
                raise ValueError("unknown step " + step)
            result["ok"] = True
        except (ClientError, CtapError, ValueError, Exception) as error:  # every refusal is a result
            result.update(ok=False, ctap=ctap_status(error), error="%s: %s" % (type(error).__name__, error))
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
