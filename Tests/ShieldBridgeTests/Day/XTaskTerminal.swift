import Foundation
import TestSupport

/// The terminal a task opens in on an X desk: xterm, found by the service through `TERMINAL`,
/// with its screen written to a file by xterm itself (its `logging` resource, given through
/// `XENVIRONMENT`), so that the service starts it exactly as it would for a user.
struct XTaskTerminal: Sendable {
  let session: XSession
  /// Where xterm appends what each task terminal showed.
  let log: String
  /// The resources file `XENVIRONMENT` names.
  let resources: String

  /// Writes the resources into `folder`.
  init(session: XSession, folder: TemporaryDirectory) throws {
    _ = try requiredTool("xterm", package: "xterm")
    self.session = session
    log = folder.file("task-terminal.log")
    resources = folder.file("xterm-resources")
    try "XTerm*logging: true\nXTerm*logFile: \(log)\n".write(toFile: resources, atomically: true, encoding: .utf8)
  }

  /// What the service needs to open its tasks here.
  var environment: [String: String] { ["TERMINAL": "xterm", "XENVIRONMENT": resources] }

  /// Everything the task terminals showed so far.
  var screen: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

  /// The task's terminal (class `XTerm`: the apps' xterms have classes of their own), once it is on screen.
  func window() async throws -> UInt64 {
    try await poll("the task's xterm on \(session.display)") {
      let found = try await session.run(["xdotool", "search", "--onlyvisible", "--class", "^XTerm$"])
      return found.output.split(separator: "\n").compactMap { UInt64($0) }.last
    }
  }

  /// Types `answer` and Return into the task's terminal once it is in front (`focus` brings it there).
  func type(_ answer: String, focus: (UInt64) async throws -> Void) async throws {
    let window = try await window()
    try await focus(window)
    try await session.xdotool(["type", "--delay", "50", answer])
    try await session.xdotool(["key", "Return"])
  }
}

extension XSession {
  /// Waits until `_NET_ACTIVE_WINDOW` names `window`.
  func waitUntilActive(_ window: UInt64, _ what: String) async throws {
    do {
      _ = try await poll("\(what): window \(window) in front", every: .milliseconds(20)) {
        try await self.activeWindow() == window ? true : nil
      }
    } catch {
      let active = try? await activeWindow()
      throw DesktopError("\(error); in front: \(active.map { String($0) } ?? "nothing")")
    }
  }

  /// The visible window of class `appClass` (matched without case), once it is managed.
  func managedWindow(ofClass appClass: String, timeout: Duration = .seconds(60)) async throws -> UInt64 {
    let window = try await poll("a window of class \(appClass) on \(display)", timeout: timeout) {
      let found = try await self.run(["xdotool", "search", "--onlyvisible", "--class", "^\(appClass)$"])
      return found.output.split(separator: "\n").compactMap { UInt64($0) }.first
    }
    try await waitUntilManaged(window)
    return window
  }
}

extension DayWindow {
  /// The X window id of a window an X desk made.
  var xWindow: UInt64 {
    get throws {
      guard let window = UInt64(id) else { throw DesktopError("\(self) is no X window") }
      return window
    }
  }
}
