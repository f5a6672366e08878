import DBus
import Foundation
import JSON
import TestSupport
import Testing

@testable import ShieldBridge

/// The sway + mako day's desktop pieces, each as a person does it: Alt+Tab
/// on the user's key binding, the app hidden on the scratchpad and brought
/// back with `scratchpad show`, the shield clicked on mako with a pointer,
/// the answer typed into the task's xterm on Xwayland.
@Suite("sway + mako, driven by a person's keys and pointer", .serialized)
struct SwayDayTests {
  static let configuration =
    #"{"rules":[{"name":"social","apps":[{"name":"Instagram","class":"Instagram","appId":"Instagram"}],"dailyLimitMinutes":6,"#
    + #""grantMinutes":4,"maxGrantsPerDay":1,"warnMinutes":2,"onLimit":"hide"}]}"#

  @Test("Alt+Tab moves the count; at the limit the foot is on the scratchpad; a click on mako's bubble opens the task")
  func keysPointerAndTask() async throws {
    let day = try await SwayDay()
    let sandbox = try Sandbox()
    try sandbox.writeConfig(Self.configuration)
    let monitor = try await BusMonitor(address: day.bus.address)
    let other = try await day.launchApp("Other")
    let instagram = try await day.launchApp("Instagram")
    // An X11 window on Xwayland joins the Alt+Tab cycle as the browser will.
    let xterm = try BackgroundProcess(
      ["xterm", "-class", "Browser", "-e", "sleep", "600"],
      environment: ShieldBridgeTool.mergedEnvironment(day.browserEnvironment))
    defer { xterm.process.signalGroup(SIGTERM) }
    let browser = try await day.browserWindow("Browser")
    let watcher = try await ServiceWatcher(address: day.bus.address)
    let serve = try await ServeProcess(
      sandbox: sandbox, address: day.bus.address, watcher: watcher, environment: day.serveEnvironment,
      arguments: ["--minute-length", "1000", "--log-level", "debug"])
    defer { serve.process.process.signalGroup(SIGTERM) }
    func usage() async throws -> JSONValue? {
      try JSONValue(parsing: try await watcher.call(ServiceInterface.usage.name).decode(String.self))
        .usageRule("social")
    }

    // Alt+Tab to every window and back: sway says who is in front, the service counts only Instagram.
    for window in [other, browser, instagram, other, instagram, browser] {
      try await day.bringToFront(window)
      #expect(try await day.session.focusedWindow()?.id == window.id)
      let counting = window.id == instagram.id
      do {
        _ = try await poll("the count to follow window \(window.id)") {
          try await usage()?["counting"]?.boolValue == counting ? true : nil
        }
      } catch {
        Issue.record(
          "\(error): \(String(describing: try await usage())); serve said:\n\(serve.logLines.joined(separator: "\n"))")
        throw error
      }
    }

    // Instagram in front to its limit: the warning, the shield on mako, the foot on the scratchpad.
    try await day.bringToFront(instagram)
    _ = try await poll("the warning on the bus") {
      monitor.notifyCalls.first { $0.summary.contains("left today") }
    }
    _ = try await poll("the Instagram foot on sway's scratchpad") {
      try await day.isHidden(instagram) ? true : nil
    }
    _ = try await poll("the shield on the bus") { monitor.notifyCalls.first { $0.summary == "Instagram is paused" } }

    // A left click on the bubble's body: mako sends ActionInvoked("default"), the task opens in an xterm.
    let dispatches = watcher.dispatched.count
    try await day.clickBubble(summary: "Instagram is paused")
    let record = try await watcher.record(after: dispatches, "the click's dispatch")
    #expect(record.outcome == "terminal", "\(record.serialized)")
    let task = try await poll("the task in the xterm") {
      let screen = try await day.taskScreen()
      return BrowserSite.answer(to: screen) != nil ? screen : nil
    }
    try await day.answerTask(String(try #require(BrowserSite.answer(to: task))))
    _ = try await poll("the unlocked line") {
      try await day.taskScreen().contains("are unlocked for today") ? true : nil
    }
    let granted = try #require(try await usage())
    #expect(granted["grantsToday"]?.integerValue == 1, "\(granted)")
    #expect(granted["overLimit"]?.boolValue == false, "\(granted)")

    // Brought back from the scratchpad as a person does: in front, counting.
    try await day.bringBack(instagram)
    _ = try await poll("Instagram counting again") {
      try await usage()?["counting"]?.boolValue == true ? true : nil
    }
    _ = await serve.terminate()
    await day.finish()
  }
}
