import Desktop
import JSON
import Localization
import Model
import ShieldBridge

/// What `shieldbridge desktop` prints for each thing the desktop reports: a
/// line of text or a line of JSON.
///
/// Pure functions of the event and the rules, so that the wording is tested
/// without a desktop. An app is shown by the names a rule can match
/// (``AppIdentity/description``: class, instance, app id, executable, `comm`,
/// `argv[0]`, scope, pid), never by a window's title, which is never read.
enum DesktopLines {
  /// `desktop: i3, chosen automatically; the focused window counts`, a line per limitation,
  /// and a `to do:` line when the backend needs something done first (``DesktopBackend/attention``).
  static func backendText(
    kind: DesktopKind, counting: CountingSource, choice: DesktopChoice, limitations: [String],
    attention: String? = nil
  ) -> [String] {
    let how =
      choice != .auto
      ? CommandMessage(.desktopChosenConfig, ["setting": "\"desktop\": \"\(choice)\""])
      : CommandMessage(counting == .running ? .desktopChosenAutoNoWindows : .desktopChosenAuto)
    var lines = [
      Output.text(
        CommandMessage(
          .desktopBackend,
          ["backend": name(of: kind), "how": Output.text(how), "counting": countingText(counting)]))
    ]
    if counting == .running { lines.append("  " + Output.text(CommandMessage(.desktopProcessesOnly))) }
    lines += limitations.map { "  " + Output.text(CommandMessage(.desktopLimitation, ["limitation": $0])) }
    if let attention { lines.append("  " + Output.text(CommandMessage(.desktopToDo, ["todo": attention]))) }
    return lines
  }

  /// `{"event":"desktop","backend":"i3","choice":"auto","counting":"focus","limitations":[…]}`,
  /// and `"attention"` last when the backend needs something done first.
  static func backendJSON(
    kind: DesktopKind, counting: CountingSource, choice: DesktopChoice, limitations: [String],
    attention: String? = nil
  ) -> JSONValue {
    .object(
      [
        ("event", "desktop"), ("backend", .string(kind.rawValue)), ("choice", .string(choice.rawValue)),
        ("counting", .string(counting.rawValue)), ("limitations", .array(limitations.map { .string($0) })),
      ] + (attention.map { [("attention", .string($0))] } ?? []))
  }

  /// The backend as people name it: `X11`, `i3`, `sway`, `running processes`.
  static func name(of kind: DesktopKind) -> String {
    switch kind {
    case .x11: "X11"
    case .i3: "i3"
    case .sway: "sway"
    case .kwin: "KWin"
    case .processes: Output.text(CommandMessage(.desktopProcesses))
    case .gnome: "GNOME Shell"
    }
  }

  static func countingText(_ counting: CountingSource) -> String {
    switch counting {
    case .focus: Output.text(CommandMessage(.desktopCountsFocus))
    case .running: Output.text(CommandMessage(.desktopCountsRunning))
    }
  }

  /// One line for an event: `focus: class=Instagram instance=xterm pid=42 → rule social, app Instagram`.
  ///
  /// - Parameter sites: The covered sites the browsers report (from the
  ///   service's `Usage()`): a browser in front that shows one counts as the
  ///   site, and the line says so instead of offering the browser's names.
  static func text(_ event: DesktopEvent, rules: RuleSet, sites: [UsageReport.ReportedSite] = []) -> String {
    Output.text(message(event, rules: rules, sites: sites))
  }

