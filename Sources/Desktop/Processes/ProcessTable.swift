public import Model
import Posix

/// The one reader of `/proc`: the names of a process, as a rule's app is matched against them.
///
/// For a pid it reads `comm`, the file name of `exe`'s target, the file
/// name of `cmdline`'s first word and the app id of the systemd unit in
/// `cgroup` (``SystemdScope``). Every read is bounded, and a process that
/// ends while it is read (its files vanish: `ENOENT`, `ESRCH`) is left out
/// without a word: that is the normal life of processes, not an error.
public struct ProcessTable: Sendable {
  /// The folder of the process files, `/proc` (another for tests).
  public var root: String

  /// The most read of `comm` (15 bytes and a newline in practice).
  static let commandLimit = 256
  /// The most read of `cmdline`: only the first word is used.
  static let commandLineLimit = 4096
  /// The most read of `cgroup` (a handful of lines in practice).
  static let cgroupLimit = 64 * 1024

  public init(root: String = "/proc") {
    self.root = root
  }

  /// The pids of the processes of the user `userID` (the owner of `/proc/PID`), in increasing order.
  public func processIDs(ownedBy userID: UInt32) -> [Int32] {
    guard let names = try? FileSystem.contentsOfDirectory(root) else { return [] }
    var pids: [Int32] = []
    for name in names {
      guard let pid = Int32(name), pid > 0 else { continue }
      // A process that ended since the listing has no status any more: skipped.
      guard let status = try? FileSystem.status(root.appendingPathComponent(name)), status.owner == userID else {
        continue
      }
      pids.append(pid)
    }
    return pids.sorted()
  }

  /// The identities of the processes of the user `userID`, in increasing pid order.
  public func identities(ownedBy userID: UInt32) -> [AppIdentity] {
    processIDs(ownedBy: userID).compactMap { identity(ofProcess: $0) }
  }

  /// The names of the process `pid`, with the pid; `nil` when it has ended (or never was).
  ///
  /// A name that cannot be read (another user's `exe`, a kernel thread's
  /// empty `cmdline`) is left `nil`; `comm` is always there while the process is.
  public func identity(ofProcess pid: Int32) -> AppIdentity? {
    let folder = root.appendingPathComponent(String(pid))
    guard let comm = try? FileSystem.readPrefix(folder.appendingPathComponent("comm"), limit: Self.commandLimit)
    else { return nil }
    var identity = AppIdentity(pid: pid)
    identity.command = nonEmpty(String(decoding: comm, as: UTF8.self).trimmingTrailingNewlines)
    if let target = try? FileSystem.destinationOfSymbolicLink(folder.appendingPathComponent("exe")) {
      // A replaced or removed binary reads "/usr/bin/app (deleted)"; the name is still the app's.
      let path = target.hasSuffix(" (deleted)") ? String(target.dropLast(10)) : target
      identity.executable = nonEmpty(path.lastPathComponent)
    }
    if let line = try? FileSystem.readPrefix(
      folder.appendingPathComponent("cmdline"), limit: Self.commandLineLimit)
    {
      identity.commandLineName = Self.commandLineName(line)
    }
    if let cgroup = try? FileSystem.readPrefix(folder.appendingPathComponent("cgroup"), limit: Self.cgroupLimit) {
      identity.scopeID = SystemdScope.appID(inCgroupFile: String(decoding: cgroup, as: UTF8.self))
    }
    return identity
  }

  /// The file name of the first word of a `cmdline` (NUL-separated words).
  ///
  /// A process that rewrote its command line as one string without NULs
  /// (`setproctitle`'s "name: detail") is cut at its first space instead.
  static func commandLineName(_ bytes: [UInt8]) -> String? {
    let first: ArraySlice<UInt8>
    if let nul = bytes.firstIndex(of: 0) {
      first = bytes[..<nul]
    } else {
      first = bytes[..<(bytes.firstIndex(of: UInt8(ascii: " ")) ?? bytes.endIndex)]
    }
    return nonEmpty(String(decoding: first, as: UTF8.self).lastPathComponent)
  }
}

/// `text`, or `nil` when it is empty.
private func nonEmpty(_ text: String) -> String? {
  text.isEmpty ? nil : text
}

extension String {
  fileprivate var trimmingTrailingNewlines: String {
    var text = Substring(self)
    while text.last == "\n" { text = text.dropLast() }
    return String(text)
  }
}
