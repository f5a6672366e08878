import Foundation
import Spawn
import TestSupport
import Testing

@Suite("shieldbridge demo runs the whole loop on a desktop of its own and leaves nothing behind")
struct DemoTests {
  @Test("The time counted, the limit, the window hidden, the task, the window usable again; no process left")
  func wholeLoop() async throws {
    for (tool, package) in [("Xvfb", "xvfb"), ("i3", "i3-wm"), ("i3-msg", "i3-wm"), ("xterm", "xterm")] {
      _ = try requiredTool(tool, package: package)
    }
    // Every process the demo starts inherits this TMPDIR: one that still has it afterwards was left behind.
    let folder = try TemporaryDirectory()
    let environment = Self.environment(tmp: folder.path)
    let result = try await ShieldBridgeTool.run(["demo"], environment: environment, timeout: .seconds(90))
    #expect(result.status == 0, "\(result.output)\n\(result.error)")
    let output = result.output
    for step in [
      "with i3 (its own configuration and IPC socket)",
      "Opened an xterm of class Instagram, the covered app",
      "in this demo a minute lasts 2 s, so the limit is 4 s of use",
      "The warning came after ",
      "The limit was reached at ",
      "i3's tree shows the window hidden: it is on the scratchpad (workspace __i3_scratch)",
      "Clicked \"Close Instagram\", the shield's first button: the window stays hidden, and the ledger counts 1 way out today",
      "Asked for the shield again, as shieldbridge shield --app Instagram does",
      "Clicked the shield (the default action, Solve a task)",
      "which is wrong",
      "which is right",
      "    body:    5 more minutes for Instagram are unlocked for today.",
      "Activated the window as an app switcher does: it stays in front",
      "1 grant today for social, limit today 7 minutes",
      "Stopped the service, the desktop, the server and the bus",
      "The demo's own report, from the history its service kept (shieldbridge report --days 1):",
      "    social: 1 day, ",
      "    in this demo a minute lasts 2 s: the history holds ",
      "used of a 14 s limit (Instagram ",
      "1 grant, 1 shield shown",
    ] {
      #expect(output.contains(step), "missing: \(step)")
    }
    #expect(!output.contains("!"))

    let display = try #require(
      output.split(separator: "\n").first { $0.contains("Started a headless X display :") }?
        .split(separator: " ").first { $0.hasPrefix(":") })
    // The demo's X server took its socket with it. A test beside it may have started a server on
    // the same number since: then the socket is that server's, whose lock names a live process.
    let number = display.dropFirst()
    if FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") {
      let lock = try? String(contentsOfFile: "/tmp/.X\(number)-lock", encoding: .utf8)
      let owner = lock.flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
      #expect(owner.map { kill($0, 0) == 0 } == true, "the demo left /tmp/.X11-unix/X\(number)")
    }
    #expect(try await Self.noProcessLeft(withEnvironment: "TMPDIR=" + folder.path))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test("A step that fails (no xterm) stops what was started, exits 70 and names the step")
  func failedStep() async throws {
    let folder = try TemporaryDirectory()
    // A PATH with everything the demo needs but xterm, which it starts after Xvfb and i3.
    let bin = folder.file("bin")
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    for (tool, package) in [("dbus-daemon", "dbus-daemon"), ("Xvfb", "xvfb"), ("i3", "i3-wm"), ("i3-msg", "i3-wm")] {
      try FileManager.default.createSymbolicLink(
        atPath: bin + "/" + tool, withDestinationPath: try requiredTool(tool, package: package))
    }
    let tmp = folder.file("tmp")
    try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    let environment = Self.environment(tmp: tmp).merging(["PATH": bin]) { $1 }
    let result = try await ShieldBridgeTool.run(["demo"], environment: environment, timeout: .seconds(60))
    #expect(result.status == 70, "\(result.output)\n\(result.error)")
    #expect(result.error.contains("could not start xterm"), "\(result.error)")
    #expect(result.output.contains("with i3 (its own configuration and IPC socket)"))
    #expect(try await Self.noProcessLeft(withEnvironment: "TMPDIR=" + tmp))
    #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).isEmpty)
  }

  @Test("SIGINT in the middle stops everything it started, and exits 130")
  func interrupted() async throws {
    let folder = try TemporaryDirectory()
    let demo = try BackgroundProcess(shieldbridge: ["demo"], environment: Self.environment(tmp: folder.path))
    _ = try await demo.waitForLine(containing: "Opened an xterm of class Instagram", timeout: .seconds(30))
    demo.process.signal(SIGINT)
    let finished = await demo.finish(timeout: .seconds(30))
    #expect(finished.status == 130, "\(finished.output)\n\(finished.error)")
    #expect(finished.error.contains("the demo was stopped by signal 2"), "\(finished.error)")
    #expect(try await Self.noProcessLeft(withEnvironment: "TMPDIR=" + folder.path))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  /// The demo's environment: its own TMPDIR, the source language, no desktop of the machine's.
  static func environment(tmp: String) -> [String: String] {
    [
      "TMPDIR": tmp, "LANG": "C.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "",
      "DISPLAY": "", "I3SOCK": "", "SWAYSOCK": "", "WAYLAND_DISPLAY": "", "DBUS_SESSION_BUS_ADDRESS": "",
    ]
  }

  /// Whether every process whose environment holds `entry` has gone, waiting
  /// at most 5 s: an xterm's child ends by the SIGHUP the kernel sends it when
  /// the xterm's side of the terminal closes, a moment after the xterm.
  ///
  /// - Throws: ``PollTimedOut`` naming the processes left, with their command lines.
  static func noProcessLeft(withEnvironment entry: String) async throws -> Bool {
    do {
      return try await poll("the demo's processes to end", timeout: HangBound.wait, every: .milliseconds(20)) {
        Subprocess.processes(startedWith: entry).isEmpty ? true : nil
      }
    } catch {
      let left = Subprocess.processes(startedWith: entry).map { pid in
        let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
        return "\(pid) " + String(decoding: command.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
      }
      throw PollTimedOut(what: "the demo's processes to end; left: \(left)")
    }
  }
}
