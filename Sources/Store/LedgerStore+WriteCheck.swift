import Model
import Posix

extension LedgerStore {
  /// Checks that a grant could be recorded now, without changing anything on disk.
  ///
  /// A command that asks a task calls this first, so that a state folder the
  /// grant cannot be written to fails before the user answers rather than
  /// after the right answer. It creates nothing (the folder, the lock file and
  /// the ledger are made by the grant itself) and asks the kernel
  /// (``FileSystem/checkAccess(_:_:)``), which answers for root too where it
  /// matters: a read-only file system and an immutable file. In the order
  /// ``recordGrant(for:)`` needs them:
  ///
  /// 1. the folder exists, or its nearest existing parent is a folder it can be
  ///    created in;
  /// 2. the lock file is a regular file that can be opened for writing, or
  ///    created when there is none (a link that leads nowhere is refused);
  /// 3. a temporary file can be created in the folder;
  /// 4. the ledger, when there is one, can be replaced (it is replaced by
  ///    rename, so only a read-only file system or an immutable file stops it;
  ///    its own permission bits do not).
  ///
  /// A check is not a reservation: a folder that turns read-only afterwards
  /// still makes ``recordGrant(for:)`` fail, as before.
  ///
  /// - Throws: ``LedgerError/io(operation:path:errno:)`` naming the step the
  ///   grant would fail at, as the grant itself would name it.
  public func checkWritable() throws(LedgerError) {
    let status: FileStatus
    do {
      status = try FileSystem.status(directory)
    } catch  where error == .noSuchFileOrDirectory || error == .notDirectory {
      // A missing folder, or one below a file: the grant would try to create it.
      try checkCreatable()
      return
    } catch {
      throw .io(operation: "stat", path: directory, errno: error.rawValue)
    }
    guard status.kind == .directory else {
      throw .io(operation: "use as directory", path: directory, errno: Errno.notDirectory.rawValue)
    }
    let temporaryPath = path + FileSystem.temporaryInfix + "…"
    // A link counts even when it leads nowhere: the grant could not create the lock through it.
    let lockExists = FileSystem.exists(lockPath)
    if lockExists {
      do {
        try FileSystem.checkAccess(lockPath, [.read, .write])
      } catch {
        throw .io(operation: "open lock file", path: lockPath, errno: error.rawValue)
      }
      // What the lock refuses: a directory fails to open, anything else that is not a regular file is refused.
      switch try? FileSystem.status(lockPath).kind {
      case .directory?:
        throw .io(operation: "open lock file", path: lockPath, errno: Errno.isDirectory.rawValue)
      case let kind? where kind != .regular:
        throw .notRegularFile(path: lockPath, kind: kind)
      default: break
      }
    }
    do {
      try FileSystem.checkAccess(directory, [.write, .search])
    } catch {
      // Without a lock file, the first thing the grant creates is the lock file.
      throw lockExists
        ? .io(operation: "create", path: temporaryPath, errno: error.rawValue)
        : .io(operation: "open lock file", path: lockPath, errno: error.rawValue)
    }
    guard FileSystem.exists(path) else { return }
    do {
      try FileSystem.checkAccess(path, .write)
    } catch  where error == .readOnlyFileSystem || error == .notPermitted {
      throw .io(operation: "rename to \(path)", path: temporaryPath, errno: error.rawValue)
    } catch {}
  }

  /// Checks that the missing ``directory`` could be made as the grant makes it
  /// (`mkdir -p`, from the top), naming the first folder it would create.
  private func checkCreatable() throws(LedgerError) {
    var parent = "/"
    var prefix = ""
    for component in directory.split(separator: "/") {
      prefix += "/" + component
      do {
        _ = try FileSystem.status(prefix)
        parent = prefix
        continue
      } catch  where error == .noSuchFileOrDirectory || error == .notDirectory {
        // The first folder the grant would create: its parent must take it.
      } catch {
        throw .io(operation: "create directory", path: prefix, errno: error.rawValue)
      }
      do throws(Errno) {
        guard try FileSystem.status(parent).kind == .directory else { throw .notDirectory }
        try FileSystem.checkAccess(parent, [.write, .search])
      } catch {
        throw .io(operation: "create directory", path: prefix, errno: error.rawValue)
      }
      return
    }
  }
}
