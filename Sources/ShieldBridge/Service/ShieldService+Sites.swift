import DBus
import JSON
import Model
import Posix
import ShieldCore

/// A connection that reports a browser's site (a native-messaging host), as the service keeps it.
struct SiteCaller: Sendable {
  var site: Site?
  var browserPID: Int32
  /// Whether the browser says the window of that tab is focused; decides only without a focus backend.
  var windowFocused: Bool
  /// Its `NameOwnerChanged`: the caller is forgotten when it leaves the bus.
  var subscription: SignalSubscription?
}

extension ShieldService {
  /// The most connections whose sites are kept at once; one more is refused.
  ///
  /// There is one host per running browser: 64 is far more than anyone runs,
  /// and it bounds what a process on the bus can make the service hold. A
  /// caller refused by ``SiteCallerCheck`` never takes a place.
  static let siteCallersKept = 64

  /// `SiteFocus(s site, u browserPid, b windowFocused) → s`: the site of the
  /// active tab of the caller's browser's last focused window (`""` for none),
  /// whether the browser says that window is focused, and where the site stands.
  ///
  /// Only a browser's native-messaging host may report: the calling process
  /// (as the bus says) must descend from `browserPID` (``SiteCallerCheck``),
  /// so a forger cannot make the meter count a site for another program's
  /// window or keep that window from being hidden. The service keeps one
  /// site per calling connection (its unique name) and forgets it when that
  /// connection leaves the bus; the meter counts it as an event (see ``ShieldCore``).
  ///
  /// - Returns: ``SiteState`` as JSON.
  /// - Throws: `InvalidArgs` for a site over 253 bytes or not a host name,
  ///   `AccessDenied` for a caller that does not descend from `browserPID`,
  ///   `LimitsExceeded` for a caller beyond ``siteCallersKept``, `Failed` for
  ///   a caller the bus would not watch leave, `Stopping` once ``stop()`` began.
  func siteFocus(
    _ text: String, browserPID: UInt32, windowFocused: Bool, caller: BusName?
  ) async throws(DBusError) -> String {
    if gate.isClosed { throw ServiceError(.stopping, "the ShieldBridge service is stopping").dbusError }
    let site: Site?
    if text.isEmpty {
      site = nil
    } else {
      guard text.utf8.count <= Site.maximumLength else {
        throw DBusError(
          .invalidArgs, "the site is \(text.utf8.count) bytes long; a host name has at most \(Site.maximumLength)")
      }
      guard let parsed = Site(text) else {
        throw DBusError(
          .invalidArgs,
          "the site is not a host name (letters, digits, hyphens and dots, such as instagram.com; "
            + "no scheme, port or path)")
      }
      site = parsed
    }
    guard let caller else { throw DBusError(.invalidArgs, "SiteFocus needs a caller on a bus") }
    guard let pid = Int32(exactly: browserPID), pid > 0 else {
      throw DBusError(.invalidArgs, "browserPid must be a process id, not \(browserPID)")
    }
    // A caller is checked when it first names a browser; its process cannot change on the same connection.
    if siteCallers[caller]?.browserPID != pid {
      try await checkCaller(caller, browser: pid)
      if gate.isClosed { throw ServiceError(.stopping, "the ShieldBridge service is stopping").dbusError }
    }
    if siteCallers[caller] == nil {
      guard siteCallers.count < Self.siteCallersKept else {
        throw DBusError(
          .limitsExceeded, "the service keeps the sites of at most \(Self.siteCallersKept) connections")
      }
      // In place before the wait below, so that a second call meanwhile finds it.
      siteCallers[caller] = SiteCaller(site: site, browserPID: pid, windowFocused: windowFocused)
      guard await follow(caller) else {
        throw DBusError(.failed, "the service cannot watch this connection leave the bus; try again")
      }
    }
    if siteCallers[caller] != nil {
      siteCallers[caller]?.site = site
      siteCallers[caller]?.browserPID = pid
      siteCallers[caller]?.windowFocused = windowFocused
    }
    let report = await sitesChanged()
    return SiteState(site: site, rules: options.configuration.rules, report: report).json.serialized
  }

  /// Refuses `caller` unless its process descends from `browser` (``SiteCallerCheck``).
  ///
  /// - Throws: `AccessDenied` with the reason, which the log says too.
  private func checkCaller(_ caller: BusName, browser: Int32) async throws(DBusError) {
    let process: Int32?
    do {
      process = Int32(exactly: try await connection.processID(of: caller))
    } catch {
      log.for("sites").debug("the bus gave no process for \(caller): \(error.message)")
      process = nil
    }
    let ancestry = process.map { ProcessStat.ancestry(of: $0, generations: SiteCallerCheck.maximumGenerations) } ?? []
    let verdict = SiteCallerCheck.verdict(caller: process, ancestry: ancestry, browser: browser)
    guard verdict.isAccepted else {
      log.for("sites").warning("refused SiteFocus from \(caller): \(verdict.reason)")
      throw DBusError(.accessDenied, "SiteFocus refused: \(verdict.reason)")
    }
  }

  /// Watches `caller` leave the bus; forgets it at once when it already left.
  ///
  /// - Returns: `false` when the bus would not watch it: the caller is then
  ///   not kept, since nothing would ever free its place.
  private func follow(_ caller: BusName) async -> Bool {
    let subscription: SignalSubscription
    do {
      subscription = try await connection.watchDeparture(of: caller) { [weak self] in
        guard let self else { return }
        Task { await self.left(caller) }
      }
    } catch {
      log.for("sites").warning("cannot watch a host leave the bus (\(error.message)); its site is not kept")
      siteCallers[caller] = nil
      return false
    }
    guard siteCallers[caller] != nil else {
      subscription.cancel()
      return true
    }
    siteCallers[caller]?.subscription = subscription
    return true
  }

  /// A host left the bus (its browser closed it): its site no longer counts.
  func left(_ caller: BusName) async {
    guard let gone = siteCallers.removeValue(forKey: caller) else { return }
    gone.subscription?.cancel()
    log.for("sites").info("a host left the bus; \(siteCallers.count) still report")
    _ = await sitesChanged()
  }

  /// Gives the meter every caller's site; today's use after it.
  private func sitesChanged() async -> UsageReport {
    let reports = siteCallers.values.compactMap { caller in
      caller.site.map { SiteReport(site: $0, browserPID: caller.browserPID, windowFocused: caller.windowFocused) }
    }
    await settle(.sites(reports.sorted { ($0.site, $0.browserPID) < ($1.site, $1.browserPID) }))
    return await usage()
  }

  /// Forgets every caller (the service stops).
  func forgetSiteCallers() {
    for caller in siteCallers.values { caller.subscription?.cancel() }
    siteCallers = [:]
  }
}
