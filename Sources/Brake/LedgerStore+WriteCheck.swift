#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension LedgerStore {
  /// Checks that a grant could be recorded now, without changing anything on disk.
  ///
  /// A command that asks a task calls this first, so that a state folder the
  /// grant cannot be written to fails before the user answers rather than
  /// after the right answer. It creates nothing (the folder, the lock file and
  /// the ledger are made by the grant itself) and asks the kernel with
  /// `access(2)`, which answers for root too where it matters: a read-only
  /// file system (`EROFS`) and an immutable file (`EPERM`). In the order
  /// ``recordGrant(for:)`` needs them:
  ///
  /// 1. the folder exists, or its nearest existing parent is a folder it can be
  ///    created in;
  /// 2. the lock file can be opened for writing, or created when there is none;
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
    var status = stat()
    guard stat(directory, &status) == 0 else {
      // A missing folder, or one below a file: the grant would try to create it.
      guard errno == ENOENT || errno == ENOTDIR else {
        throw .io(operation: "stat", path: directory, errno: errno)
      }
      try checkCreatable()
      return
    }
    guard status.st_mode & S_IFMT == S_IFDIR else {
      throw .io(operation: "use as directory", path: directory, errno: ENOTDIR)
    }
    let lockPath = directory + "/ledger.lock"
    let temporaryPath = path + FileSystem.temporarySuffix + "…"
    if access(lockPath, F_OK) == 0 {
      guard access(lockPath, R_OK | W_OK) == 0 else {
        throw .io(operation: "open lock file", path: lockPath, errno: errno)
      }
      guard access(directory, W_OK | X_OK) == 0 else {
        throw .io(operation: "create", path: temporaryPath, errno: errno)
      }
    } else {
      guard access(directory, W_OK | X_OK) == 0 else {
        throw .io(operation: "open lock file", path: lockPath, errno: errno)
      }
    }
    if access(path, F_OK) == 0, access(path, W_OK) != 0, errno == EROFS || errno == EPERM {
      throw .io(operation: "rename to \(path)", path: temporaryPath, errno: errno)
    }
  }

  /// Checks that the missing ``directory`` could be made as the grant makes it
  /// (`mkdir -p`, from the top), naming the first folder it would create.
  private func checkCreatable() throws(LedgerError) {
    var parent = "/"
    var prefix = ""
    var status = stat()
    for component in directory.split(separator: "/") {
      prefix += "/" + component
      guard stat(prefix, &status) != 0 else {
        parent = prefix
        continue
      }
      let code = errno
      guard code == ENOENT || code == ENOTDIR else {
        throw .io(operation: "create directory", path: prefix, errno: code)
      }
      guard stat(parent, &status) == 0 else {
        throw .io(operation: "create directory", path: prefix, errno: errno)
      }
      guard status.st_mode & S_IFMT == S_IFDIR else {
        throw .io(operation: "create directory", path: prefix, errno: ENOTDIR)
      }
      guard access(parent, W_OK | X_OK) == 0 else {
        throw .io(operation: "create directory", path: prefix, errno: errno)
      }
      return
    }
  }
}
