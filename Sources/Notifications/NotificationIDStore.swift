import JSON
import Posix
import Synchronization

/// Where a client remembers the server id each identifier got, so that posting
/// again with the same identifier replaces the notification.
///
/// Every id is tagged with the server that gave it (the bus's id and the
/// server's unique connection name): ids are only meaningful to that server,
/// and a restarted server must never be handed an old one.
public protocol NotificationIDStore: Sendable {
  /// The id `identifier` has on `server`, or `nil`.
  func id(for identifier: String, server: String) -> UInt32?
  /// Remembers `id` for `identifier` on `server`; ids of any other server are forgotten.
  func remember(_ id: UInt32, for identifier: String, server: String)
}

/// An identifier store in memory, for a process that stays (the service).
public final class MemoryIDStore: NotificationIDStore {
  private let state = Mutex<(server: String, ids: [String: UInt32])>(("", [:]))

  public init() {}

  public func id(for identifier: String, server: String) -> UInt32? {
    state.withLock { $0.server == server ? $0.ids[identifier] : nil }
  }

  public func remember(_ id: UInt32, for identifier: String, server: String) {
    state.withLock { state in
      if state.server != server { state = (server, [:]) }
      state.ids[identifier] = id
    }
  }
}

/// An identifier store in a small JSON file, for one-shot posts (`shieldbridge notify --id`).
///
/// The file is replaced atomically under a lock, so that concurrent posts
/// never leave half a file. A store that cannot be written does not stop a
/// post: the failure is kept in ``lastError`` for the caller to report.
public final class FileIDStore: NotificationIDStore {
  /// The JSON file: `{"server":"…","ids":{"shield-open":12}}`.
  public let path: String
  private let failure = Mutex<NotificationError?>(nil)
  /// How many identifiers are kept; the oldest go first.
  static let capacity = 256

  public init(path: String) {
    self.path = path
  }

  /// The store in `$XDG_RUNTIME_DIR/shieldbridge/`, or in a private folder
  /// `/tmp/shieldbridge-UID/` when there is no runtime directory.
  ///
  /// - Throws: when the folder cannot be made private to this user.
  public static func standard() throws(NotificationError) -> FileIDStore {
    let directory: String
    if let runtime = Environment.nonEmptyValue("XDG_RUNTIME_DIR") {
      directory = runtime + "/shieldbridge"
    } else {
      directory = "/tmp/shieldbridge-\(CurrentProcess.userID)"
    }
    do {
      try FileSystem.makePrivateDirectory(directory)
    } catch {
      throw NotificationError(privateDirectory: directory, error)
    }
    return FileIDStore(path: directory + "/notification-ids.json")
  }

  /// The last failure to write the file, if any.
  public var lastError: NotificationError? { failure.withLock { $0 } }

  public func id(for identifier: String, server: String) -> UInt32? {
    let (storedServer, ids) = load()
    guard storedServer == server, let id = ids.first(where: { $0.0 == identifier })?.1 else {
      return nil
    }
    return id
  }

  public func remember(_ id: UInt32, for identifier: String, server: String) {
    do throws(NotificationError) {
      let lockPath = path + ".lock"
      let lock = try FileIDStore.lock(lockPath)
      var (storedServer, ids) = load()
      if storedServer != server {
        storedServer = server
        ids = []
      }
      ids.removeAll { $0.0 == identifier }
      ids.append((identifier, id))
      if ids.count > FileIDStore.capacity { ids.removeFirst(ids.count - FileIDStore.capacity) }
      let json = JSONValue.object([
        ("server", .string(storedServer)),
        ("ids", .object(ids.map { ($0.0, JSONValue.int($0.1)) })),
      ])
      do {
        try FileSystem.replaceAtomically(path, with: Array((json.serialized + "\n").utf8))
      } catch {
        throw NotificationError(replacing: path, error)
      }
      lock.unlock()
    } catch {
      failure.withLock { $0 = error }
    }
  }

  /// How long ``remember(_:for:server:)`` waits for another process's lock: it
  /// is held only to read and replace the small file, so this is only reached
  /// when the holder hangs.
  static let lockTimeout = Duration.seconds(10)

  private static func lock(_ path: String) throws(NotificationError) -> FileLock {
    do {
      return try FileLock(path: path, timeout: lockTimeout)
    } catch {
      throw NotificationError(lock: path, timeout: lockTimeout, error)
    }
  }

  /// The server tag and the ids in the file; nothing when it is missing or unreadable.
  private func load() -> (String, [(String, UInt32)]) {
    guard let bytes = try? FileSystem.readFile(path, limit: 1 << 20), let json = try? JSONValue(parsing: bytes),
      let server = json["server"]?.stringValue, let members = json["ids"]?.objectValue
    else { return ("", []) }
    let ids = members.compactMap { member -> (String, UInt32)? in
      guard let value = member.1.integerValue, let id = UInt32(exactly: value), id != 0 else {
        return nil
      }
      return (member.0, id)
    }
    return (server, ids)
  }
}
