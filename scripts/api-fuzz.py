#!/usr/bin/env python3
"""Hostile input against a real fpbridged (test mode), over its Unix socket.

Starts `fpbridged --test-mode --socket DIR/s.sock --state-dir DIR/state` in a temporary
DIR and sends, to every POST endpoint: malformed JSON, non-objects, wrong types for every
field, unknown fields, 1 MiB bodies, SQL metacharacters and `../` in every string field,
very long strings, negative and huge numbers; to every GET endpoint: hostile query
parameters. Then: slow clients that stall (must be cut off while the service serves
others), 100 concurrent GET /v1/status, and a client that disconnects in the middle of
an evaluation stream (operations must be back to 0 within a second).

Every answer must be a 2xx or 4xx with a JSON body in the documented shape (plain
`{"ok": true, ...}` / `{"ok": false, "error": {...}}`, or an NDJSON stream that starts
with `started` and ends with one `result`), never a 5xx, never a dropped connection; and
the service must still answer GET /v1/service at the end. With jsonschema and PyYAML
importable, every body (and every stream line) is also validated against
api/fpbridged.openapi.yaml.

Standard library only for the run itself. Prints `N passed, M failed`; exit status 1 on
any failure. `--schemathesis` additionally runs schemathesis through a loopback
TCP→Unix proxy (socat, 127.0.0.1 only).
"""

import argparse
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# --------------------------------------------------------------------------- plumbing


class UnixHTTPConnection(http.client.HTTPConnection):
    def __init__(self, path, timeout=15):
        super().__init__("localhost", timeout=timeout)
        self.unix_path = path

    def connect(self):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        sock.connect(self.unix_path)
        self.sock = sock


class Results:
    def __init__(self, verbose):
        self.passed = 0
        self.failed = []
        self.lock = threading.Lock()
        self.verbose = verbose

    def ok(self, name):
        with self.lock:
            self.passed += 1
            if self.verbose:
                print(f"  ok   {name}")

    def fail(self, name, why):
        with self.lock:
            self.failed.append((name, why))
            print(f"  FAIL {name}: {why}", flush=True)


class Spec:
    """Response validation against the OpenAPI file, when jsonschema and PyYAML are there."""

    def __init__(self, path):
        self.enabled = False
        try:
            import jsonschema  # noqa: F401
            import yaml
        except ImportError:
            print("note: jsonschema/PyYAML not importable: bodies are checked for the common shape only")
            return
        with open(path) as handle:
            self.doc = yaml.safe_load(handle)
        self.jsonschema = jsonschema
        self.routes = []
        for template, item in self.doc["paths"].items():
            pattern = "^" + re.sub(r"\{[^}]+\}", "[^/]*", template) + "$"
            self.routes.append((re.compile(pattern), item))
        self.enabled = True

    def _schema(self, schema):
        resolved = dict(schema)
        resolved["components"] = self.doc["components"]
        return resolved

    def response_schema(self, method, path, status):
        """(schema, media type) or an error string."""
        for pattern, item in self.routes:
            if pattern.match(path) and method.lower() in item:
                responses = item[method.lower()]["responses"]
                response = responses.get(str(status))
                if response is None:
                    return f"status {status} is not documented for {method} {path}"
                if "$ref" in response:
                    response = self.doc["components"]["responses"][response["$ref"].split("/")[-1]]
                (media, content), = response["content"].items()
                return self._schema(content["schema"]), media
        if status == 404:
            # A path the router knows but with an id or button that does not exist: the error body.
            return self._schema({"$ref": "#/components/schemas/ErrorBody"}), "application/json"
        return f"{method} {path} is not documented"

    def validate(self, schema, value):
        validator = self.jsonschema.Draft4Validator(schema)
        errors = sorted(validator.iter_errors(value), key=lambda e: list(e.path))
        if errors:
            best = self.jsonschema.exceptions.best_match(errors)
            return f"does not match the spec: {best.message} at {list(best.absolute_path)}"
        return None


