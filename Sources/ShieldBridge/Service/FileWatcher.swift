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
/// a rename onto it, a rename away from it (`IN_MOVED_FROM`: `mv config.json
/// elsewhere` is a removal as `rm` is), its removal. Its creation alone does
/// not: an empty new file is not yet the user's configuration, and its write
/// follows.
///
/// A file that is a symbolic link to a file elsewhere (a `config.json` kept
/// with the user's dotfiles) is watched in both places: its own folder, for
/// the link being replaced or removed, and the folder of the file it leads to
/// (`realpath`), for that file's writes. The link is resolved again after
/// every change, so a link pointed at another file is followed there.
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
  static let folderEvents: Inotify.Mask = [
    .closeWrite, .movedTo, .movedFrom, .create, .delete, .deleteSelf, .moveSelf,
  ]
  /// What, for the file's own name, counts as a change.
  static let fileChanges: Inotify.Mask = [.closeWrite, .movedTo, .movedFrom, .delete]
  /// What, for the watched folder itself, means its watch is gone.
  static let folderGone: Inotify.Mask = [.deleteSelf, .moveSelf, .ignored]

  /// Where the file behind a symbolic link is, and the watch on its folder.
  private struct Target: Equatable {
    var folder: String
    var name: String
    var watch: Int32
  }

  /// What the thread watches: the file's folder (or its nearest parent) and the target of a link.
  private struct Watched {
    let inotify: Inotify
    let path: String
    let folder: String
    let name: String
    let label: String
    let log: Logger
    var folderWatch: (path: String, watch: Int32)?
    var target: Target?
  }

  /// Starts watching `path`; `changed` runs on the watcher's thread after each change.
  ///
  /// - Throws: ``Errno`` when no inotify instance or pipe can be made.
  init(path: String, label: String, log: Logger, changed: @escaping @Sendable () -> Void) throws(Errno) {
    let inotify = try Inotify()
    let wake = try FileDescriptor.pipe()
    self.wake = wake
    var watched = Watched(
      inotify: inotify, path: path, folder: path.parentPath, name: path.lastPathComponent, label: label, log: log)
    // Armed before the thread starts: a change right after the start is not missed.
    watched.folderWatch = Self.arm(watched)
    watched.target = Self.armTarget(watched)
    detachThread { [watched] in
      Self.run(watched, wake: wake.reading, changed: changed)
    }
  }

  deinit { stop() }

  /// Ends the thread; later calls do nothing.
  func stop() {
    guard !stopped.exchange(true, ordering: .relaxed) else { return }
    _ = try? wake.writing.write([1])
  }

  /// The watcher's thread: arm, wait, read, and again, until woken.
  private static func run(_ start: Watched, wake: FileDescriptor, changed: @escaping @Sendable () -> Void) {
    var watched = start
    let inotify = watched.inotify
    while true {
      let ready: [Int]
      do {
        ready = try Poll.readable([wake, inotify.descriptor], timeout: nil)
      } catch {
        watched.log.warning("\(watched.label) is no longer watched: poll failed: \(error)")
        return
      }
      if ready.contains(0) { return }
      let events: [Inotify.Event]
      do {
        events = try inotify.readEvents()
      } catch {
        watched.log.warning("\(watched.label) is no longer watched: cannot read inotify events: \(error)")
        return
      }
      var touched = events.contains { $0.mask.contains(.overflow) }
      if let current = watched.folderWatch {
        let mine = events.filter { $0.watch == current.watch }
        if current.path == watched.folder {
          touched = touched || mine.contains { $0.name == watched.name && !$0.mask.isDisjoint(with: fileChanges) }
          if mine.contains(where: { !$0.mask.isDisjoint(with: folderGone) }) {
            inotify.removeWatch(current.watch)
            watched.folderWatch = arm(watched)
            touched = true
          }
        } else if !mine.isEmpty {
          // Something changed on the way to the folder: try to get closer.
          watched.folderWatch = arm(watched)
          // The same path again gives the same watch, which must stay.
          if watched.folderWatch?.path != current.path { inotify.removeWatch(current.watch) }
          if watched.folderWatch?.path == watched.folder { touched = true }
        }
      }
      if let target = watched.target {
        let theirs = events.filter { $0.watch == target.watch }
        touched =
          touched || theirs.contains { $0.name == target.name && !$0.mask.isDisjoint(with: fileChanges) }
          || theirs.contains { !$0.mask.isDisjoint(with: folderGone) }
      }
      if touched {
        // The link may lead elsewhere now, or lead somewhere again.
        watched.target = armTarget(watched)
        changed()
      }
    }
  }

  /// Watches the folder, or its nearest existing parent; `nil` when not even `/` can be watched.
  ///
  /// A folder on the way made after its own watch failed and before its
  /// parent's was placed tells that parent nothing, so a parent's watch is
  /// only kept once the next folder down is seen still missing.
  private static func arm(_ watched: Watched) -> (path: String, watch: Int32)? {
    var path = watched.folder
    while true {
      do {
        let watch = try watched.inotify.addWatch(path, folderEvents)
        guard path != watched.folder, FileSystem.isDirectory(nextFolder(below: path, to: watched.folder)) else {
          return (path, watch)
        }
        // The same folder gives the same watch, which the caller still holds.
        if watch != watched.folderWatch?.watch { watched.inotify.removeWatch(watch) }
        path = watched.folder
      } catch  where (error == .noSuchFileOrDirectory || error == .notDirectory) && path != "/" && path != "." {
        path = path.parentPath
      } catch {
        watched.log.warning("\(watched.label) is not watched: cannot watch \(path): \(error)")
        return nil
      }
    }
  }

  /// The folder directly below `parent` on the way to `folder`.
  private static func nextFolder(below parent: String, to folder: String) -> String {
    var next = folder
    while next.parentPath != parent, next != "/", next != "." { next = next.parentPath }
    return next
  }

  /// Watches the folder of the file the path leads to when that is not the path itself (a
  /// symbolic link), taking off the watch of the file it led to before; `nil`: none to watch.
  private static func armTarget(_ watched: Watched) -> Target? {
    let previous = watched.target
    var next: Target?
    if let resolved = FileSystem.resolvingLinks(watched.path), resolved != watched.path {
      let folder = resolved.parentPath
      let name = resolved.lastPathComponent
      if let previous, previous.folder == folder, previous.name == name { return previous }
      do {
        next = Target(folder: folder, name: name, watch: try watched.inotify.addWatch(folder, folderEvents))
      } catch {
        watched.log.warning(
          "\(watched.label) leads to \(resolved), whose changes are not watched: cannot watch \(folder): \(error)")
      }
    }
    // One folder has one watch: the file's own folder, or the new target's, may share it.
    if let previous, previous.watch != next?.watch, previous.watch != watched.folderWatch?.watch {
      watched.inotify.removeWatch(previous.watch)
    }
    return next
  }
}
