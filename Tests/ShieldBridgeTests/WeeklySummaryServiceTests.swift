import DBus
import Foundation
import JSON
import Model
import Store
import TestSupport
import Testing

/// The weekly summary through the real service: `shieldbridge serve` with
/// its wall clock on a Sunday just after 18:00 (libfaketime), xfce4-notifyd on
/// Xvfb, the button clicked with xdotool, and a real `xdg-open` whose default
/// for text/html (a test `mimeapps.list`) records the file it was given.
@Suite("The weekly summary on xfce4-notifyd: posted once a week, its button opens the week's page", .serialized)
struct WeeklySummaryServiceTests {
  static let summary = "The week from 2026-11-23 to 2026-11-29"

  @Test("Posted at its time with the report's figures; the button writes and opens the page; a restart posts nothing")
  func postedOnceAndOpened() async throws {
    let bus = try BusDaemon()
    let session = try await XSession(windowManager: .none, sessionBus: bus.address)
    let notifyd = try await XfceNotifyd(bus: bus, environment: session.environment)
    let monitor = try await BusMonitor(address: bus.address)
    let sandbox = try Sandbox()
    try sandbox.writeConfig(
      #"{"desktop":"off","weeklySummary":"sunday 18:00","#
        + #""rules":[{"name":"social","apps":["Instagram","TikTok"],"dailyLimitMinutes":30}]}"#)
    // The week: 10 minutes a day; the week before: 15.
    let week = LocalDay("2026-11-29")!
    _ = try HistoryStore(beside: sandbox.store).update(keeping: 90, today: week) { history in
      for offset in 0..<14 {
        let seconds = offset < 7 ? 600 : 900
        history.record(
          HistoryEntry(usedSeconds: seconds, apps: ["Instagram": seconds], limitSeconds: 1_800), for: "social",
          on: week.adding(days: -offset)!)
      }
    }
    // xdg-open's default for text/html: a program that writes down what it was given.
    let opened = sandbox.root.file("opened")
    let recorder = sandbox.root.file("record-open")
    try writeExecutable(recorder, "#!/bin/sh\nprintf '%s\\n' \"$@\" >> '\(opened)'\n")
    try FileManager.default.createDirectory(
      atPath: sandbox.root.file("data/applications"), withIntermediateDirectories: true)
    try "[Desktop Entry]\nType=Application\nName=Recorder\nExec=\(recorder) %f\nMimeType=text/html;\n".write(
      toFile: sandbox.root.file("data/applications/recorder.desktop"), atomically: true, encoding: .utf8)
    try "[Default Applications]\ntext/html=recorder.desktop\n".write(
      toFile: sandbox.root.file("config/mimeapps.list"), atomically: true, encoding: .utf8)

    let watcher = try await ServiceWatcher(address: bus.address)
    let environment = [
      "LD_PRELOAD": try libfaketime(), "FAKETIME": "@2026-11-29 18:00:30", "FAKETIME_DONT_FAKE_MONOTONIC": "1",
      "TZ": "Europe/Berlin", "DISPLAY": session.display, "XDG_DATA_HOME": sandbox.root.file("data"),
    ]
    let serve = try await ServeProcess(
      sandbox: sandbox, address: bus.address, watcher: watcher, environment: environment,
      arguments: ["--log-level", "debug"], launcher: throughShell)
    let posted = try await poll("the weekly summary on the bus") {
      monitor.notifyCalls.first { $0.summary == Self.summary }
    }
    #expect(posted.body.contains("Total: 70 minutes"), "\(posted.body)")
    let logged = try await poll("the weekly summary in the log") {
      serve.logLines.first { (line: String) in line.contains("weekly summary posted") }
    }
    #expect(logged.contains("5 minutes a day less than the period before"), "\(logged)")
    #expect(WeeklySummaryStore(directory: sandbox.stateDirectory).lastShown() == week)

    let bubble = try await notifyd.waitForBubble()
    try await notifyd.clickActionUntilGone(0, of: 1, on: bubble)
    let page = sandbox.stateDirectory + "/week.html"
    let given: String
    do {
      given = try await poll("xdg-open to hand the page to the text/html default") {
        (try? String(contentsOfFile: opened, encoding: .utf8)).flatMap { $0.isEmpty ? nil : $0 }
      }
    } catch {
      let written = FileManager.default.fileExists(atPath: page) ? "written" : "not written"
      throw DesktopError("\(error); the page \(written); serve said: \(serve.logLines.suffix(20))")
    }
    #expect(given == page + "\n")
    // Private like every other state file.
    #expect((try FileManager.default.attributesOfItem(atPath: page)[.posixPermissions] as? Int) == 0o600)
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(html.contains(#"data-date="2026-11-23""#) && html.contains(#"data-date="2026-11-29""#))
    #expect(!html.contains(#"data-date="2026-11-22""#))
    _ = await serve.terminate()

    // Started again the same evening: the week was shown, nothing is posted.
    let again = try await ServeProcess(
      sandbox: sandbox, address: bus.address, watcher: watcher, environment: environment,
      arguments: ["--log-level", "debug"], launcher: throughShell)
    _ = try await poll("the restarted service's check") {
      again.logLines.first { (line: String) in line.contains("weekly summary: already shown for 2026-11-29") }
    }
    #expect(monitor.notifyCalls.filter { $0.summary == Self.summary }.count == 1)
    _ = await again.terminate()
    try await notifyd.stop()
  }
}
