import DBus
import DeepLink
import JSON
import Log
import Posix
import ShieldBridge

extension Command {
  /// `shieldbridge open URL`: the handler of `x-scheme-handler/shieldbridge`.
  static let open = Command(
    name: "open",
    abstract: "Open a shieldbridge:// link: a puzzle or a configured app view.",
    arguments: "URL",
    argumentCount: 1...1,
    options: AddressOptions.self,
    discussion: """
      Hands the link to the running service; when none runs, resolves and
      dispatches it here: the puzzle in this terminal (or a new one, or the
      configured handler), a view with xdg-open (or the configured handler).
      Only views configured for the app open; no link grants time by itself.
      Prints one line: the outcome as JSON.

      Exit status: 0 when the action was carried out; 65 for a bad link or a
      refused view; 69 when it could not be shown here; 75 when today's grants
      are used up.
      """,
    body: { invocation in try await openLink(invocation) }
  )
}

private func openLink(_ invocation: Invocation<AddressOptions>) async throws(CommandFailure) -> ExitCode {
  let link = invocation.positionals[0]
  if let answer = try await askService(link, bus: bus(invocation)) {
    Output.out(answer)
    let outcome = (try? JSONValue(parsing: answer))?["outcome"]?.stringValue
    let detail = (try? JSONValue(parsing: answer))?["detail"]?.stringValue ?? ""
    return try exitCode(outcome.flatMap(DispatchRecord.Outcome.init(rawValue:)) ?? .failed, detail)
  }
  // Without the service the dispatch runs here; what it would log (a damaged ledger) goes to stderr.
  let options = try serviceOptions(logger: Logger(sink: .lines(program: "shieldbridge") { Output.err($0) }))
  let links: LinkConfiguration
  do {
    links = try LinkConfiguration(scheme: options.configuration.scheme)
  } catch {
    throw CommandFailure("the scheme in config.json cannot be used: \(error.message)", exitCode: .configError)
  }
  let resolution: Resolution<ShieldAction>
  do {
    resolution = try Router(configuration: links).resolve(link)
  } catch {
    throw CommandFailure("\(error.code) at byte \(error.offset): \(error.message)", exitCode: .dataError)
  }
  let record = LocalDispatch.dispatch(
    resolution.action, link: link, scheme: links.scheme, options: options,
    interactive: FileDescriptor.standardInput.isTerminal)
  Output.out(record.json.serialized)
  return try exitCode(record.outcome, record.detail)
}

/// The exit status for an outcome: 0 when the action was carried out, a failure with the detail otherwise.
private func exitCode(_ outcome: DispatchRecord.Outcome, _ detail: String) throws(CommandFailure) -> ExitCode {
  switch outcome {
  case .handler, .terminal, .inlineReply, .opened, .coalesced, .duplicate: return .success
  case .usedUp, .notAtLimit, .inDowntime: throw CommandFailure(detail, exitCode: .tryAgain)
  case .refused: throw CommandFailure(detail, exitCode: .dataError)
  case .unavailable: throw CommandFailure(detail, exitCode: .unavailable)
  case .failed: throw CommandFailure(detail, exitCode: .failure)
  }
}

/// The service's answer to `Open`, or `nil` when no service runs (nor can be started).
private func askService(_ link: String, bus: Connection.Bus) async throws(CommandFailure) -> String? {
  do {
    return try await callService(ServiceInterface.open, link, bus: bus)
  } catch  where error.exitCode == .unavailable {
    return nil
  }
}
