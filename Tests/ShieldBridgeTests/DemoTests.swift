import Foundation
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
    let environment = [
      "TMPDIR": folder.path, "LANG": "C.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "",
      "DISPLAY": "", "I3SOCK": "", "SWAYSOCK": "", "WAYLAND_DISPLAY": "", "DBUS_SESSION_BUS_ADDRESS": "",
    ]
    let result = try await onOwnThread {
      try ShieldBridgeTool.run(["demo"], environment: environment, timeout: .seconds(90))
    }
    #expect(result.status == 0, "\(result.output)\n\(result.error)")
    let output = result.output
    for step in [
      "with i3 (its own configuration and IPC socket)",
      "Opened an xterm of class Instagram, the covered app",
      "in this demo a minute lasts 2 s, so the limit is 4 s of use",
      "The warning came after ",
      "The limit was reached at ",
      "i3's tree shows the window hidden: it is on the scratchpad (workspace __i3_scratch)",
      "Clicked the shield (the default action)",
      "which is wrong",
      "which is right",
      "    body:    5 more minutes for Instagram are unlocked for today.",
      "Activated the window as an app switcher does: it stays in front",
      "1 grant today for social, limit today 7 minutes",
      "Stopped the service, the desktop, the server and the bus",
    ] {
      #expect(output.contains(step), "missing: \(step)")
    }
    #expect(!output.contains("!"))

    let display = try #require(
      output.split(separator: "\n").first { $0.contains("Started a headless X display :") }?
        .split(separator: " ").first { $0.hasPrefix(":") })
    #expect(!FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X" + display.dropFirst()))
    #expect(Self.processes(withEnvironment: "TMPDIR=" + folder.path).isEmpty)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  /// The pids whose environment holds `entry` exactly.
  static func processes(withEnvironment entry: String) -> [Int32] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return names.compactMap(Int32.init).filter { pid in
      guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
      return data.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == entry }
    }
  }
}
