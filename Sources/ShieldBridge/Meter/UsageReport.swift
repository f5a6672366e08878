public import Desktop
public import JSON
public import Model

/// What `Usage()` answers: today's use per rule and which source counts it.
///
/// ```json
/// {"date":"2026-12-01",
///  "source":{"backend":"i3","counting":"focus","limitations":[]},
///  "rules":[{"name":"social","usedSeconds":190,"limitSeconds":300,"remainingSeconds":110,
///            "grantsToday":0,"counting":true,"overLimit":false}]}
/// ```
///
/// `source.backend` is the desktop backend in use (`x11`, `i3`, `sway`,
/// `kwin`, `gnome`, `processes`) or `off` when nothing is watched (`"desktop": "off"`, no
/// configured rules, or every backend lost); `source.counting` is `focus`
/// (the focused window counts), `running` (a running app counts, the process
/// fallback) or `none`; `source.attention`, only while there is something
/// to do, says what the user must do before the backend sees the desktop
/// (the GNOME Shell extension is not enabled: run …). A rule's `counting` says whether its time counts at
/// this moment. With only the built-in rule, `rules` is empty: nothing is metered.
/// `sites`, only while a browser reports a site a rule covers, lists each
/// such site with the browser's pid, the rule and the app
/// (`{"site":"instagram.com","browserPid":4242,"rule":"social","app":"Instagram"}`):
/// while that browser is in front, the site counts instead of the browser.
public struct UsageReport: Hashable, Sendable {
  /// Which desktop backend feeds the meter, and what it counts.
  public struct Source: Hashable, Sendable {
    /// The backend, or `nil` when none runs (`"off"` in the JSON).
    public var backend: DesktopKind?
    /// What counts with it; `nil` when no backend runs (`"none"`).
    public var counting: CountingSource?
    /// What the backend cannot see, such as "input idle is not visible under sway".
    public var limitations: [String]
    /// What the user must do before the backend sees the desktop (see ``DesktopBackend/attention``).
    public var attention: String?

    public init(
      backend: DesktopKind?, counting: CountingSource?, limitations: [String] = [], attention: String? = nil
    ) {
      self.backend = backend
      self.counting = counting
      self.limitations = limitations
      self.attention = attention
    }

    /// No backend: nothing is watched.
    public static let off = Source(backend: nil, counting: nil)
  }

  /// A covered site a browser reports: while that browser's window is in
  /// front, its time counts for the site's rule, not as the browser.
  public struct ReportedSite: Hashable, Sendable {
    public var site: Site
    /// The browser's process (the parent of its native-messaging host).
    public var browserPID: Int32
    public var rule: String
    /// The rule's app that names the site.
    public var app: String

    public init(site: Site, browserPID: Int32, rule: String, app: String) {
      self.site = site
      self.browserPID = browserPID
      self.rule = rule
      self.app = app
    }
  }

  /// The local day the figures belong to.
  public var date: LocalDay
  public var source: Source
  /// One entry per configured rule, in the configuration's order.
  public var rules: [RuleUsage]
  /// The covered sites the browsers report now, by site and pid.
  public var sites: [ReportedSite]

  public init(date: LocalDay, source: Source, rules: [RuleUsage], sites: [ReportedSite] = []) {
    self.date = date
    self.source = source
    self.rules = rules
    self.sites = sites
  }

  /// The covered site the browser of `pid` reports, if any: what counts while its window is in front.
  public func site(shownBy pid: Int32?) -> ReportedSite? {
    guard let pid else { return nil }
    return sites.first { $0.browserPID == pid }
  }

  public var json: JSONValue {
    var members: [(String, JSONValue)] = [
      ("date", .string(date.description)),
      (
        "source",
        .object(
          [
            ("backend", .string(source.backend?.rawValue ?? "off")),
            ("counting", .string(source.counting?.rawValue ?? "none")),
            ("limitations", .array(source.limitations.map { .string($0) })),
          ] + (source.attention.map { [("attention", .string($0))] } ?? []))
      ),
      (
        "rules",
        .array(
          rules.map { usage in
            .object([
              ("name", .string(usage.rule)),
              ("usedSeconds", .int(usage.usedSeconds)),
              ("limitSeconds", .int(usage.limitSeconds)),
              ("remainingSeconds", .int(usage.remainingSeconds)),
              ("grantsToday", .int(usage.grantsToday)),
              ("counting", .bool(usage.counting)),
              ("overLimit", .bool(usage.overLimit)),
            ])
          })
      ),
    ]
    if !sites.isEmpty {
      members.append(
        (
          "sites",
          .array(
            sites.map { site in
              .object([
                ("site", .string(site.site.name)), ("browserPid", .int(Int(site.browserPID))),
                ("rule", .string(site.rule)), ("app", .string(site.app)),
              ])
            })
        ))
    }
    return .object(members)
  }
}
