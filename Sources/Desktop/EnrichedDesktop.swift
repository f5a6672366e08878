import Model

/// A backend whose identities are completed with what `/proc` knows of their pid.
///
/// The focused window's app, and every app a `hide` or `close` predicate is
/// asked about, gets the executable, `comm`, `argv[0]` and systemd scope of
/// its pid where the backend did not tell them, so that a rule's names match
/// the same way under every backend.
///
/// A window's names are read from `/proc` the first time it has the focus
/// and kept while the backend reports it alike (the same window, the same
/// names and pid): four reads of `/proc` were most of what a focus change
/// cost (`benchmarks/meter --floor`). A process that renames itself later
/// keeps, for its window, the names it had when first seen.
final class EnrichedDesktop: DesktopBackend {
  let inner: any DesktopBackend
  private let table: ProcessTable

  init(_ inner: any DesktopBackend, table: ProcessTable) {
    self.inner = inner
    self.table = table
  }

  var kind: DesktopKind { inner.kind }
  var countingSource: CountingSource { inner.countingSource }
  var limitations: [String] { inner.limitations }
  var attention: String? { inner.attention }

  /// How many focused windows' names are kept at most.
  static let knownWindows = 256

  /// `identity` with the names of its process filled in.
  func enrich(_ identity: AppIdentity) -> AppIdentity {
    guard let pid = identity.pid, let process = table.identity(ofProcess: pid) else { return identity }
    return identity.filling(from: process)
  }

  var stampsChanges: Bool { inner.stampsChanges }

  func events(idleAfter: Duration) -> AsyncStream<DesktopEvent> {
    stampedEvents(idleAfter: idleAfter).unstamped()
  }

  func stampedEvents(idleAfter: Duration) -> AsyncStream<StampedDesktopEvent> {
    let (stream, continuation) = AsyncStream.makeStream(of: StampedDesktopEvent.self)
    let source = inner.stampedEvents(idleAfter: idleAfter)
    Task { [self] in
      var known: [FocusedWindow: AppIdentity] = [:]
      for await stamped in source {
        let event = stamped.event
        if case .focus(var window?) = event {
          if let app = known[window] {
            window.app = app
          } else {
            // A bound on what is kept: the windows of a day fit many times over.
            if known.count >= Self.knownWindows { known.removeAll(keepingCapacity: true) }
            let reported = window
            window.app = enrich(window.app)
            known[reported] = window.app
          }
          continuation.yield(StampedDesktopEvent(.focus(window), stamp: stamped.stamp))
        } else if case .running(let apps) = event {
          continuation.yield(StampedDesktopEvent(.running(apps.map(enrich)), stamp: stamped.stamp))
        } else {
          continuation.yield(stamped)
        }
      }
      continuation.finish()
    }
    continuation.onTermination = { [inner] _ in inner.stop() }
    return stream
  }

  func hide(where matches: @escaping @Sendable (AppIdentity) -> Bool) async throws(DesktopError) -> Int {
    try await inner.hide { [self] in matches(enrich($0)) }
  }

  func close(where matches: @escaping @Sendable (AppIdentity) -> Bool) async throws(DesktopError) -> [Int32] {
    try await inner.close { [self] in matches(enrich($0)) }
  }

  func stop() {
    inner.stop()
  }
}
