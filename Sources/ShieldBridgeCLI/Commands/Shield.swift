import Config
import DBus
import Localization
import ShieldBridge

extension Command {
  /// `shieldbridge shield --app NAME`: asks the running service to shield an app.
  static let shield = Command(
    name: "shield",
    abstract: "Ask the running service to shield an app.",
    options: ShieldOptions.self,
    discussion: """
      Prints the id of the notification the service posted. A blocker calls this
      when it has stopped an app; the user clicks the notification to continue.

      Exit status: 0; 69 when no service runs (start 'shieldbridge serve', or
      enable the systemd user unit); 78 when no rule covers the app.
      """,
    body: { invocation in
      let id = try await callService(ServiceInterface.shield, invocation[\.app] ?? "", bus: bus(invocation))
      // machine output: the notification's id, for the blocker that called.
      Output.out(String(id))
      return .success
    }
  )
}

/// The options of `shieldbridge shield`.
private struct ShieldOptions: BusOptions {
  let app: Option<String>
  let address: Option<String>

  init(declaring options: inout OptionDeclarations) {
    app = options.value("--app", "NAME", "The app that was just blocked.")
    address = options.address()
  }
}

/// Calls a method of the running service with one string argument.
///
/// - Throws: exit 69 when no service runs on the bus (or no bus), the mapped
///   status for the service's own errors, 70 for an answer of another type than declared.
func callService<Answer: DBusArgument>(
  _ method: MethodContract<(String) -> Answer>, _ argument: String, bus: Connection.Bus
) async throws(CommandFailure) -> Answer {
  let connection: Connection
  do {
    connection = try Connection(bus)
  } catch {
    throw CommandFailure(CommandMessage(.noBusForService, ["error": error.message]), exitCode: .unavailable)
  }
  defer { connection.close() }
  do {
    return try await connection.call(
      method, destination: ServiceNames.busName, path: ServiceNames.path, argument, timeout: .seconds(10))
  } catch  where error.is(.invalidSignature) {
    throw CommandFailure(CommandMessage(.serviceBadAnswer, ["error": error.message]), exitCode: .software)
  } catch  where error.is(.serviceUnknown) || error.is(.nameHasNoOwner) {
    throw CommandFailure(CommandMessage(.noServiceRunning), exitCode: .unavailable)
  } catch  where error.isSpawnFailure {
    throw activationFailure(error)
  } catch  where error.name.hasPrefix("org.shieldbridge.") {
    let failure = ServiceError(error)
    let exitCode: ExitCode =
      switch failure.code {
      case .badLink: .dataError
      case .notCovered: .configError
      case .state: .ioError
      default: .unavailable
      }
    // not in the catalogs: the service's own refusal, in its words.
    throw CommandFailure(failure.message, exitCode: exitCode)
  } catch {
    throw CommandFailure(CommandMessage(.serviceNoAnswer, ["error": error.message]), exitCode: .unavailable)
  }
}

/// Why the bus could not start the service, in the user's words.
///
/// The bus reports only the end of the process it started ("Process
/// org.shieldbridge.ShieldBridge exited with status 78"), and the service's
/// own message went to the journal or nowhere. The likely cause, a
/// `config.json` that cannot be used, is found again here by reading the
/// file the service would have read (the same one unless the bus's
/// activation environment sets another `XDG_CONFIG_HOME` or `HOME`).
private func activationFailure(_ error: DBusError) -> CommandFailure {
  do {
    _ = try Configuration.load()
  } catch {
    let refused = CommandMessage.configRefused(
      file: error.file, key: error.keyPath, problem: ConfigurationText.problem(error))
    return CommandFailure(
      CommandMessage(.serviceConfigurationRefused, ["problem": Output.text(refused)]), exitCode: .configError)
  }
  return CommandFailure(CommandMessage(.serviceCannotStart, ["error": error.message]), exitCode: .unavailable)
}
