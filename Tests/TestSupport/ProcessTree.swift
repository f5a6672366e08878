import Foundation
import Posix
public import Spawn

extension Subprocess {
  /// Kills the process, its process group and every process descended from
  /// it, those that left the group included.
  ///
  /// A terminal's child (`xterm -e sleep 600`) takes a session of its own;
  /// it ends when the terminal hangs its line up, which a terminal killed
  /// before it could does not do. The group is stopped first, so that nothing
  /// in it starts another process while the tree is read from `/proc`.
  public func killTree() {
    signalGroup(SIGSTOP)
    for descendant in Self.descendants(of: pid) { kill(descendant, SIGKILL) }
    signalGroup(SIGKILL)
  }

  /// Kills every process started with `entry` (`NAME=value`) in its
  /// environment that no longer descends from this test process: what a
  /// session's programs left behind when the process that would have ended
  /// it was killed first (an xterm closed by the service under test before
  /// its child took the terminal, so that no hangup ever reaches the child).
  ///
  /// The starting environment (`/proc/PID/environ`) is kept through `exec`,
  /// `setsid` and a double fork; the processes still under this one are
  /// their owners' to end.
  public static func killOrphans(startedWith entry: String) {
    let own = getpid()
    let ours = Set(descendants(of: own))
    for pid in processes(startedWith: entry) where pid != own && !ours.contains(pid) {
      kill(pid, SIGKILL)
    }
  }

  /// The processes whose starting environment (`/proc/PID/environ`) holds `entry` (`NAME=value`).
  public static func processes(startedWith entry: String) -> [Int32] {
    let wanted = Array(entry.utf8)
    return ((try? FileSystem.contentsOfDirectory("/proc")) ?? []).compactMap(Int32.init).filter { pid in
      guard let environment = try? FileSystem.readPrefix("/proc/\(pid)/environ", limit: 1 << 18) else {
        return false
      }
      return environment.split(separator: 0).contains { $0.elementsEqual(wanted) }
    }
  }

  /// The arguments `pid` was started with (`/proc/PID/cmdline`), its program
  /// first; `nil` when the process is gone or not readable.
  public static func arguments(of pid: Int32) -> [String]? {
    guard let command = try? FileSystem.readPrefix("/proc/\(pid)/cmdline", limit: 1 << 18) else { return nil }
    return command.split(separator: 0, omittingEmptySubsequences: false).dropLast().map {
      String(decoding: $0, as: UTF8.self)
    }
  }

  /// Every process descended from `pid`, found through each thread's `children` in `/proc`.
  static func descendants(of pid: Int32) -> [Int32] {
    var pending = [pid]
    var found: [Int32] = []
    while let parent = pending.popLast() {
      let tasks = (try? FileSystem.contentsOfDirectory("/proc/\(parent)/task")) ?? []
      for task in tasks {
        // `fstat` gives the kernel's files a size of 0: read up to a bound instead.
        let text = (try? FileSystem.readPrefix("/proc/\(parent)/task/\(task)/children", limit: 1 << 16)) ?? []
        let children = String(decoding: text, as: UTF8.self).split(separator: " ").compactMap { Int32($0) }
        found += children
        pending += children
      }
    }
    return found
  }
}
