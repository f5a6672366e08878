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
    var pending = [pid]
    var descendants: [Int32] = []
    while let parent = pending.popLast() {
      let children = Self.children(of: parent)
      descendants += children
      pending += children
    }
    for descendant in descendants { kill(descendant, SIGKILL) }
    signalGroup(SIGKILL)
  }

  /// The children of `pid`, from each of its threads' `children` in `/proc` (empty when it is gone).
  private static func children(of pid: Int32) -> [Int32] {
    let tasks = (try? FileSystem.contentsOfDirectory("/proc/\(pid)/task")) ?? []
    return tasks.flatMap { task -> [Int32] in
      let text = (try? FileSystem.readFile("/proc/\(pid)/task/\(task)/children", limit: 1 << 16)) ?? []
      return String(decoding: text, as: UTF8.self).split(separator: " ").compactMap { Int32($0) }
    }
  }
}
