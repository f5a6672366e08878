/// How long a test waits for what should come at once before it calls the
/// wait a hang and fails.
///
/// A bound is for a hang, not for a slow machine: the suite runs beside other
/// work (two cores, `stress-ng --cpu 2 --io 1`, see docs/developing/testing.md), where a
/// bus that answers in a millisecond when idle can take seconds. Every wait
/// ends on what it waits for (a reply, a signal, a file, a window state), so
/// a generous bound costs nothing while the test passes. A timeout that a
/// test provokes on purpose (a silent peer, a held lock) is no hang bound and
/// stays short.
public enum HangBound {
  /// A method call's reply on a bus.
  public static let answer: Duration = .seconds(30)
  /// Anything else awaited: a signal, a log line, a file, a window, a process's end.
  public static let wait: Duration = .seconds(30)
}