  /// ``text(_:rules:sites:)`` as a catalog message.
  static func message(_ event: DesktopEvent, rules: RuleSet, sites: [UsageReport.ReportedSite] = [])
    -> CommandMessage
  {
    switch event {
    case .focus(let focused?):
      if let pid = focused.app.pid, let site = sites.first(where: { $0.browserPID == pid }) {
        return CommandMessage(.desktopFocus, ["app": "\(focused.app)", "what": siteText(site)])
      }
      return CommandMessage(.desktopFocus, ["app": "\(focused.app)", "what": matchText(rules.match(focused.app))])
    case .focus(nil):
      return CommandMessage(.desktopFocusNone)
    case .running(let apps):
      guard !apps.isEmpty else { return CommandMessage(.desktopRunningNone) }
      let each = apps.map {
        Output.text(CommandMessage(.desktopRunningApp, ["app": "\($0)", "what": matchText(rules.match($0))]))
      }
      return CommandMessage(.desktopRunning, ["apps": each.joined(separator: "; ")])
    case .idle(let isIdle):
      return CommandMessage(isIdle ? .desktopIdleYes : .desktopIdleNo)
    case .inhibited(let isInhibited):
      return CommandMessage(isInhibited ? .desktopInhibitedYes : .desktopInhibitedNo)
    case .screen(let state):
      return CommandMessage(.desktopScreen, ["state": state.rawValue])
    case .notice(let text):
      return CommandMessage(.desktopNotice, ["text": text])
    case .lost(let reason):
      return CommandMessage(.desktopLost, ["reason": reason])
    }
  }

  /// One JSON line for an event; an app's names are all present, `null` when the desktop does not tell them.
  ///
  /// A browser in front that shows a covered site (see ``text(_:rules:sites:)``)
  /// has that site's `rule` and `app`, and `"site"` last.
  static func json(_ event: DesktopEvent, rules: RuleSet, sites: [UsageReport.ReportedSite] = []) -> JSONValue {
    switch event {
    case .focus(let focused?):
      if let pid = focused.app.pid, let site = sites.first(where: { $0.browserPID == pid }) {
        return .object(
          [("event", "focus"), ("window", .string(focused.window.description))]
            + members(of: focused.app, rule: site.rule, app: site.app) + [("site", .string(site.site.name))])
      }
      return .object(
        [("event", "focus"), ("window", .string(focused.window.description))]
          + members(of: focused.app, match: rules.match(focused.app)))
    case .focus(nil):
      return .object([("event", "focus"), ("window", .null), ("rule", .null), ("app", .null)])
    case .running(let apps):
      return .object([
        ("event", "running"), ("apps", .array(apps.map { .object(members(of: $0, match: rules.match($0))) })),
      ])
    case .idle(let isIdle):
      return .object([("event", "idle"), ("idle", .bool(isIdle))])
    case .inhibited(let isInhibited):
      return .object([("event", "inhibited"), ("inhibited", .bool(isInhibited))])
    case .screen(let state):
      return .object([("event", "screen"), ("screen", .string(state.rawValue))])
    case .notice(let text):
      return .object([("event", "notice"), ("text", .string(text))])
    case .lost(let reason):
      return .object([("event", "lost"), ("reason", .string(reason))])
    }
  }

  /// What counts while a browser showing a covered site is in front: the site, not the browser.
  static func siteText(_ site: UsageReport.ReportedSite) -> String {
    Output.text(CommandMessage(.desktopSite, ["site": site.site.name, "rule": site.rule, "app": site.app]))
  }

  /// `rule social, app Instagram`, or what to do when no rule matches.
  static func matchText(_ match: AppMatch?) -> String {
    guard let match else { return Output.text(CommandMessage(.desktopNoMatch)) }
    return Output.text(CommandMessage(.desktopMatch, ["rule": match.rule.name, "app": match.app.name]))
  }

  private static func members(of app: AppIdentity, match: AppMatch?) -> [(String, JSONValue)] {
    members(of: app, rule: match?.rule.name, app: match?.app.name)
  }

  private static func members(of app: AppIdentity, rule: String?, app name: String?) -> [(String, JSONValue)] {
    [
      ("class", .string(app.windowClass)), ("instance", .string(app.instance)), ("appId", .string(app.appID)),
      ("exe", .string(app.executable)), ("comm", .string(app.command)), ("argv0", .string(app.commandLineName)),
      ("scope", .string(app.scopeID)),
      ("pid", app.pid.map { .int($0) } ?? .null), ("rule", .string(rule)), ("app", .string(name)),
    ]
  }
}
