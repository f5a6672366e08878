public import DBus
import Posix
import ShieldBridge

/// Where the running service's log goes: what `status` and `doctor` name
/// where they say "its log says why".
///
/// The service logs on its standard error, and what that is depends on who
/// started it: the systemd user unit gives it the journal, an XDG autostart
/// entry gives it the session manager's standard error (under a display
/// manager, `~/.xsession-errors`), a terminal gives it the terminal. So it
/// is read from the running process itself (`/proc/PID/fd/2`, the
/// `JOURNAL_STREAM` systemd set in its environment, its cgroup), which is
/// what it is on every desktop and for every way of starting it.
public enum ServiceLog: Hashable, Sendable {
  /// systemd's journal: of the unit the process runs in, or of the process (`_PID=`) outside one.
  case journal(unit: String?, pid: Int32)
  /// A file, such as `~/.xsession-errors`.
  case file(String)
  /// The terminal it was started in.
  case terminal(String)
  /// `/dev/null`: the log is not kept.
  case discarded
  /// Something else (a pipe or a socket that is not the journal): the program that started the service reads it.
  case elsewhere(String)

  /// Where the log of the process that owns the service's name on `bus` goes; `nil` when none owns it or it cannot be read.
  public static func find(on bus: Connection.Bus, proc: String = "/proc") async -> ServiceLog? {
    guard let connection = try? Connection(bus, timeout: .seconds(5)) else { return nil }
    defer { connection.close() }
    guard let owner = try? await connection.nameOwner(ServiceNames.busName, timeout: .seconds(5)),
      !owner.rawValue.isEmpty, let pid = try? await connection.processID(of: owner, timeout: .seconds(5))
    else { return nil }
    return of(pid: Int32(truncatingIfNeeded: pid), proc: proc)
  }

  /// Where the standard error of process `pid` goes; `nil` when it cannot be read (another user's process).
  public static func of(pid: Int32, proc: String = "/proc") -> ServiceLog? {
    let folder = "\(proc)/\(pid)"
    guard let target = try? FileSystem.destinationOfSymbolicLink(folder + "/fd/2") else { return nil }
    let stream = (try? FileSystem.status(folder + "/fd/2")).map { "\($0.device):\($0.inode)" }
    let environment = (try? FileSystem.readPrefix(folder + "/environ", limit: 256 << 10)) ?? []
    let journalStream = environment.split(separator: 0).lazy.map { String(decoding: $0, as: UTF8.self) }
      .first { $0.hasPrefix("JOURNAL_STREAM=") }.map { String($0.dropFirst("JOURNAL_STREAM=".count)) }
    let cgroup = (try? FileSystem.readPrefix(folder + "/cgroup", limit: 64 << 10)).map {
      String(decoding: $0, as: UTF8.self)
    }
    return place(
      standardError: target, stream: stream, journalStream: journalStream, cgroup: cgroup, pid: pid)
  }

  /// The place, from what `/proc` says of the process: pure.
  ///
  /// - Parameters:
  ///   - standardError: The target of `/proc/PID/fd/2` (`/dev/pts/3`, `socket:[123]`, a path).
  ///   - stream: Its device and inode, `DEVICE:INODE` in decimal, as `JOURNAL_STREAM` writes them.
  ///   - journalStream: `JOURNAL_STREAM` of the process's environment, if any.
  ///   - cgroup: `/proc/PID/cgroup`, whose `.service` names the systemd unit.
  static func place(
    standardError: String, stream: String?, journalStream: String?, cgroup: String?, pid: Int32
  ) -> ServiceLog {
    if let journalStream, journalStream == stream {
      return .journal(unit: unit(in: cgroup), pid: pid)
    }
    if standardError == "/dev/null" { return .discarded }
    if standardError.hasPrefix("/dev/pts/") || standardError.hasPrefix("/dev/tty") {
      return .terminal(standardError)
    }
    if standardError.hasPrefix("/") { return .file(standardError) }
    return .elsewhere(standardError)
  }

  /// The systemd unit of a cgroup path (`…/app.slice/shieldbridge.service`); `nil` outside a service unit.
  private static func unit(in cgroup: String?) -> String? {
    guard let cgroup else { return nil }
    for line in cgroup.split(separator: "\n") {
      let path = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).last ?? ""
      if let last = path.split(separator: "/").last, last.hasSuffix(".service") { return String(last) }
    }
    return nil
  }

  /// Where to look, as one phrase: `journalctl --user -u shieldbridge`, a path, or what there is instead.
  public var text: String {
    switch self {
    case .journal(let unit?, _):
      "journalctl --user -u " + (unit == "shieldbridge.service" ? "shieldbridge" : unit)
    case .journal(nil, let pid):
      "journalctl --user _PID=\(pid)"
    case .file(let path):
      path
    case .terminal(let terminal):
      "the terminal it was started in (\(terminal))"
    case .discarded:
      "nowhere: its standard error is /dev/null (stop it and run 'shieldbridge serve' in a terminal to see it)"
    case .elsewhere(let target):
      "its standard error (\(target)), which the program that started it reads"
    }
  }
}
