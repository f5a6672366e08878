import Desktop
import JSON
import Model
import ShieldBridge
import Testing

@testable import ShieldBridgeCLI

@Suite("shieldbridge desktop names an app by what a rule can match, and says which rule it falls under")
struct DesktopLinesTests {
  static let rules = RuleSet([
    Rule(name: "social", apps: ["TikTok", "Instagram"]),
    Rule(name: "chat", apps: [AppPattern(name: "Telegram", classes: ["TelegramDesktop"])]),
  ])
  static let instagram = FocusedWindow(
    window: WindowID(0x1a0_0022), app: AppIdentity(instance: "xterm", windowClass: "Instagram", pid: 4242))

  @Test("A focused window: its names, then the rule and the app of config.json")
  func focus() {
    #expect(
      DesktopLines.text(.focus(Self.instagram), rules: Self.rules)
        == "focus: class=Instagram instance=xterm pid=4242 → rule social, app Instagram")
    let telegram = FocusedWindow(
      window: WindowID(7), app: AppIdentity(instance: "telegram-desktop", windowClass: "TelegramDesktop"))
    #expect(
      DesktopLines.text(.focus(telegram), rules: Self.rules)
        == "focus: class=TelegramDesktop instance=telegram-desktop → rule chat, app Telegram")
    let other = FocusedWindow(window: WindowID(8), app: AppIdentity(windowClass: "XTerm"))
    #expect(
      DesktopLines.text(.focus(other), rules: Self.rules).hasSuffix(
        "→ no rule (put one of these names in a rule's \"apps\" to cover it)"))
    #expect(
      DesktopLines.text(.focus(nil), rules: Self.rules) == "focus: none (the desktop itself, or an empty workspace)")
  }

  @Test("A browser in front showing a covered site: the line says the site counts, not the browser's names")
  func browserShowingASite() throws {
    let browser = FocusedWindow(
      window: WindowID(9), app: AppIdentity(instance: "chromium", windowClass: "Chromium", pid: 5151))
    let site = UsageReport.ReportedSite(
      site: try #require(Site("instagram.com")), browserPID: 5151, rule: "social", app: "Instagram")
    #expect(
      DesktopLines.text(.focus(browser), rules: Self.rules, sites: [site])
        == "focus: class=Chromium instance=chromium pid=5151 → counted as instagram.com for social while this tab "
        + "is in front (app Instagram; the browser's own names in a rule's \"apps\" would cover all of it)")
    #expect(
      DesktopLines.json(.focus(browser), rules: Self.rules, sites: [site]).serialized
        == #"{"event":"focus","window":"0x9","class":"Chromium","instance":"chromium","appId":null,"exe":null,"#
        + #""comm":null,"argv0":null,"scope":null,"pid":5151,"rule":"social","app":"Instagram","#
        + #""site":"instagram.com"}"#)
    // Another browser's site says nothing of this one; without sites, the names are offered as before.
    let other = UsageReport.ReportedSite(
      site: try #require(Site("instagram.com")), browserPID: 6262, rule: "social", app: "Instagram")
    for sites in [[other], []] {
      #expect(
        DesktopLines.text(.focus(browser), rules: Self.rules, sites: sites).hasSuffix(
          "→ no rule (put one of these names in a rule's \"apps\" to cover it)"))
    }
  }

  @Test("A backend's notice is a note line, and a notice object in JSON")
  func notice() {
    let text = "the GNOME Shell extension x is not installed"
    #expect(DesktopLines.text(.notice(text), rules: Self.rules) == "notice: \(text)")
    #expect(DesktopLines.json(.notice(text), rules: Self.rules).serialized == #"{"event":"notice","text":"\#(text)"}"#)
    #expect(
      DesktopLines.backendText(kind: .gnome, counting: .focus, choice: .gnome, limitations: []).first
        == "desktop: GNOME Shell, as config.json says (\"desktop\": \"gnome\"); "
        + "a covered app counts while its window has the focus")
  }

  @Test("The JSON line has every name, null where the desktop does not tell it")
  func focusJSON() {
    #expect(
      DesktopLines.json(.focus(Self.instagram), rules: Self.rules).serialized
        == #"{"event":"focus","window":"0x1a00022","class":"Instagram","instance":"xterm","appId":null,"exe":null,"#
        + #""comm":null,"argv0":null,"scope":null,"pid":4242,"rule":"social","app":"Instagram"}"#)
    #expect(
      DesktopLines.json(.focus(nil), rules: Self.rules).serialized
        == #"{"event":"focus","window":null,"rule":null,"app":null}"#)
  }

  @Test("The other events: running apps, idle, inhibition, the screen, a lost desktop")
  func otherEvents() {
    let running = AppIdentity(executable: "Instagram", command: "Instagram", pid: 77)
    #expect(
      DesktopLines.text(.running([running]), rules: Self.rules)
        == "running: exe=Instagram comm=Instagram pid=77 → rule social, app Instagram")
    #expect(DesktopLines.text(.running([]), rules: Self.rules) == "running: no covered app")
    #expect(DesktopLines.text(.idle(true), rules: Self.rules) == "idle: yes (no input for the idle time)")
    #expect(
      DesktopLines.text(.inhibited(true), rules: Self.rules) == "idle inhibited: yes (a video playing, for example)")
    #expect(DesktopLines.text(.screen(.saver), rules: Self.rules) == "screen: saver")
    #expect(DesktopLines.text(.lost("the X server went away"), rules: Self.rules) == "lost: the X server went away")
    #expect(
      DesktopLines.json(.screen(.locked), rules: Self.rules).serialized == #"{"event":"screen","screen":"locked"}"#)
    #expect(DesktopLines.json(.idle(false), rules: Self.rules).serialized == #"{"event":"idle","idle":false}"#)
  }

  @Test("The backend line says how it was chosen and what counts")
  func backend() {
    #expect(
      DesktopLines.backendText(kind: .i3, counting: .focus, choice: .auto, limitations: ["no idle"])
        == [
          "desktop: i3, chosen automatically; a covered app counts while its window has the focus",
          "  limitation: no idle",
        ])
    #expect(
      DesktopLines.backendText(kind: .processes, counting: .running, choice: .processes, limitations: [])
        == [
          #"desktop: running processes, as config.json says ("desktop": "processes"); "#
            + "a covered app counts while it runs",
          "  only the apps a rule of config.json names are watched, and only by their processes",
        ])
    #expect(
      DesktopLines.backendText(kind: .processes, counting: .running, choice: .auto, limitations: []).first
        == "desktop: running processes, chosen automatically, as no window system was seen; "
        + "a covered app counts while it runs")
  }
}
