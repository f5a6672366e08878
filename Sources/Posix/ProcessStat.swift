/// What `/proc/PID/stat` says of a process: its parent and its start time.
///
/// The second field, the command, is in parentheses and may itself hold
/// spaces and parentheses: the fields after it are counted from the last `)`.
public struct ProcessStat: Hashable, Sendable {
  /// Field 4, `ppid` (0 for init and kernel threads).
  public var parentID: Int32
  /// Field 22, `starttime`: clock ticks since boot.
  public var startTime: UInt64

  /// The most read of the file: one line of about 300 bytes in practice.
  static let limit = 4096

  /// The line of `pid`; `nil` when the process is gone or the line unreadable.
  public init?(of pid: Int32, root: String = "/proc") {
    guard pid > 0, let bytes = try? FileSystem.readPrefix("\(root)/\(pid)/stat", limit: Self.limit) else {
      return nil
    }
    self.init(line: bytes)
  }

  /// Reads one `stat` line; `nil` when it has too few fields or they are not numbers.
  public init?(line bytes: [UInt8]) {
    guard let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
    // After ")": " state ppid …"; ppid is field 4, the 2nd after the command; starttime the 20th.
    let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
    guard fields.count >= 20, let parent = Int32(String(decoding: fields[1], as: UTF8.self)),
      let start = UInt64(String(decoding: fields[19], as: UTF8.self))
    else { return nil }
    parentID = parent
    startTime = start
  }

  /// The ancestors of `pid`, its parent first, at most `generations` of them;
  /// the chain ends early at init (its parent is 0) or at a process that is gone.
  public static func ancestry(of pid: Int32, generations: Int, root: String = "/proc") -> [Int32] {
    var chain: [Int32] = []
    var current = pid
    while chain.count < generations, let stat = ProcessStat(of: current, root: root), stat.parentID > 0 {
      chain.append(stat.parentID)
      current = stat.parentID
    }
    return chain
  }
}
