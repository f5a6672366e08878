import Foundation
import Spawn
import Synchronization

/// A Debian 13 ("trixie") tree of a test's own, unpacked from the tar that
/// `scripts/debian13-chroot` builds, to run GNOME Shell 48 and KWin 6 in.
///
/// Programs enter it through ``command(_:)``: a mount namespace of their own
/// (`unshare -m`, private propagation) binds `/proc`, `/sys`, `/dev`,
/// `/dev/pts` and this machine's temporary folder into the tree, then
/// `chroot`s. The mounts live only as long as that namespace's processes, so
/// nothing stays mounted when a test ends or fails, and removing the tree
/// never reaches through a bind. The temporary folder is the same path on
/// both sides: a test's folders (`XDG_RUNTIME_DIR`, a bus's socket, X's
/// sockets in `/tmp/.X11-unix`) made on the host are seen as they are inside,
/// and the other way round, so host-side clients and backends talk to the
/// compositor in the chroot.
public final class Trixie: Sendable {
  /// Where `scripts/debian13-chroot` stores the tree (`make deps-chroot`).
  public static let tarball = "/var/cache/shieldbridge/trixie.tar.zst"
  /// The unpacked tree.
  public let root: String

  /// Builds the tar when it is missing (once for the whole test run), unpacks it into a temporary folder.
  ///
  /// - Throws: ``DesktopError`` with the reason when the tar cannot be built or unpacked.
  public init() async throws {
    for (tool, package) in [("unshare", "util-linux"), ("chroot", "coreutils"), ("zstd", "zstd")] {
      _ = try requiredTool(tool, package: package)
    }
    try await Self.built.value.get()
    let template = "/var/tmp/shieldbridge-trixie.XXXXXX"
    var bytes = Array(template.utf8CString)
    guard let made = mkdtemp(&bytes) else { throw DesktopError("cannot make a folder for the chroot in /var/tmp") }
    root = String(cString: made)
    let root = root
    let unpacked = try await onOwnThread {
      try Subprocess.run(["tar", "--zstd", "-xf", Self.tarball, "-C", root], timeout: .seconds(120))
    }
    guard unpacked.status == 0 else {
      throw DesktopError("cannot unpack \(Self.tarball) into \(root): \(unpacked.error)")
    }
  }

  deinit {
    // Nothing is mounted in the tree outside the namespaces of its programs, which have ended.
    _ = try? Subprocess.run(["rm", "-rf", "--one-file-system", root], timeout: .seconds(120))
  }

  /// `scripts/debian13-chroot`, run once for all the tests that want the tree: a failure is each one's.
  private static let built = Task<Result<Void, DesktopError>, Never> {
    do {
      let result = try await onOwnThread {
        try Subprocess.run(
          [GnomeShellSession.repositoryPath + "/scripts/debian13-chroot", tarball], timeout: .seconds(900))
      }
      guard result.status == 0 else {
        let status = result.status.map { "exit status \($0)" } ?? "not within 15 minutes"
        return .failure(DesktopError("scripts/debian13-chroot failed (\(status)): \(result.error.suffix(3000))"))
      }
      return .success(())
    } catch {
      return .failure(DesktopError("cannot run scripts/debian13-chroot: \(error)"))
    }
  }

  /// The temporary folder this process's tests make their folders in, bound at the same path inside.
  public static var temporaryFolder: String {
    let base = NSTemporaryDirectory()
    return base.count > 1 && base.hasSuffix("/") ? String(base.dropLast()) : base
  }

  /// `arguments` run inside the tree (`arguments[0]` is looked up in the chroot's `PATH`):
  /// the command line to start on the host.
  public func command(_ arguments: [String]) -> [String] {
    let script = """
      set -e
      root=$1; shared=$2; shift 2
      mount --bind "$root" "$root"
      for d in proc sys dev dev/pts; do mount --bind "/$d" "$root/$d"; done
      mkdir -p "$root$shared"
      mount --bind "$shared" "$root$shared"
      exec chroot "$root" "$@"
      """
    return ["unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh", root, Self.temporaryFolder]
      + arguments
  }

  /// Runs `arguments` inside the tree and returns what it printed, trimmed.
  ///
  /// - Throws: ``DesktopError`` when it does not exit with 0.
  public func run(_ arguments: [String]) async throws -> String {
    let command = command(arguments)
    let result = try await onOwnThread { try Subprocess.run(command, timeout: .seconds(30)) }
    guard result.status == 0 else {
      throw DesktopError("\(arguments.joined(separator: " ")) in the chroot failed: \(result.error)")
    }
    return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
