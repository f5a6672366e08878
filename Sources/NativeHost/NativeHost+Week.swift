import JSON
import Model
import Spawn

// The shield page's "Show the week" (docs/using/websites.md).
extension NativeHost {
  /// `{"type":"week","site":"instagram.com"}`: writes the report's page of the
  /// last 7 days of the site's rule (`shieldbridge report --html week-RULE.html
  /// --rule RULE`, in the state folder) and opens it with `xdg-open`, as the
  /// weekly summary's button does; answers `{"type":"weekOpened","site":…}`.
  ///
  /// Both run with the host's environment (the browser's: the same state
  /// folder and desktop), their output to `/dev/null`: the host's stdout is
  /// the browser's channel. The browser is not asked to open a `file:` address
  /// (an extension may not), and no report is kept in the extension.
  func weekMessage(_ message: JSONValue) {
    guard let text = message["site"]?.stringValue, let site = Site(text) else {
      refuse("week: \"site\" is not a host name such as instagram.com")
      return
    }
    let rules = options.reloadRules?() ?? options.rules
    guard let match = rules.match(site: site) else {
      refuse("week: no rule covers \(site); there is no week to show")
      return
    }
    let rule = match.rule.name
    // The rule's name as a file name: letters, digits and '-' kept, anything else '_'.
    let safe = String(
      rule.unicodeScalars.map {
        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") ? Character($0) : "_"
      })
    let page = options.ledger.directory + "/week-\(safe).html"
    let logger = options.logger
    do {
      // /proc/self/exe: this very program, whatever name the browser's launcher gave it. The
      // bound is for a hang: on a busy machine the report can take seconds.
      let written = try Subprocess.run(
        ["/proc/self/exe", "report", "--html", page, "--rule", rule], timeout: .seconds(30))
      guard written.status == 0 else {
        refuse("week: the page of \(rule) cannot be written: \(written.error)")
        return
      }
      _ = try Subprocess(["xdg-open", page], standardInput: .null, standardOutput: .null) { termination in
        if !termination.isSuccess { logger.warning("xdg-open \(page) \(termination)") }
      }
    } catch {
      refuse("week: \(error)")
      return
    }
    logger.info("the week of \(rule) was opened for \(site): \(page)")
    send(.object([("type", .string("weekOpened")), ("site", .string(site.name)), ("path", .string(page))]))
  }
}
