import Desktop
import Model
import Testing

@testable import ShieldBridgeCLI

@Suite("shieldbridge desktop and status name the KWin backend and print its notices")
struct KWinLinesTests {
  @Test("The backend line, the status source line, and a notice as text and JSON")
  func kwinLines() {
    let lines = DesktopLines.backendText(
      kind: .kwin, counting: .focus, choice: .auto, limitations: ["input idle is not visible"])
    #expect(lines.first == "desktop: KWin, chosen automatically; a covered app counts while its window has the focus")
    #expect(lines.last == "  limitation: input idle is not visible")
    #expect(
      DesktopLines.backendJSON(kind: .kwin, counting: .focus, choice: .kwin, limitations: []).serialized
        == #"{"event":"desktop","backend":"kwin","choice":"kwin","counting":"focus","limitations":[]}"#)
    #expect(
      UsageText.sourceLine(backend: .kwin, counting: .focus, choice: .auto, hasRules: true, notRunning: nil)
        == "counted: focused windows (KWin, through its script)")
    let notice = DesktopEvent.notice("KWin restarted; the focus script was loaded again")
    #expect(
      DesktopLines.text(notice, rules: RuleSet([])) == "notice: KWin restarted; the focus script was loaded again")
    #expect(
      DesktopLines.json(notice, rules: RuleSet([])).serialized
        == #"{"event":"notice","text":"KWin restarted; the focus script was loaded again"}"#)
  }
}
