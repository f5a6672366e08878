import Foundation
import Synchronization

/// Bounds how many real desktops (an X server with its manager and clients,
/// a sway) the tests run at once.
///
/// Every desktop test starts several processes; a dozen of them starting
/// together on a 2-core machine delay every other test of the parallel run
/// by seconds, and tests with short bus timeouts then fail for no fault of
/// the code under test. A desktop takes a slot before it starts and gives it
/// back when it is released; the rest wait their turn.
public final class DesktopSlots: Sendable {
  /// The one limit of the test process.
  public static let shared = DesktopSlots(count: 3)

  /// One X display number chosen at a time in the test process: an Xvfb
  /// until it has written its lock file, or a `kwin_wayland` until its
  /// Xwayland runs. KWin picks Xwayland's number by the lock files alone
  /// and removes the socket of a display without one.
  public static let displayNumbers = DesktopSlots(count: 1)

  private struct State {
    var free: Int
    var waiting: [CheckedContinuation<Void, Never>] = []
  }

  private let state: Mutex<State>

  init(count: Int) {
    state = Mutex(State(free: count))
  }

  /// Waits for a free slot and takes it.
  public func take() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let granted = state.withLock { state -> Bool in
        guard state.free > 0 else {
          state.waiting.append(continuation)
          return false
        }
        state.free -= 1
        return true
      }
      if granted { continuation.resume() }
    }
  }

  /// Gives a slot back, to the longest waiting desktop if there is one.
  public func give() {
    let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
      guard !state.waiting.isEmpty else {
        state.free += 1
        return nil
      }
      return state.waiting.removeFirst()
    }
    next?.resume()
  }
}

/// A slot of ``DesktopSlots/shared``, taken already, given back when this value is released.
public final class DesktopSlot: Sendable {
  public init() {}

  deinit {
    DesktopSlots.shared.give()
  }
}

extension DesktopSlots {
  /// Writes an X lock file with this process's pid for each of `numbers` that has none (the way
  /// an X server claims a display); returns the files it made, for the caller to remove.
  static func lockDisplays(_ numbers: some Sequence<Int>) -> [String] {
    let text = String(repeating: " ", count: max(0, 10 - String(getpid()).count)) + String(getpid()) + "\n"
    var made: [String] = []
    for number in numbers {
      let path = "/tmp/.X\(number)-lock"
      let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o444)
      guard descriptor >= 0 else { continue }
      _ = text.withCString { write(descriptor, $0, strlen($0)) }
      close(descriptor)
      made.append(path)
    }
    return made
  }
}
