import Localization
import Posix
import ShieldBridgeDemo
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

      Exit status: 0; 70 when a step did not happen (the message names it);
      128 + the signal's number after SIGINT, SIGTERM or SIGHUP, which stop it
      as a failed step does.
      """,
    body: { _ in try await runDemo() }
  )
}

/// Runs the demo until it ends, or until SIGINT, SIGTERM or SIGHUP, which
/// stop it the same way a failed step does: everything it started is stopped.
private func runDemo() async throws(CommandFailure) -> ExitCode {
  // Xvfb, i3 and the xterm lead process groups of their own: a Ctrl-C in
  // the terminal does not reach them, so the demo must stop them itself.
  let stop = SignalWaiter([SignalPipe.terminate, SignalPipe.interrupt, SignalPipe.hangUp])
  let step = Mutex(0)
  let localizer = Localizer.current(environment: Environment.all)
  let style: ReportText.Style = ReportText.isUTF8(environment: Environment.all) ? .blocks : .ascii
  let demo = Task {
    try await Demo.run(
      localizer: localizer, executable: currentExecutable(),
      report: { ReportText.lines($0, style: style, localizer: localizer) }
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
  }
  let signalled = Mutex<Int32?>(nil)
  let watcher = Task {
    let signal = await stop.wait()
    signalled.withLock { $0 = signal }
    demo.cancel()
  }
  defer { watcher.cancel() }
  let failure: (any Error)?
  do {
    _ = try await demo.value
    failure = nil
  } catch {
    failure = error
  }
  // A step that sees the cancellation may end quietly: the signal decides all the same.
  if let signal = signalled.withLock({ $0 }) {
    throw CommandFailure(
      "the demo was stopped by signal \(signal); everything it started is stopped",
      exitCode: ExitCode(rawValue: 128 + signal))
  }
  if let failure { throw CommandFailure("the demo stopped: \(failure)", exitCode: .software) }
  return .success
}
