import Posix

// The module's files go through Posix; these map its errors into the
// ``NotificationError`` messages users have always seen.

extension NotificationError {
  init(replacing path: String, _ error: AtomicReplaceError) {
    switch error.step {
    case .create:
      self.init(.file, "cannot create a temporary file beside \(path): \(error.errno)")
    case .write, .sync, .close:
      self.init(.file, "cannot write \(error.temporaryPath): \(error.errno)")
    case .rename:
      self.init(.file, "cannot rename \(error.temporaryPath) to \(path): \(error.errno)")
    case .openDirectory, .syncDirectory:
      self.init(.file, "cannot flush the folder of \(path): \(error.errno)")
    }
  }

  init(privateDirectory path: String, _ error: PrivateDirectoryError) {
    switch error {
    case .create(let code): self.init(.file, "cannot create \(path): \(code)")
    case .inspect(let code): self.init(.file, "cannot inspect \(path): \(code)")
    case .notDirectory: self.init(.file, "\(path) exists and is not a folder")
    case .otherOwner: self.init(.file, "\(path) belongs to another user")
    case .openToOthers(let permissions):
      self.init(.file, "\(path) can be entered by other users (mode \(String(permissions, radix: 8)))")
    }
  }

  init(lock path: String, timeout: Duration, _ error: FileLockError) {
    switch error {
    case .open(let code): self.init(.file, "cannot open \(path): \(code)")
    case .lock(let code): self.init(.file, "cannot lock \(path): \(code)")
    case .notRegularFile(let kind): self.init(.file, "cannot lock \(path): it is \(kind), not a regular file")
    case .timedOut: self.init(.file, "cannot lock \(path): another process held it for \(timeout)")
    }
  }
}
