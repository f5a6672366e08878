import Foundation
import TestSupport

/// A process frozen the way the kernel's cgroup freezer does it: it stops
/// running, as on a machine too busy to run it, and gets no signal (no
/// `SIGSTOP`, no `SIGCONT`) either way.
///
/// The process is moved into a cgroup of its own, frozen, thawed, and moved
/// back. The freezer of cgroup v1 (`freezer.state`) where it is mounted, else
/// cgroup v2's `cgroup.freeze`.
struct Freezer {
  let group: String
  let root: String
  let version2: Bool

  init(name: String) throws {
    let fileManager = FileManager.default
    if fileManager.fileExists(atPath: "/sys/fs/cgroup/freezer/cgroup.procs") {
      root = "/sys/fs/cgroup/freezer"
      version2 = false
    } else if fileManager.fileExists(atPath: "/sys/fs/cgroup/cgroup.freeze")
      || fileManager.fileExists(atPath: "/sys/fs/cgroup/cgroup.subtree_control")
    {
      root = "/sys/fs/cgroup"
      version2 = true
    } else {
      throw CommandFailed(description: "no cgroup freezer is mounted (neither v1's freezer nor cgroup v2)")
    }
    group = root + "/" + name
    try fileManager.createDirectory(atPath: group, withIntermediateDirectories: false)
  }

  /// Freezes `pid` and waits until the kernel says every thread of it is frozen.
  func freeze(_ pid: Int32) async throws {
    try write("\(pid)\n", to: group + "/cgroup.procs")
    try write(version2 ? "1\n" : "FROZEN\n", to: group + (version2 ? "/cgroup.freeze" : "/freezer.state"))
    _ = try await poll("the freezer to freeze \(pid)") {
      let state = try String(contentsOfFile: group + (version2 ? "/cgroup.events" : "/freezer.state"), encoding: .utf8)
      return (version2 ? state.contains("frozen 1") : state.hasPrefix("FROZEN")) ? true : nil
    }
  }

  /// Thaws what is frozen, moves `pid` back to the root group and removes the group.
  func thaw(_ pid: Int32) throws {
    try write(version2 ? "0\n" : "THAWED\n", to: group + (version2 ? "/cgroup.freeze" : "/freezer.state"))
    try? write("\(pid)\n", to: root + "/cgroup.procs")
    // rmdir, not a recursive removal: a cgroup's folder goes with its control files.
    _ = rmdir(group)
  }

  private func write(_ text: String, to path: String) throws {
    guard let handle = FileHandle(forWritingAtPath: path) else {
      throw CommandFailed(description: "cannot open \(path) for writing")
    }
    defer { try? handle.close() }
    try handle.write(contentsOf: Data(text.utf8))
  }
}
