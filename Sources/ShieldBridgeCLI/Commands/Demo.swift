import Localization
import Posix
import ShieldBridge
import Spawn
import Synchronization

extension Command {
  /// `shieldbridge demo`: the whole flow on a private bus of its own.
  static let demo = Command(
    name: "demo",
    abstract: "Run the whole loop end to end on a private bus and a headless display of its own.",
    discussion: """
      Starts a private dbus-daemon, the embedded notification server, a
      headless X display (Xvfb) with i3 and an xterm of class Instagram as the
      covered app, and the service with its meter on that display, with minutes
      shortened to \(Demo.minuteLength.components.seconds) s so that the limit comes within seconds. It shows the
      time counted, the warning, the limit reached and the window hidden (as
      i3's tree shows it), clicks the shield, answers the task once wrongly and
      once rightly through the server, and shows the window usable again. Its
      ledger lives in a temporary folder: your own grants are not touched.
      Needs dbus-daemon, Xvfb, i3 and xterm (make demo installs them); leaves
      no process behind.

      Exit status: 0, or 70 when a step did not happen (the message names it).
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
