import Desktop
import TestSupport
import Testing

@Suite struct DesktopChoiceTests {
  @Test func everyDocumentedValueParses() throws {
    for text in ["auto", "off", "x11", "i3", "sway", "processes"] {
      #expect(try DesktopChoice(parsing: text).rawValue == text)
    }
  }

  @Test func anotherValueIsAnErrorThatListsTheValues() {
    do {
      _ = try DesktopChoice(parsing: "gnome")
      Issue.record("gnome parsed")
    } catch {
      #expect(
        error.message == #""desktop" is "gnome", which is none of "auto", "off", "x11", "i3", "sway", "processes""#)
    }
  }

  @Test func offOpensNothingAndAutoWithoutADesktopFallsBackToProcesses() throws {
    #expect(try DesktopChoice.off.open(environment: [:], covers: { _ in true }) == nil)
    let backend = try DesktopChoice.auto.open(environment: [:], covers: { _ in true })
    #expect(backend?.kind == .processes)
    let dead = try DesktopChoice.auto.open(
      environment: ["SWAYSOCK": "/nonexistent/sway.sock", "I3SOCK": "/nonexistent/i3.sock"], covers: { _ in true })
    #expect(dead?.kind == .processes)
  }

  @Test func aForcedBackendWithoutItsSocketIsAnError() {
    #expect(throws: Desktop.DesktopError.self) { try DesktopChoice.sway.open(environment: [:], covers: { _ in true }) }
    #expect(throws: Desktop.DesktopError.self) { try DesktopChoice.i3.open(environment: [:], covers: { _ in true }) }
    #expect(throws: Desktop.DesktopError.self) {
      try DesktopChoice.i3.open(environment: ["I3SOCK": "/nonexistent/i3.sock"], covers: { _ in true })
    }
  }
}
