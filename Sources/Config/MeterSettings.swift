/// The timings of the meter loop; the defaults are the product's, tests and the demo shorten them.
public struct MeterSettings: Hashable, Sendable {
  /// Input idle longer than this stops the count, unless idle is inhibited.
  public var idleLimit: Duration
  /// How long one minute of a rule's limits lasts: 60 s, except in the demo and the tests.
  public var minuteLength: Duration
  /// While time counts (or counted time is not yet stored), the ledger is
  /// written at least this often, so that a crash loses at most this much.
  public var saveInterval: Duration
  /// `onLimit: "close"`: how long the app has to close its windows before it gets SIGTERM.
  public var closeGrace: Duration
  /// And how long after SIGTERM before SIGKILL.
  public var killGrace: Duration

  public init(
    idleLimit: Duration = .seconds(300), minuteLength: Duration = .seconds(60), saveInterval: Duration = .seconds(30),
    closeGrace: Duration = .seconds(10), killGrace: Duration = .seconds(10)
  ) {
    self.idleLimit = idleLimit
    self.minuteLength = minuteLength
    self.saveInterval = saveInterval
    self.closeGrace = closeGrace
    self.killGrace = killGrace
  }
}
