/// What a scan of a link or of percent-encoded text does with a problem: name
/// it, or only stop.
///
/// The scanner and the decoder are generic over it, like WebURL's parser over
/// its validation callback, so that one implementation of the grammar serves
/// both the strict path, which says what was wrong and where, and the fast
/// path, which says nothing. A problem is passed as an autoclosure: where the
/// reporter does not evaluate it, no message is ever formatted, and once
/// specialised the code that would build it is gone.
protocol ProblemReporter {
  associatedtype Failure: Error

  /// Whether the scan keeps what is worth telling but is not wrong, such as
  /// keys a route does not know; a reporter that does not stops there.
  static var keepsNotes: Bool { get }

  /// What the scan throws for `problem`.
  static func failure(_ problem: @autoclosure () -> DeepLinkError) -> Failure
}

/// Names every problem, with its code and byte offset: the strict path.
enum ReportingProblems: ProblemReporter {
  static var keepsNotes: Bool {
    @inline(__always) get { true }
  }

  @inline(__always)
  static func failure(_ problem: @autoclosure () -> DeepLinkError) -> DeepLinkError {
    problem()
  }
}

/// Stops at the first problem, or at anything to note, without saying why:
/// the fast path, after which the strict one reads the link again.
enum StoppingAtProblems: ProblemReporter {
  /// The scan stopped; the strict path knows why.
  struct Stopped: Error {}

  static var keepsNotes: Bool {
    @inline(__always) get { false }
  }

  @inline(__always)
  static func failure(_ problem: @autoclosure () -> DeepLinkError) -> Stopped {
    Stopped()
  }
}
