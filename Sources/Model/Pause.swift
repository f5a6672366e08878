/// The pause before a task's answer is taken (issue 25 point 4): a rule's
/// `pauseSeconds` (0–60, default 0) from the moment its task was first shown.
///
/// The decision is pure: given the pause and the time since the task was
/// shown, the seconds still to wait. The callers measure the time with their
/// own monotonic clock (the terminal, the native host) or the instants the
/// service hands its core; none of them takes an answer while seconds are left.
///
/// The pause runs once per request, from its first task: a wrong answer's new
/// task is answered at once, since the request has already waited.
public struct Pause: Hashable, Sendable {
  /// The pause, in whole seconds (``Rule/pauseSecondsRange``).
  public let seconds: Int

  public init(seconds: Int) {
    self.seconds = min(max(seconds, 0), Rule.pauseSecondsRange.upperBound)
  }

  /// The pause of `rule`.
  public init(of rule: Rule) {
    self.init(seconds: rule.pauseSeconds)
  }

  /// Whether there is a pause at all.
  public var isNone: Bool { seconds == 0 }

  /// The whole seconds still to wait when `elapsed` has passed since the task
  /// was shown, rounded up (0.2 s left is 1 s to wait); 0: the answer is taken.
  ///
  /// A negative `elapsed` (a clock that went back) counts as none: the whole pause is left.
  public func secondsLeft(after elapsed: Duration) -> Int {
    let pause = Duration.seconds(seconds)
    guard elapsed < pause else { return 0 }
    let left = pause - max(elapsed, .zero)
    let (whole, fraction) = left.components
    return Int(whole) + (fraction > 0 ? 1 : 0)
  }
}
