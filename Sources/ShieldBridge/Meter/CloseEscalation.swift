import Posix

/// `onLimit: "close"` after the windows were asked to close: SIGTERM to the
/// processes still there after the first grace period, SIGKILL after the second.
///
/// Each process is remembered with its start time (`/proc/PID/stat`, field
/// 22), and a signal goes out only while the pid still names that same
/// process: a pid the kernel gave to another program in the meantime is left
/// alone. Pure bookkeeping apart from ``fire(at:)``, which reads `/proc` and signals.
struct CloseEscalation: Sendable {
  struct Pending: Hashable, Sendable {
    var pid: Int32
    /// The process's start time in clock ticks since boot; `nil` when it could not be read.
    var started: UInt64?
    var rule: String
    var signal: Signal
    var due: MonotonicTime
  }

  let closeGrace: Duration
  let killGrace: Duration
  private(set) var pending: [Pending] = []

  init(closeGrace: Duration, killGrace: Duration) {
    self.closeGrace = closeGrace
    self.killGrace = killGrace
  }

  /// The next moment something is due; `nil` when nothing is pending.
  var nextDeadline: MonotonicTime? { pending.map(\.due).min() }

  /// Starts the grace period for `pids` of `rule`; a pid already pending keeps its earlier deadline.
  mutating func closing(_ pids: [Int32], rule: String, at now: MonotonicTime) {
    for pid in Set(pids) where pid > 0 && !pending.contains(where: { $0.pid == pid }) {
      pending.append(
        Pending(
          pid: pid, started: Self.startTime(of: pid), rule: rule, signal: .terminate,
          due: now.advanced(by: closeGrace)))
    }
  }

  /// A grant lifted `rule`: its apps may stay.
  mutating func cancel(rule: String) {
    pending.removeAll { $0.rule == rule }
  }

  mutating func cancelAll() {
    pending.removeAll()
  }

  /// Sends what is due at `now`; a SIGTERM is followed by a SIGKILL after ``killGrace``.
  ///
  /// - Returns: One line per signal sent or process found gone, for the log.
  mutating func fire(at now: MonotonicTime) -> [String] {
    var lines: [String] = []
    var kept: [Pending] = []
    for var entry in pending {
      guard entry.due <= now else {
        kept.append(entry)
        continue
      }
      guard Self.startTime(of: entry.pid) == entry.started, entry.started != nil || Self.exists(entry.pid) else {
        lines.append("rule \(entry.rule): process \(entry.pid) has ended")
        continue
      }
      do {
        try entry.signal.send(to: entry.pid)
        let name = entry.signal == .terminate ? "SIGTERM" : "SIGKILL"
        lines.append("rule \(entry.rule): sent \(name) to process \(entry.pid)")
        if entry.signal == .terminate {
          entry.signal = .kill
          entry.due = now.advanced(by: killGrace)
          kept.append(entry)
        }
      } catch {
        lines.append("rule \(entry.rule): cannot signal process \(entry.pid): \(error)")
      }
    }
    pending = kept
    return lines
  }

  /// The start time of `pid` (``ProcessStat``); `nil` when the process is gone or the line unreadable.
  static func startTime(of pid: Int32) -> UInt64? {
    ProcessStat(of: pid)?.startTime
  }

  private static func exists(_ pid: Int32) -> Bool {
    FileSystem.exists("/proc/\(pid)")
  }
}
