import Log
import Posix
import Spawn
import Synchronization

/// Tells when a file (`config.json`, the ledger) may have changed: inotify on its folder, on a
/// thread of its own that blocks in `poll` beside a wake pipe.
///
/// The folder is watched rather than the file, because editors and
/// ``FileSystem`` replace a file by renaming a new one over it (`IN_MOVED_TO`)
/// and a watch on the old inode would see nothing after the first save. Only
/// events for the file's own name count: a finished write (`IN_CLOSE_WRITE`),
/// a rename onto it, its removal. Its creation alone does not: an empty new
/// file is not yet the user's configuration, and its write follows.
///
/// The folder need not exist (a service started before the user made
/// `~/.config/shieldbridge`): then the nearest existing parent is watched, and
/// any change there makes the watcher try again from the folder, going back
/// down as folders appear. It creates nothing itself. When the folder is
/// reached that way, the file may already have been written before the
/// watch was in place, so that counts as a change too.
///
/// Nothing here wakes on a timer: while nothing changes, the thread sleeps in
/// `poll`. ``stop()`` writes one byte to the pipe; both ends live as long as
/// this value, so a late write never raises SIGPIPE.
final class FileWatcher: Sendable {
  private let wake: (reading: FileDescriptor, writing: FileDescriptor)
  private let stopped = Atomic(false)

  /// What the folder's watch asks for.
  static let folderEvents: Inotify.Mask = [.closeWrite, .movedTo, .create, .delete, .deleteSelf, .moveSelf]

  /// Starts watching `path`; `changed` runs on the watcher's thread after each change.
  ///
  /// - Throws: ``Errno`` when no inotify instance or pipe can be made.
  init(path: String, label: String, log: Logger, changed: @escaping @Sendable () -> Void) throws(Errno) {
    let inotify = try Inotify()
    let wake = try FileDescriptor.pipe()
    self.wake = wake
    let folder = path.parentPath
    let name = path.lastPathComponent
    detachThread {
      Self.run(
        inotify: inotify, folder: folder, name: name, label: label, wake: wake.reading, log: log, changed: changed)
    }
  }

  deinit { stop() }

  /// Ends the thread; later calls do nothing.
  func stop() {
    guard !stopped.exchange(true, ordering: .relaxed) else { return }
    _ = try? wake.writing.write([1])
  }

  /// The watcher's thread: arm, wait, read, and again, until woken.
  private static func run(
    inotify: Inotify, folder: String, name: String, label: String, wake: FileDescriptor,
    log: Logger, changed: @escaping @Sendable () -> Void
  ) {
    var watched = arm(inotify, folder: folder, label: label, log: log)
    while true {
      let ready: [Int]
      do {
        ready = try Poll.readable([wake, inotify.descriptor], timeout: nil)
      } catch {
        log.warning("\(label) is no longer watched: poll failed: \(error)")
        return
      }
      if ready.contains(0) { return }
      let events: [Inotify.Event]
      do {
        events = try inotify.readEvents()
      } catch {
        log.warning("\(label) is no longer watched: cannot read inotify events: \(error)")
        return
      }
      guard let current = watched else { continue }
      let mine = events.filter { $0.watch == current.watch || $0.mask.contains(.overflow) }
      guard !mine.isEmpty else { continue }
      if current.path == folder {
        let gone = mine.contains { !$0.mask.isDisjoint(with: [.deleteSelf, .moveSelf, .ignored]) }
        let touched = mine.contains {
          $0.mask.contains(.overflow)
            || ($0.name == name && !$0.mask.isDisjoint(with: [.closeWrite, .movedTo, .delete]))
        }
        if gone {
          inotify.removeWatch(current.watch)
          watched = arm(inotify, folder: folder, label: label, log: log)
        }
        if touched || gone { changed() }
      } else {
        // Something changed on the way to the folder: try to get closer.
        watched = arm(inotify, folder: folder, label: label, log: log)
        // The same path again gives the same watch, which must stay.
        if watched?.path != current.path { inotify.removeWatch(current.watch) }
        if watched?.path == folder { changed() }
      }
    }
  }

  /// Watches `folder`, or its nearest existing parent; `nil` when not even `/` can be watched.
  private static func arm(
    _ inotify: Inotify, folder: String, label: String, log: Logger
  ) -> (path: String, watch: Int32)? {
    var path = folder
    while true {
      do {
        return (path, try inotify.addWatch(path, folderEvents))
      } catch  where (error == .noSuchFileOrDirectory || error == .notDirectory) && path != "/" && path != "." {
        path = path.parentPath
      } catch {
        log.warning("\(label) is not watched: cannot watch \(path): \(error)")
        return nil
      }
    }
  }
}
