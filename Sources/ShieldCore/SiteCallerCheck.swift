/// Whether a `SiteFocus` caller may report the site of the browser it names.
///
/// A browser starts its native-messaging host as its own child (Chromium and
/// Firefox both do; our launcher `exec`s the binary), so a real host is a
/// descendant of the browser it names. A process that is not, a forger on
/// the session bus, could otherwise make the meter count a site for any
/// window whose pid it names and keep that window from being hidden. The
/// caller's pid comes from the bus (`GetConnectionUnixProcessID`), not from
/// the caller; its ancestry from `/proc`, read by the service.
///
/// What this does not stop: a process the user starts under the program it
/// names (a terminal's shell that `exec`s a host naming the terminal). That
/// takes a deliberate act under the user's own account; docs/using/websites.md says so.
public struct SiteCallerCheck: Hashable, Sendable {
  /// The most generations between a caller and the browser it names: one
  /// for the hosts browsers start, a few more for a launcher or sandbox in
  /// between; also the most `/proc` reads a call costs.
  public static let maximumGenerations = 4

  /// The answer: the caller may report for the browser, or why not.
  public enum Verdict: Hashable, Sendable {
    /// The caller descends from the browser, `generations` below it (1: its child).
    case accepted(generations: Int)
    /// The bus could not say which process the caller is.
    case unknownCaller
    /// The named pid is no browser any caller may name: 0, negative, or 1 (init).
    case notABrowser(Int32)
    /// The caller named its own process: a host is never its browser.
    case namedItself(Int32)
    /// The named process is not among the caller's ancestors within ``maximumGenerations``.
    case notAnAncestor(caller: Int32, browser: Int32)

    public var isAccepted: Bool {
      if case .accepted = self { true } else { false }
    }

    /// Why a refused caller was refused, as the D-Bus error and the log say it.
    public var reason: String {
      switch self {
      case .accepted(let generations):
        "the caller descends from the browser, \(generations) generation(s) below it"
      case .unknownCaller:
        "the bus cannot say which process the caller is"
      case .notABrowser(let pid):
        "browserPid \(pid) is not a browser's process"
      case .namedItself(let pid):
        "the caller named its own process \(pid) as the browser; a host names the browser that started it"
      case .notAnAncestor(let caller, let browser):
        "the calling process \(caller) was not started by process \(browser) "
          + "(within \(SiteCallerCheck.maximumGenerations) generations); only a browser's native-messaging host "
          + "may report its site"
      }
    }
  }

  /// The decision for a caller.
  ///
  /// - Parameters:
  ///   - caller: The calling process, as the bus says; `nil` when it cannot.
  ///   - ancestry: The caller's ancestors, its parent first, at most
  ///     ``maximumGenerations`` of them (fewer where the chain ends or a
  ///     process is gone); more are not looked at.
  ///   - browser: The pid the caller names as its browser.
  public static func verdict(caller: Int32?, ancestry: [Int32], browser: Int32) -> Verdict {
    guard browser > 1 else { return .notABrowser(browser) }
    guard let caller, caller > 0 else { return .unknownCaller }
    guard caller != browser else { return .namedItself(caller) }
    guard let index = ancestry.prefix(maximumGenerations).firstIndex(of: browser) else {
      return .notAnAncestor(caller: caller, browser: browser)
    }
    return .accepted(generations: index + 1)
  }
}
