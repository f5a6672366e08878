import JSON
import Model
import Testing

@testable import Desktop

@Suite("The KWin scripts are generated safely, serve 5.27 and 6, and what they send back is read defensively")
struct KWinScriptTests {
  @Test("A JavaScript literal escapes quotes, backslashes, controls and everything outside ASCII")
  func literal() {
    #expect(KWinScript.literal(":1.42") == #"":1.42""#)
    #expect(KWinScript.literal("a\"b\\c") == #""a\"b\\c""#)
    #expect(KWinScript.literal("x\ny\u{2028}é") == #""x\u000ay\u2028\u00e9""#)
  }

  @Test("Plugin names keep the whole unique name, so two connections never share one")
  func pluginPrefix() {
    #expect(KWinDesktop.pluginPrefix(for: ":1.234") == "shieldbridge-1_234")
    #expect(KWinDesktop.pluginPrefix(for: ":12.34") == "shieldbridge-12_34")
  }

  @Test("The focus script checks for both APIs, calls back only the given name, and never reads a caption")
  func focusScript() {
    let script = KWinScript.focus(service: ":1.7")
    for api in ["windowActivated", "clientActivated", "activeWindow", "activeClient"] {
      #expect(script.contains(api))
    }
    #expect(script.contains(#"service: ":1.7""#))
    #expect(!script.contains(".caption"))
    let command = KWinScript.command(service: ":1.7", request: "3", action: .hide)
    #expect(command.contains("windowList") && command.contains("clientList"))
    #expect(command.contains("w.minimized = true"))
    #expect(!command.contains(".caption"))
  }

  @Test("A window list: entries without an id are skipped, names map onto the identity, bad JSON is an error")
  func windowList() throws {
    let windows = try KWinWindow.list(
      fromJSON: #"[{"id":"{a}","resourceClass":"instagram","resourceName":"xterm","desktopFileName":"","#
        + #""pid":42,"minimized":true},{"resourceClass":"noid"},7,{"id":"{b}","pid":-5}]"#)
    #expect(windows.map(\.id) == ["{a}", "{b}"])
    #expect(windows[0].app == AppIdentity(instance: "xterm", windowClass: "instagram", pid: 42))
    #expect(windows[0].minimized)
    #expect(windows[1].app.pid == nil)
    #expect(throws: DesktopError.self) { try KWinWindow.list(fromJSON: "[") }
    #expect(throws: DesktopError.self) { try KWinWindow.list(fromJSON: #"{"id":"x"}"#) }
    #expect(KWinWindow.windowID(of: "{a}") == KWinWindow.windowID(of: "{a}"))
    #expect(KWinWindow.windowID(of: "{a}") != KWinWindow.windowID(of: "{b}"))
  }

  @Test("A name longer than GNOME Shell's extension would send is dropped; a pid past Int32 is none")
  func longNames() throws {
    let long = String(repeating: "x", count: AppIdentity.longestReportedName + 1)
    let fitting = String(repeating: "y", count: AppIdentity.longestReportedName)
    let window = KWinWindow(
      id: "{c}", resourceClass: long, resourceName: fitting, desktopFileName: "", pid: Int64(Int32.max) + 1,
      minimized: false)
    #expect(window.app == AppIdentity(instance: fitting))
  }
}
