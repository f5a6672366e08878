import Config
import DBus
import Localization
import Log
import Posix
import ShieldBridge
import Spawn

extension Command {
  /// `shieldbridge serve [--address ADDR] [--minute-length MS] [--save-interval MS]`: the service.
  static let serve = Command(
    name: "serve",
    abstract: "Run the service: shields, clicks, puzzles and app views.",
    options: ServeOptions.self,
    discussion: """
      Owns org.shieldbridge.ShieldBridge on the session bus (or ADDR) and exports
      org.shieldbridge.ShieldBridge1 at /org/shieldbridge/ShieldBridge1:
        Shield(s app) -> u        post the shield notification, return its id
        Open(s link) -> s         resolve a link and dispatch it, return the record as JSON
        Status() -> s             today's rules and grants as JSON
        Usage() -> s              today's use per rule and the source that counts it, as JSON
        SiteFocus(sub) -> s       the site a browser's active tab shows ("" for none), the
                                  browser's pid and whether the browser says its window is
                                  focused, from native-host; answered with the site's state
        signal Dispatched(s)      one JSON record per dispatched action
        signal LimitReached(ss)   a rule and the app in use reached today's limit
        signal Unlocked(su)       a rule and the minutes a grant (or a new day) unlocked
      Each dispatch is also logged as one line on stderr, as everything the
      service does is: "shieldbridge serve: LEVEL: PART: message", from the
      level --log-level (or SHIELDBRIDGE_LOG_LEVEL) names up, info by default.

      With rules in config.json it meters the desktop "desktop" names (auto:
      sway, i3, X11, else the running processes), acts at each rule's limit
      (onLimit: hide, close, notify) and writes the time used to the ledger at
      least every 30 s. --minute-length and --save-interval shorten the meter's
      minute and the save interval for tests and demonstrations.

      Exit status: 0 after SIGTERM, SIGINT or SIGHUP (it takes no new calls,
      waits for the notifications being posted, closes every notification it
      posted and releases the name), and at once, with one line, when another
      service already owns the name (started by the session's autostart, the
      systemd unit or the bus); 69 when the bus is lost or missing, 78 when
      the configuration is wrong.
      """,
    body: { invocation in try await runService(invocation) }
  )
}

/// `serve`'s options: the bus, and the meter's timings shortened for tests and demonstrations.
struct ServeOptions: BusOptions {
  let address: Option<String>
  let minuteLength: Option<Int>
  let saveInterval: Option<Int>
  let logLevel: Option<LogLevel>

  init(declaring options: inout OptionDeclarations) {
    address = options.address()
    logLevel = options.logLevel()
    minuteLength = options.integer(
      "--minute-length", "MS", in: 1...60_000, digitsOnly: true,
      "How long a minute of the rules' limits lasts, in milliseconds (60000; shorter for tests and demos).")
    saveInterval = options.integer(
      "--save-interval", "MS", in: 1...30_000, digitsOnly: true,
      "How often the counted time is written to the ledger, in milliseconds (30000; shorter for tests).")
  }
}

private func runService(_ invocation: Invocation<ServeOptions>) async throws(CommandFailure) -> ExitCode {
  // SIGHUP stops too: its default action would end the process with its notifications still open.
  let stop = SignalWaiter([SignalPipe.terminate, SignalPipe.interrupt, SignalPipe.hangUp])
  let options = try meteredServiceOptions(invocation)
  let connection: Connection
  do {
    connection = try Connection(bus(invocation))
  } catch {
    throw CommandFailure("cannot connect to the message bus: \(error.message)", exitCode: .unavailable)
  }
  let service: ShieldService
  do {
    service = try await ShieldService.start(on: connection, options: options)
  } catch  where error.code == .alreadyRunning {
    // The session's autostart, the systemd unit and D-Bus activation may each start one: the second has nothing to do.
    let owner = (try? await connection.nameOwner(ServiceNames.busName, timeout: .seconds(5))) ?? nil
    let by = owner.map { " as \($0)" } ?? ""
    options.logger.notice("another ShieldBridge service already serves \(ServiceNames.busName)\(by); exiting")
    connection.close()
    return .success
  } catch {
    throw CommandFailure(error.message, exitCode: .unavailable)
  }
  options.logger.info("serving \(ServiceNames.busName) as \(connection.uniqueName)")
  guard await stop.wait(orUntilLost: connection) != nil else {
    let reason = await connection.disconnection()
    throw CommandFailure("lost the message bus (\(reason.message)); stopping", exitCode: .unavailable)
  }
  await service.stop()
  connection.close()
  options.logger.info("stopped")
  return .success
}

/// The service's options from this process: config.json, the ledger, the
/// user's language, this environment and this executable, logging to `logger`.
func serviceOptions(logger: Logger) throws(CommandFailure) -> ShieldService.Options {
  let environment = Environment.all
  let configuration = try loadConfiguration()
  return ShieldService.Options(
    configuration: configuration, ledger: try standardLedgerStore(dayStart: configuration.dayStartsAt),
    localizer: Localizer.current(environment: environment), launcher: Launcher(environment: environment),
    executable: currentExecutable(), logger: logger)
}

/// ``serviceOptions()`` with the desktop the meter watches and the timings given, for `serve`.
func meteredServiceOptions(_ invocation: Invocation<ServeOptions>) throws(CommandFailure) -> ShieldService.Options {
  var options = try serviceOptions(
    logger: .standardError(program: "shieldbridge serve", level: try invocation[\.logLevel]))
  if let milliseconds = try invocation[\.minuteLength] { options.meter.minuteLength = .milliseconds(milliseconds) }
  if let milliseconds = try invocation[\.saveInterval] { options.meter.saveInterval = .milliseconds(milliseconds) }
  options.openDesktop(environment: Environment.all)
  // Started with the session, it leaves the name to the desktop's own notification server for a while.
  options.waitsForDesktopNotifications = true
  // The service reloads config.json when it changes (see ShieldService.reloadConfiguration).
  options.configurationPath = Configuration.standardPath(environment: Environment.all)
  return options
}

/// The absolute path of this executable, for the terminal that runs
/// `shieldbridge puzzle` and the handlers' `{shieldbridge}`.
///
/// Absolute because the children may start with another `PATH` or working
/// directory; `/proc/self/exe` gives it, and `argv[0]` is made absolute only
/// where `/proc` is missing.
func currentExecutable() -> String {
  if let path = FileSystem.executablePath() { return path }
  let first = CommandLine.arguments.first ?? "shieldbridge"
  guard first.contains("/"), !first.hasPrefix("/"), let directory = FileSystem.currentDirectory() else {
    return first
  }
  return directory + "/" + first
}
