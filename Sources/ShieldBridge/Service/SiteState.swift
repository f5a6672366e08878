import JSON
import Model

/// Where a site stands: whether a rule covers it, and that rule's time today.
///
/// What `SiteFocus` answers and what the native-messaging host sends the
/// browser as a `"state"` message (with `"type":"state"` in front):
/// `{"site":"instagram.com","covered":true,"rule":"social","app":"Instagram",
/// "shielded":false,"usedSeconds":120,"limitSeconds":300}`; an uncovered site
/// is `{"site":"example.org","covered":false,"shielded":false}`, no site
/// `{"site":null,"covered":false,"shielded":false}`. `shielded` is whether the
/// rule is at today's limit: the browser then shows its shield page.
struct SiteState: Hashable, Sendable {
  var site: Site?
  /// The rule that covers the site and the rule's app that names it; `nil` when none does.
  var match: AppMatch?
  /// The rule's time today; `nil` when the site is not covered.
  var usage: RuleUsage?

  init(site: Site?, match: AppMatch?, usage: RuleUsage?) {
    self.site = site
    self.match = match
    self.usage = usage
  }

  /// The state of `site` under `rules`, with today's figures from `report`.
  init(site: Site?, rules: RuleSet, report: UsageReport) {
    let match = site.flatMap { rules.match(site: $0) }
    self.init(
      site: site, match: match, usage: match.flatMap { match in report.rules.first { $0.rule == match.rule.name } })
  }

  var isCovered: Bool { match != nil }
  /// Whether the covering rule is at today's limit.
  var isShielded: Bool { usage?.overLimit ?? false }

  /// The members in the order of the contract; `"type":"state"` is the host's to add.
  var members: [(String, JSONValue)] {
    var members: [(String, JSONValue)] = [
      ("site", site.map { .string($0.name) } ?? .null), ("covered", .bool(isCovered)),
    ]
    if let match {
      members += [("rule", .string(match.rule.name)), ("app", .string(match.app.name))]
    }
    members.append(("shielded", .bool(isShielded)))
    if let usage {
      members += [("usedSeconds", .int(usage.usedSeconds)), ("limitSeconds", .int(usage.limitSeconds))]
    }
    return members
  }

  var json: JSONValue { .object(members) }
}
