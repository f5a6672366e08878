import Foundation
import Spawn
import Synchronization

/// A Debian 13 ("trixie") tree, unpacked from the tar that
/// `scripts/debian13-chroot` builds, to run GNOME Shell 48 and KWin 6 in.
///
/// One tree serves the whole test process (``shared()``), unpacked into
/// `/dev/shm` (1.3 GB of memory while the process runs): there it takes about
/// 3 s, on this machine's disk 25 to 30 s and as long again to remove. The
/// programs write nothing into it that another test would see (their homes,
/// runtime folders and sockets are in the shared temporary folder). It is
/// removed when the process exits, and a tree left by a process that was
/// killed is removed by the next one.
///
/// Programs enter it through ``command(_:)``: a mount namespace of their own
/// (`unshare -m`, private propagation) binds `/proc`, `/sys`, `/dev`,
/// `/dev/pts`, `/dev/shm` and this machine's temporary folder into the tree, then
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

  private init(root: String) {
    self.root = root
  }

  /// This test process's tree: the tar built when it is missing, and unpacked, by the first caller.
  ///
  /// - Throws: ``DesktopError`` with the reason when the tar cannot be built or unpacked; each caller gets it.
  public static func shared() async throws -> Trixie {
    for (tool, package) in [("unshare", "util-linux"), ("chroot", "coreutils"), ("zstd", "zstd")] {
      _ = try requiredTool(tool, package: package)
    }
    return try await unpacked.value.get()
  }

  /// The folders of unpacked trees: `shieldbridge-trixie.PID.XXXXXX`, PID the test process's, in
  /// memory (`/dev/shm`) where there is one.
  private static let folderPrefix =
    (FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : "/var/tmp") + "/shieldbridge-trixie."

  /// The tree of this process, once: built by `scripts/debian13-chroot` if need be, then unpacked.
  private static let unpacked = Task<Result<Trixie, DesktopError>, Never> {
    do {
      let built = try await onOwnThread {
        try Subprocess.run(
          [GnomeShellSession.repositoryPath + "/scripts/debian13-chroot", tarball], timeout: .seconds(900))
      }
      guard built.status == 0 else {
        let status = built.status.map { "exit status \($0)" } ?? "not within 15 minutes"
        return .failure(DesktopError("scripts/debian13-chroot failed (\(status)): \(built.error.suffix(3000))"))
      }
      removeAbandonedTrees()
      var bytes = Array("\(folderPrefix)\(getpid()).XXXXXX".utf8CString)
      guard let made = mkdtemp(&bytes) else {
        return .failure(DesktopError("cannot make a folder for the chroot at \(folderPrefix)"))
      }
      let root = String(cString: made)
      unpackedRoot.withLock { $0 = root }
      atexit { Trixie.removeUnpacked() }
      let result = try await onOwnThread {
        try Subprocess.run(["tar", "--zstd", "-xf", tarball, "-C", root], timeout: .seconds(180))
      }
      guard result.status == 0 else {
        return .failure(DesktopError("cannot unpack \(tarball) into \(root): \(result.error)"))
      }
      return .success(Trixie(root: root))
    } catch {
      return .failure(DesktopError("cannot build or unpack the chroot: \(error)"))
    }
  }

  private static let unpackedRoot = Mutex<String?>(nil)

  /// Removes this process's tree (at exit). Nothing is mounted in it outside the namespaces of its
  /// programs, which have ended; `--one-file-system` all the same.
  private static func removeUnpacked() {
    guard let root = unpackedRoot.withLock({ $0 }) else { return }
    _ = try? Subprocess.run(["rm", "-rf", "--one-file-system", root], timeout: .seconds(120))
  }

  /// Removes the trees of test processes that no longer run (killed before their exit handler).
  private static func removeAbandonedTrees() {
    let folder = URL(fileURLWithPath: folderPrefix).deletingLastPathComponent().path
    let name = URL(fileURLWithPath: folderPrefix).lastPathComponent
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where entry.hasPrefix(name) {
      guard let pid = Int32(entry.dropFirst(name.count).prefix { $0 != "." }), pid > 0,
        kill(pid, 0) != 0, errno == ESRCH
      else { continue }
      _ = try? Subprocess.run(["rm", "-rf", "--one-file-system", folder + "/" + entry], timeout: .seconds(120))
    }
  }

  /// The temporary folder this process's tests make their folders in, bound at the same path inside
  /// (and `/tmp` beside it, for X's sockets in `/tmp/.X11-unix`).
  public static var temporaryFolder: String {
    let base = NSTemporaryDirectory()
    return base.count > 1 && base.hasSuffix("/") ? String(base.dropLast()) : base
  }

  /// `arguments` run inside the tree (`arguments[0]` is looked up in the chroot's `PATH`):
  /// the command line to start on the host.
  public func command(_ arguments: [String]) -> [String] {
    let script = """
      set -e
      root=$1; temporary=$2; shift 2
      mount --bind "$root" "$root"
      for d in proc sys dev dev/pts dev/shm; do mount --bind "/$d" "$root/$d"; done
      mount --bind /tmp "$root/tmp"
      if [ "$temporary" != /tmp ]; then mkdir -p "$root$temporary"; mount --bind "$temporary" "$root$temporary"; fi
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
