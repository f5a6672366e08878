import Foundation
import JSON
import Model
import Notifications
import Spawn
import TestSupport

@testable import Config
@testable import ShieldBridge

/// What the browser tests share: the extension, its id, a local HTTPS site and a native-host launcher.
enum BrowserSite {
  /// The extension's folder in this checkout.
  static let extensionFolder =
    URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path + "/integrations/webextension"
  /// Chromium's id for it, fixed by the `key` in its manifest.
  static let chromiumID = "hahnefmefkidoenjmmneibdofpfdenhi"
  /// The shield page's address, without its query.
  static let shieldPage = "chrome-extension://\(chromiumID)/shield.html"
  /// The native host's name, as the manifests and the extension spell it.
  static let hostName = "org.shieldbridge.shieldbridge"

  /// A static HTTPS server on 127.0.0.1 with a self-signed certificate: the covered "site".
  static let serverScript = #"""
    import http.server, os, ssl, sys
    os.chdir(sys.argv[1])
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[2], sys.argv[3])
    server.socket = context.wrap_socket(server.socket, server_side=True)
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """#

  /// Starts the HTTPS server for `folder` (with an index page) under `root`; returns it and its port.
  static func startServer(root: String) async throws -> (server: BackgroundProcess, port: Int) {
    let python = try requiredTool("python3", package: "python3")
    let openssl = try requiredTool("openssl", package: "openssl")
    let pages = root + "/site"
    try FileManager.default.createDirectory(atPath: pages, withIntermediateDirectories: true)
    try "<!doctype html><title>feed</title><p>the feed</p>\n".write(
      toFile: pages + "/index.html", atomically: true, encoding: .utf8)
    let made = try await onOwnThread {
      try Subprocess.run(
        [
          openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", root + "/site.key", "-out",
          root + "/site.crt", "-days", "2", "-subj", "/CN=instagram.com",
        ], timeout: .seconds(60))
    }
    guard made.status == 0 else { throw DevToolsError(message: "openssl: \(made.error)") }
    try writeExecutable(root + "/https-server.py", serverScript)
    let server = try BackgroundProcess([
      python, root + "/https-server.py", pages, root + "/site.crt", root + "/site.key",
    ])
    let line = try await server.waitForFirstLine()
    guard let port = Int(line) else { throw DevToolsError(message: "the HTTPS server said '\(line)'") }
    return (server, port)
  }

  /// Writes the launcher the host manifest points at: `shieldbridge native-host` with `environment`.
  ///
  /// Browsers start a host with their own environment and arguments; the
  /// launcher pins the private bus and the sandbox's folders, keeps the
  /// host's stderr (the browser's log) in `log`, and appends each host's pid
  /// (`exec` keeps it) to `pids`.
  static func writeLauncher(at path: String, environment: [String: String], log: String, pids: String) throws {
    var script = "#!/bin/sh\n"
    for (name, value) in environment.sorted(by: { $0.key < $1.key }) {
      script += "export \(name)='\(value.replacingOccurrences(of: "'", with: "'\\''"))'\n"
    }
    script += "echo $$ >> '\(pids)'\n"
    script += "exec '\(ShieldBridgeTool.path)' native-host \"$@\" 2>>'\(log)'\n"
    try writeExecutable(path, script)
  }

  /// Writes the host manifest naming `launcher`, for a browser that allows `allowed`
  /// (`allowed_origins` or `allowed_extensions`), into `folder`.
  static func installManifest(in folder: String, launcher: String, allowed: (key: String, value: String)) throws {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let manifest = JSONValue.object([
      ("name", .string(hostName)), ("description", "ShieldBridge"),
      ("path", .string(launcher)), ("type", "stdio"), (allowed.key, .array([.string(allowed.value)])),
    ])
    try manifest.serialized.write(toFile: folder + "/\(hostName).json", atomically: true, encoding: .utf8)
  }

  /// The answer to a task as the page shows it ("What is 47 + 38?"), or nil.
  static func answer(to text: String) -> Int? {
    Puzzle.find(in: text)?.answer
  }
}

/// The service side of a browser test: a private bus, `shieldbridge serve`
/// (the processes backend unless told, a minute of one second), the HTTPS
/// site, and the launcher a host manifest points at.
struct SiteService {
  let sandbox: Sandbox
  let desk: EmbeddedNotifications
  let watcher: ServiceWatcher
  let serve: ServeProcess
  let server: BackgroundProcess
  let port: Int
  /// The executable the host manifests name.
  let launcher: String
  /// Where the host's stderr goes.
  let hostLog: String
  /// Where the launcher writes each host's pid, a line each.
  let hostPIDs: String
  /// The service's environment, for the browser too.
  let environment: [String: String]
  /// The browser is a big desktop: one of the test process's few slots, held for the test.
  let slot: DesktopSlot

  /// The rule `social` covering Instagram's app and site, with these limits.
  static func rule(limit: Int, grant: Int, grants: Int) -> String {
    #"{"name":"social","apps":[{"name":"Instagram","class":"instagram","sites":["instagram.com"]}],"#
      + #""dailyLimitMinutes":\#(limit),"grantMinutes":\#(grant),"maxGrantsPerDay":\#(grants),"warnMinutes":0}"#
  }

  /// - Parameters:
  ///   - desktop: config.json's `"desktop"`; the processes backend, which sees no focus, unless told.
  ///   - environment: Set for the service on top of the sandbox's (a display, i3's socket).
  ///   - debug: Whether the service and the hosts log at the debug level.
  init(
    rule: String, desktop: String = "processes", environment extra: [String: String] = [:], debug: Bool = false
  ) async throws {
    let level = debug ? ["SHIELDBRIDGE_LOG_LEVEL": "debug"] : [:]
    // Given back when this value goes, also when starting fails below.
    await DesktopSlots.shared.take()
    slot = DesktopSlot()
    sandbox = try Sandbox()
    try sandbox.writeConfig(#"{"desktop":"\#(desktop)","rules":[\#(rule)]}"#)
    desk = try await EmbeddedNotifications(capabilities: NotificationServer.Configuration.defaultCapabilities)
    watcher = try await ServiceWatcher(address: desk.bus.address)
    environment = sandbox.serviceEnvironment(address: desk.bus.address)
    serve = try await ServeProcess(
      sandbox: sandbox, address: desk.bus.address, watcher: watcher, environment: extra.merging(level) { $1 },
      arguments: ["--minute-length", "1000"])
    (server, port) = try await BrowserSite.startServer(root: sandbox.root.path)
    hostLog = sandbox.root.file("native-host.log")
    launcher = sandbox.root.file("native-host")
    hostPIDs = sandbox.root.file("native-host.pids")
    try BrowserSite.writeLauncher(
      at: launcher, environment: environment.merging(level) { $1 }, log: hostLog, pids: hostPIDs)
  }

  /// The host manifest for the browser with `allowed` (`allowed_origins` or `allowed_extensions`) in `folder`.
  func installManifest(in folder: String, allowed: (key: String, value: String)) throws {
    try BrowserSite.installManifest(in: folder, launcher: launcher, allowed: allowed)
  }

  /// `Usage()`'s entry for the rule `social`.
  func usage() async throws -> JSONValue? {
    let reply = try await watcher.call(ServiceInterface.usage.name)
    return try JSONValue(parsing: try reply.decode(String.self)).usageRule("social")
  }

  /// Waits until the rule `social` counts. A timeout says what the service
  /// and the hosts logged and the last usage seen, so that a failure in a
  /// busy run tells which side stopped.
  func waitUntilCounting(_ what: String, timeout: Duration = .seconds(90)) async throws {
    _ = try await poll(what, timeout: timeout) { try await usage()?["counting"]?.boolValue == true ? true : nil }
  }

  /// Waits until `check` gives a value, as ``poll(_:timeout:every:_:)`` does; a
  /// timeout says what the service and the hosts logged and the last usage seen.
  func poll<T>(
    _ what: String, timeout: Duration = .seconds(90), _ check: () async throws -> T?
  ) async throws -> T {
    do {
      return try await TestSupport.poll(what, timeout: timeout, check)
    } catch {
      let last = (try? await usage()).map { "\($0 as JSONValue?)" } ?? "no answer"
      let host = (try? String(contentsOfFile: hostLog, encoding: .utf8)) ?? ""
      throw DesktopError(
        "\(error)\nusage: \(last)\nhosts: \(hosts)\nserve's log:\n"
          + serve.logLines.suffix(80).joined(separator: "\n") + "\nthe hosts' log:\n" + host.suffix(4000))
    }
  }

  /// The pids of the hosts started so far, in order.
  var hosts: [Int32] {
    ((try? String(contentsOfFile: hostPIDs, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int32($0) }
  }

  /// Stops the service and the site; the host's log.
  func finish() async -> String {
    _ = await serve.terminate()
    server.process.signal(SIGTERM)
    _ = await server.finish()
    return (try? String(contentsOfFile: hostLog, encoding: .utf8)) ?? ""
  }
}
