import Desktop
public import JSON
import Model

extension UsageReport {
  /// Why a `Usage()` answer could not be read.
  public struct ReadingError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
  }

  /// The report ``json`` wrote, read back (what `status` makes of the service's `Usage()` answer).
  ///
  /// Strict about the keys it needs and their types, lenient about keys it
  /// does not know (a later service may add some). A negative count is read
  /// as 0, so that a broken answer can never show a bar that runs backwards.
  ///
  /// - Throws: ``ReadingError`` naming the first key that is missing or of another type.
  public init(json: JSONValue) throws(ReadingError) {
    func failure(_ key: String) -> ReadingError {
      ReadingError(description: "the Usage answer has no valid \"\(key)\"")
    }
    guard let dateText = json["date"]?.stringValue, let date = LocalDay(dateText) else { throw failure("date") }
    guard let source = json["source"], let backend = source["backend"]?.stringValue,
      let counting = source["counting"]?.stringValue
    else { throw failure("source") }
    let limitations = (source["limitations"]?.arrayValue ?? []).compactMap(\.stringValue)
    guard let entries = json["rules"]?.arrayValue else { throw failure("rules") }
    var rules: [RuleUsage] = []
    for entry in entries {
      guard let name = entry["name"]?.stringValue else { throw failure("rules[].name") }
      func count(_ key: String) throws(ReadingError) -> Int {
        guard let value = entry[key]?.integerValue, let count = Int(exactly: value) else { throw failure(key) }
        return max(0, count)
      }
      rules.append(
        RuleUsage(
          rule: name, used: .seconds(try count("usedSeconds")), limit: .seconds(try count("limitSeconds")),
          grantsToday: try count("grantsToday"), counting: entry["counting"]?.boolValue ?? false))
    }
    // Lenient: a site entry that cannot be read is left out.
    let sites = (json["sites"]?.arrayValue ?? []).compactMap { entry -> ReportedSite? in
      guard let site = entry["site"]?.stringValue.flatMap(Site.init), let pid = entry["browserPid"]?.integerValue,
        let browserPID = Int32(exactly: pid), let rule = entry["rule"]?.stringValue, let app = entry["app"]?.stringValue
      else { return nil }
      return ReportedSite(site: site, browserPID: browserPID, rule: rule, app: app)
    }
    self.init(
      date: date,
      source: Source(
        backend: DesktopKind(rawValue: backend), counting: CountingSource(rawValue: counting),
        limitations: limitations, attention: source["attention"]?.stringValue),
      rules: rules, sites: sites)
  }
}
