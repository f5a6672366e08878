#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// An inotify instance: the kernel's word on changes in watched folders.
///
/// The descriptor is non-blocking and close-on-exec (`IN_NONBLOCK |
/// IN_CLOEXEC`): it is meant to be waited on with ``Poll`` beside a wake
/// pipe, then drained with ``readEvents()`` until that returns nothing.
public final class Inotify: Sendable {
  /// What a watch reports.
  public struct Mask: OptionSet, Hashable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A file opened for writing was closed (`IN_CLOSE_WRITE`).
    public static let closeWrite = Mask(rawValue: UInt32(IN_CLOSE_WRITE))
    /// A file was moved into the folder (`IN_MOVED_TO`): an atomic replace.
    public static let movedTo = Mask(rawValue: UInt32(IN_MOVED_TO))
    /// A file was moved out of the folder, or renamed within it from this name (`IN_MOVED_FROM`).
    public static let movedFrom = Mask(rawValue: UInt32(IN_MOVED_FROM))
    /// A file or folder was made in it (`IN_CREATE`).
    public static let create = Mask(rawValue: UInt32(IN_CREATE))
    /// A file or folder was removed from it (`IN_DELETE`).
    public static let delete = Mask(rawValue: UInt32(IN_DELETE))
    /// The watched folder itself was removed (`IN_DELETE_SELF`).
    public static let deleteSelf = Mask(rawValue: UInt32(IN_DELETE_SELF))
    /// The watched folder itself was moved (`IN_MOVE_SELF`).
    public static let moveSelf = Mask(rawValue: UInt32(IN_MOVE_SELF))
    /// The watch is gone (its folder removed, or the watch taken off) (`IN_IGNORED`).
    public static let ignored = Mask(rawValue: UInt32(IN_IGNORED))
    /// Events were lost: the kernel's queue was full (`IN_Q_OVERFLOW`).
    public static let overflow = Mask(rawValue: UInt32(IN_Q_OVERFLOW))
  }

  /// One event: the watch it is for, what happened, and the name in the folder (empty for the folder itself).
  public struct Event: Hashable, Sendable {
    public var watch: Int32
    public var mask: Mask
    public var name: String
  }

  /// The descriptor to poll.
  public let descriptor: FileDescriptor

  /// - Throws: ``Errno`` when `inotify_init1` failed (`EMFILE`: the user's instances are used up).
  public init() throws(Errno) {
    let raw = try valueOrErrno { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
    descriptor = FileDescriptor(owning: raw)
  }

  /// Watches `path` (a folder) for `mask`; the same path twice gives the same watch.
  ///
  /// - Returns: The watch descriptor the events carry.
  /// - Throws: ``Errno`` when `inotify_add_watch` failed (`ENOENT`: no such folder).
  public func addWatch(_ path: String, _ mask: Mask) throws(Errno) -> Int32 {
    try valueOrErrno { inotify_add_watch(descriptor.rawValue, path, mask.rawValue) }
  }

  /// Stops watching `watch`; one that is already gone is no error.
  public func removeWatch(_ watch: Int32) {
    _ = inotify_rm_watch(descriptor.rawValue, watch)
  }

  /// The events waiting now; empty when there are none (the descriptor does not block).
  ///
  /// - Throws: ``Errno`` when `read` failed otherwise.
  public func readEvents() throws(Errno) -> [Event] {
    // Room for many events with names up to NAME_MAX, as inotify(7) advises.
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    let count: Int
    do {
      count = try descriptor.read(into: &buffer)
    } catch  where error == .wouldBlock {
      return []
    }
    var events: [Event] = []
    var offset = 0
    let header = MemoryLayout<inotify_event>.size
    while offset + header <= count {
      let (watch, mask, length) = buffer.withUnsafeBytes { raw in
        (
          raw.loadUnaligned(fromByteOffset: offset, as: Int32.self),
          raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
          Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
        )
      }
      let start = offset + header
      let end = min(count, start + length)
      // The name is padded with NULs up to its length.
      let nameBytes = buffer[start..<end].prefix { $0 != 0 }
      events.append(Event(watch: watch, mask: Mask(rawValue: mask), name: String(decoding: nameBytes, as: UTF8.self)))
      offset = start + length
    }
    return events
  }
}
