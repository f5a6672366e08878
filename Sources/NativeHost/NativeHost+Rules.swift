import Config
import JSON
import Model
import ShieldBridge

extension NativeHost {
  /// `{"type":"rules"}`: the names of the configured rules, for the extension's "Limit this site".
  ///
  /// Answered as `{"type":"rules","rules":["social","video"]}`; an empty list
  /// while only the built-in rule holds (no rule names sites to add to).
  func rulesMessage() {
    let rules = options.reloadRules?() ?? options.rules
    let names = rules.isBuiltIn ? [] : rules.rules.map { JSONValue.string($0.name) }
    send(.object([("type", "rules"), ("rules", .array(names))]))
  }

  /// `{"type":"limitSite","site":"reddit.com","rule":"social"}`: adds the site to the rule as
  /// `shieldbridge rules add-site` does, checked, locked and written the same way.
  ///
  /// Answered as `{"type":"siteLimited","site":…,"rule":…}`, or
  /// `{"type":"limitRefused","site":…,"rule":…,"message":…}` with the reason
  /// (the reader's message for a change it refuses); the file is then as it was.
  func limitSiteMessage(_ message: JSONValue) {
    guard let text = message["site"]?.stringValue, let site = Site(text) else {
      refuse("limitSite: \"site\" is not a host name such as reddit.com")
      return
    }
    guard let rule = message["rule"]?.stringValue, !rule.isEmpty, rule.utf8.count <= 256 else {
      refuse("limitSite: \"rule\" is not a rule's name")
      return
    }
    let answer: [(String, JSONValue)] = [("site", .string(site.name)), ("rule", .string(rule))]
    guard let path = options.configurationPath else {
      send(
        .object(
          [("type", "limitRefused")] + answer + [("message", "this host has no config.json to write")]))
      return
    }
    do {
      try Configuration.edit(at: path, .addSites(rule: rule, sites: [site.name]))
      options.logger.notice("added \(site) to the rule \"\(rule)\" in \(path), as the browser asked")
      send(.object([("type", "siteLimited")] + answer))
      // The service counts the site once it has read the file: the next focus asks it again.
      lastState = nil
    } catch {
      options.logger.warning("limitSite: \(error)")
      send(.object([("type", "limitRefused")] + answer + [("message", .string(error.description))]))
    }
  }
}
