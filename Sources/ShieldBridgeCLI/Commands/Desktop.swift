import DBus
import Desktop
import JSON
import Localization
import Posix
import ShieldBridge

extension Command {
  /// `shieldbridge desktop [--once] [--json]`: what the meter sees of this desktop.
  static let desktop = Command(
    name: "desktop",
    abstract: "Show which desktop the meter watches, and live which app is in front and which rule it matches.",
    options: DesktopOptions.self,
    discussion: """
      This is how to find the names to put in config.json. Bring the app to the
      front and read its line: its X11 class and instance, its Wayland app id,
      its executable, comm and argv[0], its systemd scope and its pid, and the
      rule and app of config.json it falls under ("no rule" when none). Any of
      these names, as a plain app name or in an app object ("class", "appId",
      "exe"), makes a rule cover it. Window titles are never read. A browser
      whose tab shows a site a rule covers (as the running service hears from
      the browser extension) says what counts instead: "counted as
      instagram.com for social while this tab is in front".

      First it says which backend "desktop" in config.json picks here (x11, i3,
      sway, KWin, GNOME Shell or the running processes), that backend's limitations
      (what it cannot see or do), and what to do first where the backend needs
      it ("to do": the GNOME Shell extension is not enabled, and the command
      that enables it); then one line per change of the focused window (or of
      the covered apps that run, with the process fallback, which sees only
      apps a rule already names), of input idle, of idle inhibition and of the
      screen, and a "notice" for what the backend has to say (the extension
      enabled or disabled, GNOME Shell restarting, a signal from a sender that
      may not send it ignored), until SIGINT or SIGTERM. --once prints the
      backend and the current state and exits. --json prints one JSON object
      per line instead.

      Exit status: 0 after SIGINT or SIGTERM, with --once, or when "desktop" is
      "off"; 69 when the desktop is lost, the backend config.json forces
      cannot be opened, or --once hears of no focus within 10 s; 78 when the
      configuration is wrong.
      """,
    body: { invocation in try await watchDesktop(invocation) }
  )
}

/// The options of `shieldbridge desktop`.
private struct DesktopOptions: OptionGroup {
  let once: Flag
  let json: Flag

  init(declaring options: inout OptionDeclarations) {
    once = options.flag("--once", "Print the backend and the current state, then exit.")
    json = options.flag("--json", "Print one JSON object per line instead of text.")
  }
}

/// How watching ended.
private enum WatchEnding: Sendable {
  case signalled
  case current
  case lost
  case ended
  /// `--once`, and the backend told no focus (or running set) in time.
  case silent
}

/// How long `--once` waits for the backend's first focus (or running set),
/// which every backend reports at once: a bound against one that never does.
private let onceSeconds = 10
private let onceTimeout = Duration.seconds(onceSeconds)

private func watchDesktop(_ invocation: Invocation<DesktopOptions>) async throws(CommandFailure) -> ExitCode {
  let stop = SignalWaiter([SignalPipe.terminate, SignalPipe.interrupt])
  let configuration = try loadConfiguration()
  let json = invocation[\.json]
  let once = invocation[\.once]
  let rules = configuration.rules
  let choice = configuration.desktop
  let backend: (any DesktopBackend)?
  do {
    backend = try choice.open(environment: Environment.all) { rules.match($0) != nil }
  } catch {
    throw CommandFailure(CommandMessage(.desktopCannotWatch, ["error": error.message]), exitCode: .unavailable)
  }
  guard let backend else {
    if json {
      // machine output: the same JSON in every language.
      Output.out(#"{"event":"desktop","backend":"off","choice":"off","counting":"none","limitations":[]}"#)
    } else {
      Output.say(CommandMessage(.desktopOff))
    }
    return .success
  }
  defer { backend.stop() }
  if json {
    // machine output: the same JSON in every language.
    Output.out(
      DesktopLines.backendJSON(
        kind: backend.kind, counting: backend.countingSource, choice: choice, limitations: backend.limitations,
        attention: backend.attention
      ).serialized)
  } else {
    for line in DesktopLines.backendText(
      kind: backend.kind, counting: backend.countingSource, choice: choice, limitations: backend.limitations,
      attention: backend.attention)
    {
      // machine output: the lines are rendered from the catalogs already (DesktopLines).
      Output.out(line)
    }
    if rules.isBuiltIn { Output.say(CommandMessage(.desktopNoRules), indent: 2) }
  }
  Output.flush()

  let events = backend.events(idleAfter: .seconds(60 * configuration.idleMinutes))
  let (endings, ending) = AsyncStream.makeStream(of: WatchEnding.self)
  let watcher = Task {
    for await event in events {
      // A browser in front may show a covered site: then the site counts, not the browser.
      var sites: [UsageReport.ReportedSite] = []
      if case .focus(let focused?) = event, focused.app.pid != nil { sites = await reportedSites() }
      if json {
        // machine output: the same JSON in every language.
        Output.out(DesktopLines.json(event, rules: rules, sites: sites).serialized)
      } else {
        Output.say(DesktopLines.message(event, rules: rules, sites: sites))
      }
      Output.flush()
      switch event {
      case .lost:
        ending.yield(.lost)
        return
      // The first focus (or running set) completes the current state a backend starts with.
      case .focus where once, .running where once:
        ending.yield(.current)
        return
      default:
        break
      }
    }
    ending.yield(.ended)
  }
  let signals = Task {
    _ = await stop.wait()
    ending.yield(.signalled)
  }
  let deadline = Task {
    guard once, (try? await Task.sleep(for: onceTimeout)) != nil else { return }
    ending.yield(.silent)
  }
  var outcome = WatchEnding.ended
  for await first in endings {
    outcome = first
    break
  }
  watcher.cancel()
  signals.cancel()
  deadline.cancel()
  switch outcome {
  case .signalled, .current:
    return .success
  case .lost, .ended:
    throw CommandFailure(CommandMessage(.desktopNoLongerWatched), exitCode: .unavailable)
  case .silent:
    throw CommandFailure(
      CommandMessage(.desktopSilent, ["backend": "\(backend.kind)"], count: onceSeconds, as: "seconds"),
      exitCode: .unavailable)
  }
}

/// The covered sites the browsers report to the running service (`Usage()`'s
/// `sites`), asked without starting the service; none when it does not run
/// or does not answer within 2 s.
private func reportedSites() async -> [UsageReport.ReportedSite] {
  guard let connection = try? Connection(.session) else { return [] }
  defer { connection.close() }
  guard
    let text = try? await connection.call(
      ServiceInterface.usage, destination: ServiceNames.busName, path: ServiceNames.path, timeout: .seconds(2),
      autoStart: false),
    let json = try? JSONValue(parsing: text), let report = try? UsageReport(json: json)
  else { return [] }
  return report.sites
}