class Fuzzer:
    def __init__(self, args):
        self.args = args
        self.results = Results(args.verbose)
        self.dir = tempfile.mkdtemp(prefix="fpbridge-api-fuzz.")
        self.sock = os.path.join(self.dir, "s.sock")
        self.state = os.path.join(self.dir, "state")
        self.spec = Spec(args.spec)
        self.process = None
        self.log = None
        self.reader_503 = 0

    # ------------------------------------------------------------------ service

    def start(self):
        binary = os.path.join(self.dir, "fpbridged")
        # A private copy: the tree's binary may be rebuilt while this runs.
        for _ in range(60):
            if os.path.exists(self.args.binary):
                try:
                    shutil.copy2(self.args.binary, binary)
                    break
                except OSError:
                    pass
            time.sleep(2)
        else:
            sys.exit(f"api-fuzz: no binary at {self.args.binary}")
        self.log = open(os.path.join(self.dir, "fpbridged.log"), "wb")
        self.process = subprocess.Popen(
            [binary, "--test-mode", "--socket", self.sock, "--state-dir", self.state],
            stdout=self.log, stderr=subprocess.STDOUT, env={k: v for k, v in os.environ.items()
                                                             if not k.startswith("FPBRIDGE_")})
        deadline = time.time() + 20
        while time.time() < deadline:
            if self.process.poll() is not None:
                sys.exit(f"api-fuzz: fpbridged exited with {self.process.returncode}; see {self.log.name}")
            try:
                status, _, _ = self.raw_request("GET", "/v1/service")
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        sys.exit("api-fuzz: fpbridged did not answer within 20 s")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        if self.log:
            self.log.close()

    def alive(self):
        return self.process.poll() is None

    # ------------------------------------------------------------------ requests

    def raw_request(self, method, path, body=None, headers=None, timeout=15):
        conn = UnixHTTPConnection(self.sock, timeout=timeout)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            return response.status, response.getheader("Content-Type", ""), response.read()
        finally:
            conn.close()

    def check_plain(self, name, method, path, status, ctype, data):
        """A plain JSON answer: 2xx/4xx, JSON object, `ok` matching the status, spec shape."""
        if status >= 500 and not self.documented_503(status, ctype, data):
            return f"{status} (server error): {data[:300]!r}"
        if not (200 <= status < 300 or 400 <= status < 500 or status == 503):
            return f"status {status}"
        if not ctype.startswith("application/json"):
            return f"status {status} with Content-Type {ctype!r}: {data[:200]!r}"
        try:
            body = json.loads(data)
        except ValueError:
            return f"status {status}, body is not JSON: {data[:200]!r}"
        if not isinstance(body, dict) or body.get("ok") is not (status < 300):
            return f"status {status} with body {data[:200]!r}"
        if status >= 400:
            error = body.get("error")
            if set(body) != {"ok", "error"} or not isinstance(error, dict) \
                    or not isinstance(error.get("code"), int) or not isinstance(error.get("name"), str) \
                    or not isinstance(error.get("message"), str) \
                    or not isinstance(error.get("cause", ""), str) \
                    or not set(error) <= {"code", "name", "message", "retryAfter", "cause"}:
                return f"error body not in the documented shape: {data[:300]!r}"
        if self.spec.enabled:
            found = self.spec.response_schema(method, path.split("?")[0], status)
            if isinstance(found, str):
                return found
            schema, media = found
            if media != "application/json":
                return f"status {status} answered as JSON, documented as {media}"
            problem = self.spec.validate(schema, body)
            if problem:
                return f"{status} {problem}: {data[:300]!r}"
        return None

    # 503 is the documented answer for a reader that is missing, busy, hot or failing (and for
    # a streamed operation asked for while the machine goes to sleep): an answer, not a crash.
    READER_CODES = {"readerBusy", "biometryNotAvailable", "readerTooHot", "readerFailure",
                    "biometryDisconnected", "systemCancel"}

    def documented_503(self, status, ctype, data):
        if status != 503 or not ctype.startswith("application/json"):
            return False
        try:
            body = json.loads(data)
        except ValueError:
            return False
        if isinstance(body, dict) and isinstance(body.get("error"), dict) \
                and body["error"].get("name") in self.READER_CODES:
            with self.results.lock:
                self.reader_503 += 1
            return True
        return False

    def check_stream_line(self, method, path, line):
        if not self.spec.enabled:
            return None
        found = self.spec.response_schema(method, path, 200)
        if isinstance(found, str):
            return found
        schema, media = found
        if media != "application/x-ndjson":
            return f"a stream, documented as {media}"
        return self.spec.validate(schema, line)

    def request(self, name, method, path, body=None, headers=None, expect=None, stream_ok=False,
                stream_timeout=8.0):
        """Sends one request and checks the answer; returns (status, body or lines) or None."""
        if isinstance(body, (dict, list)) or body is None and method == "POST":
            body = json.dumps(body if body is not None else {}).encode()
        elif isinstance(body, str):
            body = body.encode("utf-8", "surrogatepass")
        conn = UnixHTTPConnection(self.sock, timeout=20)
        try:
            try:
                conn.request(method, path, body=body, headers=headers or {},
                             encode_chunked="Transfer-Encoding" in (headers or {}))
            except (BrokenPipeError, ConnectionResetError):
                pass  # the service may answer (413) before reading a large body; the answer is still there
            try:
                response = conn.getresponse()
            except (OSError, http.client.HTTPException) as error:
                self.results.fail(name, f"no answer (dropped connection): {error!r}")
                return None
            ctype = response.getheader("Content-Type", "")
            if response.status == 200 and ctype.startswith("application/x-ndjson"):
                if not stream_ok:
                    self.results.fail(name, "answered with a stream where a plain answer is documented")
                    return None
                lines = self.read_stream(name, method, path, conn, response, stream_timeout)
                if lines is None:
                    return None
                if expect and response.status not in expect:
                    self.results.fail(name, f"status {response.status}, expected {sorted(expect)}")
                    return None
                self.results.ok(name)
                return response.status, lines
            try:
                data = response.read()
            except (OSError, http.client.HTTPException) as error:
                self.results.fail(name, f"body cut: {error!r}")
                return None
            problem = self.check_plain(name, method, path, response.status, ctype, data)
            if problem:
                self.results.fail(name, problem)
                return None
            if expect and response.status not in expect:
                self.results.fail(name, f"status {response.status}, expected {sorted(expect)}: {data[:200]!r}")
                return None
            self.results.ok(name)
            return response.status, json.loads(data)
        finally:
            conn.close()

    def read_stream(self, name, method, path, conn, response, timeout):
        """Reads an NDJSON stream to its result; answers passcode questions with cancel, presses
        cancel on an operation still running after `timeout`, and gives up after twice that."""
        lines = []
        holder = {"operation": None}

        def cancel():
            if holder["operation"]:
                self.control(holder["operation"], "cancel")

        timer = threading.Timer(timeout, cancel)
        timer.daemon = True
        timer.start()
        conn.sock.settimeout(timeout * 2)
        try:
            while True:
                try:
                    raw = response.readline()
                except (socket.timeout, TimeoutError):
                    self.results.fail(name, f"stream hangs ({timeout * 2:.0f} s without a result, "
                                            f"cancel pressed after {timeout:.0f} s): {lines}")
                    return None
                except (OSError, http.client.HTTPException) as error:
                    self.results.fail(name, f"stream cut: {error!r} after {lines}")
                    return None
                if raw == b"":
                    self.results.fail(name, f"stream ended without a result: {lines}")
                    return None
                try:
                    line = json.loads(raw)
                except ValueError:
                    self.results.fail(name, f"stream line is not JSON: {raw[:200]!r}")
                    return None
                problem = self.check_stream_line(method, path, line)
                if problem:
                    self.results.fail(name, f"stream line {raw[:300]!r} {problem}")
                    return None
                if not lines and line.get("type") != "started":
                    self.results.fail(name, f"stream does not start with 'started': {raw[:200]!r}")
                    return None
                lines.append(line)
                kind = line.get("type")
                if kind == "started":
                    holder["operation"] = line.get("operation")
                elif kind == "passcodeRequested":
                    self.control(holder["operation"], "passcode", {"cancel": True})
                elif kind == "result":
                    rest = response.read()
                    if rest.strip():
                        self.results.fail(name, f"lines after the result: {rest[:200]!r}")
                        return None
                    return lines
        finally:
            timer.cancel()

    def control(self, operation, button, body=None):
        try:
            self.raw_request("POST", f"/v1/operations/{operation}/{button}",
                             body=json.dumps(body).encode() if body is not None else None)
        except OSError:
            pass

    # ------------------------------------------------------------------ setup

    def script(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as handle:
            handle.write(text)
        return path

    def setup(self):
        """A passcode, an enrolled print on the fake reader and a key, so that the fuzzed
        requests get past the first checks."""
        self.enroll_script = self.script("enroll.fs", "scan a\n" * 5)
        self.match_script = self.script("match.fs", "scan a\n")
        self.wait_script = self.script("wait.fs", "wait 30000\n")
        status = self.run_stream("/v1/passcode", {"action": "set", "passcode": "1234"})
        enrolled = self.run_stream("/v1/enrollments", {"finger": "right-index",
                                                       "reader": "fake:" + self.enroll_script},
                                   passcode="1234")
        key = self.raw_request("POST", "/v1/keys", json.dumps(
            {"label": "k1", "accessControl": "devicePasscode"}).encode())
        if not (status and status[-1].get("ok") and enrolled and enrolled[-1].get("ok") and key[0] == 200):
            sys.exit(f"api-fuzz: setup failed: passcode {status}, enrollment {enrolled}, key {key}")

    def run_stream(self, path, body, passcode=None):
        conn = UnixHTTPConnection(self.sock, timeout=30)
        try:
            conn.request("POST", path, body=json.dumps(body).encode())
            response = conn.getresponse()
            lines = []
            while True:
                raw = response.readline()
                if not raw:
                    return lines
                line = json.loads(raw)
                lines.append(line)
                if line["type"] == "started":
                    operation = line["operation"]
                elif line["type"] == "passcodeRequested":
                    self.control(operation, "passcode", {"passcode": passcode} if passcode else {"cancel": True})
                elif line["type"] == "result":
                    return lines
        finally:
            conn.close()

    # ------------------------------------------------------------------ bodies

    def endpoints(self):
        """Each POST endpoint: a valid body with every field, and whether it streams."""
        reader = "fake:" + self.match_script
        return [
            ("/v1/can-evaluate", {"policy": "biometrics", "user": "root", "reader": reader,
                                  "stateDirectory": self.state}, False),
            ("/v1/evaluations", {"operation": "evaluate", "policy": "device-owner", "reason": "fuzz",
                                 "fingers": ["right-index"], "attempts": 2, "fallbackTitle": "F",
                                 "cancelTitle": "C", "interactionNotAllowed": False, "timeoutSeconds": 5,
                                 "wait": False, "user": "root", "reader": reader,
                                 "stateDirectory": self.state}, True),
            ("/v1/evaluations", {"operation": "identify-and-prove", "reason": "fuzz", "attempts": 2,
                                 "proof": {"purpose": "kiosk-login", "origin": "https://bank.example",
                                           "challenge": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"},
                                 "timeoutSeconds": 5, "wait": False, "reader": reader,
                                 "stateDirectory": self.state}, True),
            ("/v1/enrollments", {"finger": "left-thumb", "replace": True, "user": "root",
                                 "reader": "fake:" + self.enroll_script, "stateDirectory": self.state}, True),
            ("/v1/passcode", {"action": "change", "passcode": "1234", "user": "root", "reader": reader,
                              "stateDirectory": self.state}, True),
            ("/v1/prints/delete", {"finger": "left-little", "user": "root", "reader": reader,
                                   "stateDirectory": self.state}, False),
            ("/v1/keys", {"label": "fuzz", "accessControl": "devicePasscode", "user": "root",
                          "reader": reader, "stateDirectory": self.state}, False),
            ("/v1/keys/delete", {"label": "nope", "user": "root", "reader": reader,
                                 "stateDirectory": self.state}, False),
            ("/v1/keys/sign", {"label": "k1", "dataBase64": "aGVsbG8=", "reason": "fuzz", "user": "root",
                               "reader": reader, "stateDirectory": self.state}, True),
            ("/v1/operations/0123456789abcdef0123456789abcdef/passcode", {"passcode": "1", "cancel": False}, False),
            ("/v1/passcode-check", {"user": "pinpad", "passcode": "1234", "reader": reader,
                                    "stateDirectory": self.state}, False),
        ]

    def hostile_strings(self):
        d = self.dir
        return [
            "", " ", "' OR '1'='1", "'; DROP TABLE prints; --", "\" OR \"\"=\"", "%' --", "1; SELECT * FROM users",
            "../../../../etc/passwd", "..", "../", "..\\..\\windows", "/../../etc/shadow", "a/../../b",
            d + "/state/../../../etc", d + "/x/../state", d + "/evil'; --", "/dev/null/x", "/proc/fpbridge-fuzz",
            "fake:" + d + "/../../etc/passwd", "fake:" + d + "/missing.fs", "fake:", "libfprint:'; --",
            "libfprint:../../x", "auto:x", "\u0000", "a\u0000b", "\n\r\t", "\u202e\u0301\ufeff", "😀" * 100,
            "%00%2e%2e%2f", "${jndi:ldap://x}", "$(id)", "`id`", "A" * 5000, "B" * 60000,
        ]

    WRONG_TYPES = [0, -1, 1.5, True, False, [], [1], {}, {"a": 1}, "s"]
    NUMBERS_RAW = ["-1", "0", "-9223372036854775808", "9223372036854775807", "9223372036854775808",
                   "1e308", "-1e308", "1e400", "-0", "0.0000001", "99999999999999999999999999999999",
                   "NaN", "Infinity", "1.5"]

    def fuzz_posts(self):
        malformed = [b"", b"{", b"}", b"{\"a\":}", b"{'a': 1}", b"\xff\xfe\x00", b"[]", b"[{}]", b"1", b"\"s\"",
                     b"null", b"true", b"{}", b"{\"a\":1,}", b"{\"a\" 1}", b"\x00" * 10, b"{" * 5000,
                     b"[" * 20000, b"{\"user\":\"root\",\"user\":\"x\"}", b"\xef\xbb\xbf{}"]
        for path, base, streams in self.endpoints():
            short = path if "operations" not in path else "/v1/operations/ID/passcode"
            gone = "operations" in path  # no such operation: 404 comes before the body is read
            for index, body in enumerate(malformed):
                self.request(f"{short} malformed #{index}", "POST", path, body=body, expect=None if gone else range(400, 500),
                             stream_ok=streams)
            self.request(f"{short} valid", "POST", path, body=base, stream_ok=streams)
            for field in base:
                for value in self.WRONG_TYPES:
                    if type(value) is type(base[field]) and value != base[field]:
                        continue
                    if isinstance(base[field], bool) and isinstance(value, bool):
                        continue
                    if isinstance(base[field], (int, float)) and not isinstance(base[field], bool) \
                            and isinstance(value, (int, float)) and not isinstance(value, bool):
                        continue
                    body = dict(base, **{field: value})
                    self.request(f"{short} {field}={json.dumps(value)}", "POST", path, body=body,
                                 expect=None if gone else range(400, 500), stream_ok=streams)
                for value in self.hostile_strings():
                    if not isinstance(base[field], str):
                        continue
                    body = dict(base, **{field: value})
                    label = value if len(value) < 40 else value[:20] + f"…({len(value)})"
                    self.request(f"{short} {field}={label!r}", "POST", path, body=body, stream_ok=streams)
                for raw in self.NUMBERS_RAW:
                    if isinstance(base[field], bool) or not isinstance(base[field], (int, float)):
                        continue
                    body = json.dumps(dict(base, **{field: "@@"})).replace('"@@"', raw)
                    self.request(f"{short} {field}={raw}", "POST", path, body=body, stream_ok=streams)
                if isinstance(base[field], list):
                    for value in [["pinky"], ["right-index"] * 1000, [None], [[]]]:
                        body = dict(base, **{field: value})
                        self.request(f"{short} {field}=list({len(value)})", "POST", path, body=body,
                                     stream_ok=streams)
                without = {k: v for k, v in base.items() if k != field}
                self.request(f"{short} without {field}", "POST", path, body=without, stream_ok=streams)
                self.request(f"{short} {field}=null", "POST", path, body=dict(base, **{field: None}),
                             stream_ok=streams)
            for extra in [{"bogus": 1}, {"__proto__": {"admin": True}}, {"ok": True}, {"User": "root"},
                          {"constructor": {}}, {"x" * 1000: "y"}]:
                self.request(f"{short} unknown field {list(extra)[0][:20]}", "POST", path,
                             body=dict(base, **extra), expect=None if gone else {400}, stream_ok=streams)
            huge = json.dumps(dict(base, reason="R" * (1 << 20))).encode()
            self.request(f"{short} 1 MiB JSON", "POST", path, body=huge, expect=None if gone else {413}, stream_ok=streams)
            self.request(f"{short} 1 MiB garbage", "POST", path, body=os.urandom(1 << 20), expect=None if gone else {413},
                         stream_ok=streams)
            self.request(f"{short} 1 MiB chunked", "POST", path, body=iter([b"{\"a\":\"" + b"x" * 65536] * 16),
                         headers={"Transfer-Encoding": "chunked"}, expect=None if gone else {413}, stream_ok=streams)
            self.request(f"{short} just over 64 KiB", "POST", path, body=b" " * 65537,
                         expect=None if gone else {413}, stream_ok=streams)

    def fuzz_live_passcode(self):
        """Hostile answers to an operation that really asks for a passcode (unlock), then cancel."""
        name = "live /v1/operations/ID/passcode"
        conn = UnixHTTPConnection(self.sock, timeout=20)
        try:
            conn.request("POST", "/v1/evaluations", body=json.dumps(
                {"operation": "unlock", "reader": "fake:" + self.wait_script}).encode())
            response = conn.getresponse()
            operation = None
            while True:
                line = json.loads(response.readline() or b"{}")
                if line.get("type") == "started":
                    operation = line["operation"]
                elif line.get("type") == "passcodeRequested":
                    break
                elif line.get("type") == "event":
                    continue
                else:
                    self.results.fail(name, f"no passcode question: {line}")
                    return
            path = f"/v1/operations/{operation}/passcode"
            bodies = [b"", b"{", b"[]", b"1", b"null", b"{\"passcode\":1}", b"{\"cancel\":\"yes\"}",
                      b"{\"passcode\":[\"1\"]}", b"{\"bogus\":1}", b"{\"passcode\":\"1\",\"x\":null,\"y\":0}",
                      b"{\"cancel\":1e400}"]
            for index, body in enumerate(bodies):
                self.request(f"{name} hostile #{index}", "POST", path, body=body, expect=range(400, 500))
            self.request(f"{name} 1 MiB", "POST", path, body=json.dumps({"passcode": "1" * (1 << 20)}), expect={413})
            self.request(f"{name} fallback while asking", "POST", f"/v1/operations/{operation}/fallback",
                         expect={200})
            self.request(f"{name} cancel answer", "POST", path, body={"cancel": True}, expect={200})
            lines = []
            while True:
                raw = response.readline()
                if not raw:
                    break
                lines.append(json.loads(raw))
            if lines and lines[-1].get("type") == "result" and lines[-1].get("ok") is False:
                self.results.ok(f"{name} stream ends with an error result")
            else:
                self.results.fail(f"{name} stream", f"did not end with a failed result: {lines}")
            self.request(f"{name} after the end", "POST", path, body={"cancel": True}, expect={404})
        except (OSError, ValueError, http.client.HTTPException) as error:
            self.results.fail(name, repr(error))
        finally:
            conn.close()

    def fuzz_controls(self):
        for button in ["fallback", "cancel", "passcode", "bogus", "..", "%2e%2e", "'--", "A" * 3000]:
            for operation in ["0123456789abcdef0123456789abcdef", "..", "%2e%2e", "%27%20OR%201=1%20--", "A" * 3000, "-1"]:
                path = f"/v1/operations/{operation}/{button}"
                self.request(f"/v1/operations/{operation[:12]}/{button[:12]}", "POST", path,
                             body=b"{}", expect={404})

    def fuzz_gets(self):
        from urllib.parse import quote
        paths = ["/v1/service", "/v1/status", "/v1/prints", "/v1/keys", "/v1/identity",
                 "/v1/keys/attestation?label=k1", "/v1/reader"]
        for path in paths:
            self.request(f"GET {path}", "GET", path, expect={200})
        values = self.hostile_strings() + ["root", "nobody", "x" * 65]
        for path in paths[1:]:
            sep = "&" if "?" in path else "?"
            for parameter in ["user", "reader", "stateDirectory", "label"]:
                for value in values:
                    if len(value) > 6000:
                        continue  # a URL that long is the router's business
                    full = f"{path}{sep}{parameter}={quote(value, safe='')}"
                    self.request(f"GET {path} {parameter}={value[:30]!r}", "GET", full)
            self.request(f"GET {path} unknown parameter", "GET", f"{path}{sep}bogus=1", expect={400})
            self.request(f"GET {path} repeated", "GET", f"{path}{sep}user=root&user=nobody")
            self.request(f"GET {path} bad escapes", "GET", f"{path}{sep}user=%zz%&=&&")
        self.request("GET attestation without label", "GET", "/v1/keys/attestation", expect={400})

    # ------------------------------------------------------------------ behaviour

    def slow_clients(self):
        """Clients that stall: partial headers, and headers promising a body that never comes."""
        stalls = {
            "partial headers": b"POST /v1/can-evaluate HTTP/1.1\r\nHost: x\r\nContent-Le",
            "body never sent": b"POST /v1/can-evaluate HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"pol",
            "stream body never sent": b"POST /v1/evaluations HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n",
        }
        threads = []
        outcomes = {}

        def stall(name, data):
            started = time.time()
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.connect(self.sock)
            sock.sendall(data)
            sock.settimeout(self.args.slow_limit)
            try:
                answer = sock.recv(65536)
                outcomes[name] = ("closed", time.time() - started, answer)
            except (socket.timeout, TimeoutError):
                outcomes[name] = ("still open", time.time() - started, b"")
            except OSError as error:
                outcomes[name] = ("reset", time.time() - started, repr(error).encode())
            finally:
                sock.close()

        for name, data in stalls.items():
            thread = threading.Thread(target=stall, args=(name, data), daemon=True)
            thread.start()
            threads.append(thread)
        return threads, outcomes

    def check_slow_clients(self, threads, outcomes):
        for thread in threads:
            thread.join(self.args.slow_limit + 5)
        for name, (what, seconds, answer) in sorted(outcomes.items()):
            label = f"slow client ({name})"
            if what == "still open":
                self.results.fail(label, f"not cut off after {seconds:.0f} s")
                continue
            status = re.match(rb"HTTP/1\.1 (\d{3})", answer)
            if status and int(status.group(1)) >= 500:
                self.results.fail(label, f"cut off after {seconds:.0f} s with {answer[:200]!r}")
            else:
                print(f"  note: {label}: cut off ({what}) after {seconds:.1f} s"
                      + (f" with {answer.splitlines()[0]!r}" if answer else " without an answer"))
                self.results.ok(label)

    def serving_during_stall(self):
        self.request("GET /v1/service while slow clients stall", "GET", "/v1/service", expect={200})

    def concurrent_status(self, count=100):
        barrier = threading.Barrier(count)
        failures = []

        def one(index):
            try:
                barrier.wait(10)
                status, ctype, data = self.raw_request("GET", "/v1/status", timeout=30)
                problem = self.check_plain("status", "GET", "/v1/status", status, ctype, data)
                if problem or status != 200:
                    failures.append(f"#{index}: {problem or status}")
            except Exception as error:  # noqa: BLE001 (any failure of a client is a finding)
                failures.append(f"#{index}: {error!r}")

        threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
        started = time.time()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        name = f"{count} concurrent GET /v1/status"
        if failures:
            self.results.fail(name, f"{len(failures)} failed: {failures[:5]}")
        else:
            print(f"  note: {name} in {time.time() - started:.2f} s")
            self.results.ok(name)

    def operations(self):
        status, _, data = self.raw_request("GET", "/v1/service")
        return json.loads(data).get("operations") if status == 200 else None

    def disconnect_mid_stream(self):
        name = "disconnect in the middle of POST /v1/evaluations"
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(10)
        sock.connect(self.sock)
        body = json.dumps({"operation": "evaluate", "reader": "fake:" + self.wait_script}).encode()
        sock.sendall(b"POST /v1/evaluations HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        received = b""
        deadline = time.time() + 10
        while b"presentFinger" not in received and time.time() < deadline:
            chunk = sock.recv(4096)
            if not chunk:
                break
            received += chunk
        if b"presentFinger" not in received:
            sock.close()
            self.results.fail(name, f"the evaluation did not start scanning: {received[:300]!r}")
            return
        running = self.operations()
        sock.close()
        closed = time.time()
        while time.time() - closed < 5:
            if self.operations() == 0:
                break
            time.sleep(0.02)
        seconds = time.time() - closed
        if running != 1:
            self.results.fail(name, f"operations was {running} while the evaluation ran (expected 1)")
        elif seconds > 1.0:
            self.results.fail(name, f"operations back to 0 only after {seconds:.2f} s (limit 1 s)")
        else:
            print(f"  note: {name}: operations back to 0 {seconds * 1000:.0f} ms after the close")
            self.results.ok(name)
        # The reader is free again: the next evaluation on it starts at once.
        self.request("evaluation after the disconnect (reader released)", "POST", "/v1/evaluations",
                     body={"operation": "evaluate", "reader": "fake:" + self.match_script, "wait": False},
                     expect={200}, stream_ok=True)

    def unknown_routes(self):
        # Documented: a path or method the service does not know is a 404 with the error body.
        for method, path in [("GET", "/"), ("GET", "/v1"), ("GET", "/v2/service"), ("DELETE", "/v1/keys"),
                             ("PUT", "/v1/status"), ("GET", "/v1/../v1/service"), ("GET", "/v1/service/..")]:
            name = f"{method} {path} (unknown route)"
            try:
                status, ctype, data = self.raw_request(method, path)
            except OSError as error:
                self.results.fail(name, f"dropped: {error!r}")
                continue
            if status >= 500:
                self.results.fail(name, f"{status}: {data[:200]!r}")
            elif 200 <= status < 500 and data != b"" and \
                    self.check_plain(name, method, path, status, ctype, data) is None:
                self.results.ok(name)
            else:
                self.results.fail(name, f"{status} {ctype!r} {data[:200]!r}")

    # ------------------------------------------------------------------ schemathesis

    def schemathesis(self):
        port = self.args.proxy_port
        proxy = subprocess.Popen(["socat", f"TCP-LISTEN:{port},bind=127.0.0.1,reuseaddr,fork",
                                  f"UNIX-CONNECT:{self.sock}"], stderr=subprocess.DEVNULL)
        try:
            time.sleep(0.5)
            command = ["schemathesis", "run", self.args.spec, "--url", f"http://127.0.0.1:{port}",
                       "--checks", "not_a_server_error", "--max-examples", str(self.args.examples),
                       "--request-timeout", "20"]
            print("  running: " + " ".join(command), flush=True)
            # In the temporary directory: schemathesis leaves a .schemathesis/ cache where it runs.
            result = subprocess.run(command, timeout=self.args.schemathesis_timeout, cwd=self.dir)
            if result.returncode == 0:
                self.results.ok("schemathesis (no server error)")
            else:
                self.results.fail("schemathesis", f"exit status {result.returncode} (see its report above)")
        except FileNotFoundError as error:
            self.results.fail("schemathesis", f"not installed: {error}")
        except subprocess.TimeoutExpired:
            self.results.fail("schemathesis", f"did not finish within {self.args.schemathesis_timeout} s")
        finally:
            proxy.terminate()
            proxy.wait()

    # ------------------------------------------------------------------ run

    def run(self):
        print(f"api-fuzz: fpbridged in {self.dir}")
        self.start()
        try:
            self.setup()
            print("== slow clients (left stalling while the rest runs)")
            threads, outcomes = self.slow_clients()
            time.sleep(0.5)
            self.serving_during_stall()
            print("== POST endpoints")
            self.fuzz_posts()
            print("== control endpoints")
            self.fuzz_controls()
            self.fuzz_live_passcode()
            print("== GET endpoints")
            self.fuzz_gets()
            self.unknown_routes()
            print("== concurrency")
            self.concurrent_status()
            print("== disconnect in the middle of a stream")
            self.disconnect_mid_stream()
            if self.args.schemathesis:
                print("== schemathesis")
                self.schemathesis()
            print("== slow clients: waiting for the service to cut them off")
            self.check_slow_clients(threads, outcomes)
            self.serving_during_stall()
            name = "service still answers GET /v1/service at the end"
            if not self.alive():
                self.results.fail(name, f"fpbridged exited with {self.process.returncode}")
            else:
                self.request(name, "GET", "/v1/service", expect={200})
        finally:
            self.stop()
        failed = len(self.results.failed)
        if failed:
            print("\nFailures:")
            for name, why in self.results.failed:
                print(f"  {name}: {why}")
            print(f"log: {self.log.name}")
        elif not self.args.keep:
            shutil.rmtree(self.dir, ignore_errors=True)
        if self.reader_503:
            print(f"note: {self.reader_503} answers were the documented 503 for a missing or busy reader")
        print(f"{self.results.passed} passed, {failed} failed")
        return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/debug/fpbridged"))
    parser.add_argument("--spec", default=os.path.join(ROOT, "api/fpbridged.openapi.yaml"))
    parser.add_argument("--slow-limit", type=float, default=90.0,
                        help="seconds a stalled client may stay connected (fpbridged's idle timeout is 60 s)")
    parser.add_argument("--schemathesis", action="store_true", help="also run schemathesis through socat")
    parser.add_argument("--examples", type=int, default=25, help="schemathesis examples per operation")
    parser.add_argument("--schemathesis-timeout", type=int, default=900)
    parser.add_argument("--proxy-port", type=int, default=18631)
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every passing check")
    sys.exit(Fuzzer(parser.parse_args()).run())


if __name__ == "__main__":
    main()
