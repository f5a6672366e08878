public import Brake
public import Desktop
public import JSON

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

  /// The local day the figures belong to.
  public var date: LocalDay
  public var source: Source
  /// One entry per configured rule, in the configuration's order.
  public var rules: [RuleUsage]

  public init(date: LocalDay, source: Source, rules: [RuleUsage]) {
    self.date = date
    self.source = source
    self.rules = rules
  }

  public var json: JSONValue {
    .object([
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
    ])
  }
}
