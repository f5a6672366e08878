extension AppPattern {
  /// The names a window may carry for this app to match it, lowercased: the
  /// plain name, or the explicit classes, app ids and executables (an app of
  /// sites alone has none).
  var windowNames: Set<String> {
    if isPlainName { return [name.lowercased()] }
    return Set((classes + appIDs + executables).map { $0.lowercased() })
  }

  /// Whether `other` names the same app as this one, as far as a change of the
  /// rules during the day is concerned: the same name (without regard to case),
  /// a window name both match, or a site of one that covers a site of the other.
  ///
  /// Wider than what the configuration refuses as listed twice (the same name,
  /// the same site), so that an app whose rule was renamed, split or merged is
  /// found in its new rule however its entry was rewritten.
  public func overlaps(_ other: AppPattern) -> Bool {
    if name.lowercased() == other.name.lowercased() { return true }
    if !windowNames.isDisjoint(with: other.windowNames) { return true }
    return sites.contains { site in other.sites.contains { $0.covers(site) || site.covers($0) } }
  }

  /// This app (as configured) matching also what `held` (in force today)
  /// matched beyond it, less the names and sites `isClaimed` gives to another
  /// configured app: an entry narrowed during the day keeps covering what it
  /// covered until the next day's start.
  ///
  /// A plain name becomes the explicit names it stood for (its name as class,
  /// app id and executable) before anything is added, so that it still matches
  /// what it matched. Adding what is already there changes nothing, so the
  /// result widened by itself is itself.
  func widened(
    by held: AppPattern, isClaimed: (String) -> Bool, isSiteClaimed: (Site) -> Bool
  ) -> AppPattern {
    let heldNames =
      held.isPlainName
      ? (classes: [held.name], appIDs: [held.name], executables: [held.name])
      : (classes: held.classes, appIDs: held.appIDs, executables: held.executables)
    let matchesAlready: ([String], String) -> Bool = { list, name in
      self.isPlainName
        ? self.name.lowercased() == name.lowercased() : list.contains { $0.lowercased() == name.lowercased() }
    }
    func additions(_ wanted: [String], to list: [String]) -> [String] {
      var added: [String] = []
      for name in wanted
      where !matchesAlready(list, name) && !isClaimed(name.lowercased())
        && !added.contains(where: { $0.lowercased() == name.lowercased() })
      {
        added.append(name)
      }
      return added
    }
    let classesAdded = additions(heldNames.classes, to: classes)
    let appIDsAdded = additions(heldNames.appIDs, to: appIDs)
    let executablesAdded = additions(heldNames.executables, to: executables)
    var sitesAdded: [Site] = []
    for site in held.sites
    where !sites.contains(where: { $0.covers(site) }) && !sitesAdded.contains(where: { $0.covers(site) })
      && !isSiteClaimed(site)
    {
      sitesAdded.append(site)
    }
    guard !(classesAdded.isEmpty && appIDsAdded.isEmpty && executablesAdded.isEmpty && sitesAdded.isEmpty) else {
      return self
    }
    var widened = self
    if isPlainName {
      widened.classes = [name]
      widened.appIDs = [name]
      widened.executables = [name]
    }
    widened.classes += classesAdded
    widened.appIDs += appIDsAdded
    widened.executables += executablesAdded
    widened.sites += sitesAdded
    return widened
  }
}
