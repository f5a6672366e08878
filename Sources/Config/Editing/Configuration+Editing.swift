import Posix

extension Configuration {
  /// How long an edit waits for another edit to finish with the file.
  public static let editLockTimeout = Duration.seconds(10)

  /// Applies `edit` to the configuration file at `path`: under a lock, by atomic replace, checked first.
  ///
  /// The lock is `config.lock` beside the file, so that two edits at once
  /// follow one another and neither loses the other's change. The new text
  /// comes from ``ConfigurationEditor/edited(_:file:applying:)``; a refused
  /// edit leaves the file byte for byte as it was, and an edit that changes
  /// nothing does not write. A `config.json` that is a symbolic link keeps
  /// the link: the file it leads to is replaced, with its permissions.
  ///
  /// - Parameter lockTimeout: How long to wait for another edit's lock.
  /// - Returns: The configuration as the service will read it, with its
  ///   warnings, and what each app of an `addApps` came to.
  /// - Throws: ``RuleEditError``.
  @discardableResult
  public static func edit(
    at path: String, _ edit: RuleEdit, lockTimeout: Duration = editLockTimeout
  ) throws(RuleEditError) -> EditedConfiguration {
    let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    do {
      try FileSystem.makeDirectories(folder.isEmpty ? "/" : folder)
    } catch {
      throw .cannotWrite("cannot make the folder \(error.path): \(error.errno)")
    }
    let lockFailure = { (error: FileLockError) -> RuleEditError in
      switch error {
      case .open(let code), .lock(let code): .cannotWrite("cannot lock \(folder)/config.lock: \(code)")
      case .notRegularFile(let kind): .cannotWrite("cannot lock \(folder)/config.lock: it is \(kind)")
      case .timedOut: .busy("another edit held \(folder)/config.lock for \(lockTimeout); try again")
      }
    }
    return try FileLock.withLock(path: folder + "/config.lock", timeout: lockTimeout, lockFailure: lockFailure) {
      () throws(RuleEditError) -> EditedConfiguration in
      let old: [UInt8]?
      do throws(ConfigurationFile.ReadFailure) {
        old = try ConfigurationFile.read(path, limit: maximumFileSize)
      } catch {
        throw .invalid(ConfigurationError(code: .unreadable, file: path, keyPath: "", problem: error.description))
      }
      let edited = try ConfigurationEditor.editing(old, file: path, applying: edit)
      let new = edited.bytes
      if new != old {
        let target = FileSystem.resolvingLinks(path) ?? path
        let permissions = (try? FileSystem.status(target))?.permissions ?? 0o600
        do throws(AtomicReplaceError) {
          try FileSystem.replaceAtomically(target, with: new, permissions: permissions & 0o7777)
        } catch {
          throw .cannotWrite("cannot write \(error.path): \(error.errno)")
        }
      }
      do throws(ConfigurationError) {
        let (configuration, warnings) = try parse(new, file: path)
        return EditedConfiguration(
          loaded: LoadedConfiguration(configuration: configuration, path: path, isDefault: false, warnings: warnings),
          additions: edited.additions)
      } catch {
        throw .invalid(error)
      }
    }
  }
}

/// `config.json` as an edit left it, and what each app of an `addApps` came to.
public struct EditedConfiguration: Sendable {
  /// The configuration as the service will read it, with its warnings.
  public var loaded: LoadedConfiguration
  /// One per app of an `addApps`, in its order; empty for every other edit.
  public var additions: [AppAddition]
}
