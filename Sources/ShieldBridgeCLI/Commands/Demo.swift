import Localization
import Posix
import ShieldBridge
import Spawn
import Synchronization

extension Command {
  /// `shieldbridge demo`: the whole flow on a private bus of its own.
  static let demo = Command(
    name: "demo",
    abstract: "Run the whole flow end to end on a private bus, with nothing of the desktop needed.",
    discussion: """
      Starts a private dbus-daemon, the embedded notification server and the
      service; shields an app, shows the notification as the server received
      it, clicks it, answers the task once wrongly and once rightly through the
      server, and shows the grant in the status. Its ledger lives in a
      temporary folder: your own grants are not touched. Needs only the
      dbus-daemon program; leaves no process behind.
      """,
    body: { _ in
      let step = Mutex(0)
      do {
        _ = try await Demo.run(
          localizer: Localizer.current(environment: Environment.all),
          executable: currentExecutable()
        ) { line in
          if line.hasPrefix(" ") {
            Output.out(line)
          } else {
            let number = step.withLock { number in
              number += 1
              return number
            }
            Output.out("\(number). \(line)")
          }
          Output.flush()
        }
      } catch {
        throw CommandFailure("the demo stopped: \(error)", exitCode: .software)
      }
      return .success
    }
  )
}
