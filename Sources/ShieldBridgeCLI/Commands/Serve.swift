import DBus
import Localization
import Posix
import ShieldBridge
import Spawn

extension Command {
  /// `shieldbridge serve [--address ADDR]`: the service.
  static let serve = Command(
    name: "serve",
    abstract: "Run the service: shields, clicks, puzzles and app views.",
    options: AddressOptions.self,
    discussion: """
      Owns org.shieldbridge.ShieldBridge on the session bus (or ADDR) and exports
      org.shieldbridge.ShieldBridge1 at /org/shieldbridge/ShieldBridge1:
        Shield(s app) -> u        post the shield notification, return its id
        Open(s link) -> s         resolve a link and dispatch it, return the record as JSON
        Status() -> s             today's rules and grants as JSON
        signal Dispatched(s)      one JSON record per dispatched action
      Each dispatch is also logged as one line on stderr.

      Exit status: 0 after SIGTERM, SIGINT or SIGHUP (it takes no new calls,
      waits for the notifications being posted, closes every notification it
      posted and releases the name), 69 when the bus is lost or missing, 75
      when another service already runs, 78 when the configuration is wrong.
      """,
    body: { invocation in try await runService(invocation) }
  )
}

private func runService(_ invocation: Invocation<AddressOptions>) async throws(CommandFailure) -> ExitCode {
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
  } catch {
    throw CommandFailure(error.message, exitCode: error.code == .alreadyRunning ? .tryAgain : .unavailable)
  }
  options.log("serving \(ServiceNames.busName) as \(connection.uniqueName)")
  guard await stop.wait(orUntilLost: connection) != nil else {
    let reason = await connection.disconnection()
    throw CommandFailure("lost the message bus (\(reason.message)); stopping", exitCode: .unavailable)
  }
  await service.stop()
  connection.close()
  options.log("stopped")
  return .success
}

/// The service's options from this process: config.json, the ledger, the
/// user's language, this environment and this executable.
func serviceOptions() throws(CommandFailure) -> ShieldService.Options {
  let environment = Environment.all
  return ShieldService.Options(
    configuration: try loadConfiguration(), ledger: try standardLedgerStore(),
    localizer: Localizer.current(environment: environment), launcher: Launcher(environment: environment),
    executable: currentExecutable(), log: { Output.err("shieldbridge: \($0)") })
}

/// ``serviceOptions()`` with the desktop the meter watches, for `serve`.
func meteredServiceOptions(_ invocation: Invocation<AddressOptions>) throws(CommandFailure) -> ShieldService.Options {
  var options = try serviceOptions()
  options.openDesktop(environment: Environment.all)
  return options
}

/// The path of this executable, for the terminal that runs `shieldbridge puzzle`.
func currentExecutable() -> String {
  FileSystem.executablePath() ?? CommandLine.arguments.first ?? "shieldbridge"
}
