import Foundation
import JSON
import TestSupport

/// Firefox driven through Marionette, its own remote protocol (Debian has no geckodriver).
///
/// Marionette listens on a TCP port on 127.0.0.1 (`marionette.port` 0 picks a
/// free one and writes it into the profile's `MarionetteActivePort`) and
/// speaks `LENGTH:JSON`. A short Python script (standard library only) starts
/// Firefox, connects, and relays that as lines.
final class Marionette: Sendable {
  private let relayed: RelayedBrowser

  /// The relay: the profile folder, then Firefox's argv.
  static let relay = #"""
    import json, os, socket, subprocess, sys, threading, time
    profile = sys.argv[1]
    port_file = os.path.join(profile, "MarionetteActivePort")
    if os.path.exists(port_file):
        os.remove(port_file)
    firefox = subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not os.path.exists(port_file) or not open(port_file).read().strip():
        if firefox.poll() is not None or time.monotonic() > deadline:
            sys.exit("firefox ended or did not open Marionette")
        time.sleep(0.05)
    connection = socket.create_connection(("127.0.0.1", int(open(port_file).read())))
    def messages():
        pending = b""
        while True:
            while b":" not in pending:
                chunk = connection.recv(65536)
                if not chunk:
                    return
                pending += chunk
            length, pending = pending.split(b":", 1)
            while len(pending) < int(length):
                chunk = connection.recv(65536)
                if not chunk:
                    return
                pending += chunk
            yield pending[:int(length)]
            pending = pending[int(length):]
    def relay_out():
        stream = messages()
        next(stream, None)  # the greeting
        for message in stream:
            sys.stdout.buffer.write(message.replace(b"\n", b" ") + b"\n")
            sys.stdout.buffer.flush()
    threading.Thread(target=relay_out, daemon=True).start()
    for line in sys.stdin.buffer:
        line = line.strip()
        if line:
            connection.sendall(str(len(line)).encode() + b":" + line)
    try:
        firefox.wait(timeout=20)
    except subprocess.TimeoutExpired:
        firefox.kill()
        firefox.wait()
    """#

  /// Starts `firefox` (its argv, with `--marionette --profile PROFILE`) under the relay written into `folder`.
  init(firefox: [String], profile: String, environment: [String: String], folder: String) throws {
    relayed = try RelayedBrowser(
      script: Self.relay, name: "marionette-relay.py", arguments: [profile] + firefox,
      environment: environment, folder: folder
    ) { message in
      guard let array = message.arrayValue, array.count == 4, array[0].integerValue == 1 else { return nil }
      return array[1].integerValue.map(Int.init)
    }
  }

  /// What Firefox and the relay wrote on stderr so far.
  var standardError: String { relayed.standardError }

  /// Sends the command `name` with `parameters`; its result.
  ///
  /// - Throws: ``DevToolsError`` with Marionette's error, ``PollTimedOut`` when it does not answer.
  @discardableResult
  func call(_ name: String, _ parameters: JSONValue = .object([]), timeout: Duration = .seconds(30)) async throws
    -> JSONValue
  {
    let id = relayed.nextID()
    let reply = try await relayed.send(
      .array([0, .integer(Int64(id)), .string(name), parameters]), id: id, what: name, timeout: timeout)
    let parts = reply.arrayValue ?? []
    if parts.count == 4, parts[2] != .null { throw DevToolsError(message: "\(name): \(parts[2].serialized)") }
    return parts.count == 4 ? parts[3] : .null
  }

  /// Runs `script` (a function body) in the current tab's page; its return value.
  @discardableResult
  func execute(_ script: String) async throws -> JSONValue {
    try await call("WebDriver:ExecuteScript", .object([("script", .string(script)), ("args", .array([]))]))[
      "value"] ?? .null
  }

  /// The current tab's address.
  func currentURL() async throws -> String {
    try await call("WebDriver:GetCurrentURL")["value"]?.stringValue ?? ""
  }

  /// Asks Firefox to quit, then ends the relay.
  func close() async {
    _ = try? await call("Marionette:Quit", .object([("flags", .array(["eForceQuit"]))]), timeout: .seconds(10))
    _ = await relayed.close()
  }
}

extension Marionette {
  /// Creates the Firefox profile folder `profile` with the preferences the tests run under:
  /// Marionette on a free port, no first-run pages or reports, unsigned add-ons allowed (unless
  /// `unsignedAddons` is false), and, as Firefox has no host-resolver rules, the covered names
  /// (and `www.reddit.com`, a site no rule covers) resolving to 127.0.0.1 while every other
  /// request goes to a proxy that is not there.
  static func prepareProfile(_ profile: String, unsignedAddons: Bool = true) throws {
    try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
    var preferences = [
      ("marionette.port", "0"),
      ("network.dns.localDomains", "\"instagram.com,www.instagram.com,www.reddit.com\""),
      ("network.proxy.type", "1"),
      ("network.proxy.http", "\"127.0.0.1\""), ("network.proxy.http_port", "9"),
      ("network.proxy.ssl", "\"127.0.0.1\""), ("network.proxy.ssl_port", "9"),
      ("network.proxy.no_proxies_on", "\"instagram.com, www.instagram.com, www.reddit.com\""),
      ("browser.shell.checkDefaultBrowser", "false"),
      ("datareporting.policy.dataSubmissionEnabled", "false"),
      ("toolkit.telemetry.reportingpolicy.firstRun", "false"),
      ("app.update.disabledForTesting", "true"),
      ("browser.aboutwelcome.enabled", "false"),
      ("browser.startup.homepage_override.mstone", "\"ignore\""),
    ]
    if unsignedAddons { preferences.append(("xpinstall.signatures.required", "false")) }
    try preferences.map { "user_pref(\"\($0.0)\", \($0.1));\n" }.joined().write(
      toFile: profile + "/user.js", atomically: true, encoding: .utf8)
  }
}
