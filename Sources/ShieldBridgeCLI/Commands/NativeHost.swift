import Config
import Log
import NativeHost
import Posix
import ShieldBridge

extension Command {
  /// `shieldbridge native-host ORIGIN | MANIFEST EXTENSION-ID`: the browser extension's host.
  static let nativeHost = Command(
    name: "native-host",
    abstract: "Speak the browsers' native-messaging protocol for the ShieldBridge extension.",
    arguments: "ORIGIN | MANIFEST EXTENSION-ID",
    argumentCount: 0...3,
    options: NativeHostOptions.self,
    discussion: """
      Started by Chromium or Firefox (through the launcher that the host manifest
      org.shieldbridge.shieldbridge.json names), never by hand: Chromium passes
      the extension's origin (chrome-extension://ID/), Firefox the manifest's
      path and the extension's id; without either the host refuses to start.

      Reads messages from stdin and writes answers to stdout, each a 32-bit
      length in the machine's byte order and then UTF-8 JSON. Messages from the
      browser are at most 64 KiB (ours are a few dozen bytes), answers at most
      1 MB. It tells the running service (started through D-Bus activation
      when needed) which site the browser shows, answers with the site's state,
      pushes a new state when the service reports a limit or an unlock, and runs
      the shield page's puzzle, recording the grant in the ledger. Errors go to
      stderr, which the browser keeps in its log.

      Exit status: 0 when the browser closed stdin; 65 when the stream of
      messages broke (a length over the limit or a message cut short: after
      either the stream cannot be resynchronised); 74 when the browser stopped
      reading; 64 when no browser started it; 78 when the configuration is wrong.
      """,
    body: { invocation in try await runNativeHost(invocation) }
  )
}

/// The options of `shieldbridge native-host`; browsers pass none of them.
private struct NativeHostOptions: BusOptions {
  let address: Option<String>

  init(declaring options: inout OptionDeclarations) {
    address = options.address()
  }
}

private func runNativeHost(_ invocation: Invocation<NativeHostOptions>) async throws(CommandFailure) -> ExitCode {
  guard let caller = BrowserCaller(arguments: invocation.positionals) else {
    throw CommandFailure.usage(
      "native-host is started by a browser, which passes the extension's origin (chrome-extension://ID/) "
        + "or the manifest's path and the extension's id; install the host manifest with 'make install' "
        + "and load the extension instead of running it by hand")
  }
  // Browsers pass no options: the level comes from SHIELDBRIDGE_LOG_LEVEL alone.
  let logger = Logger.standardError(program: "shieldbridge native-host", level: nil)
  let configuration = try loadConfiguration()
  let store = try standardLedgerStore(dayStart: configuration.dayStartsAt)
  let options = NativeHost.Options(
    bus: bus(invocation), browserPID: CurrentProcess.parentID,
    rules: RulesInForce.resolve(configured: configuration.rules, store: store),
    reloadRules: {
      (try? Configuration.load().configuration.rules).map { RulesInForce.resolve(configured: $0, store: store) }
    }, ledger: store, logger: logger, configurationPath: Configuration.standardPath(environment: Environment.all))
  logger.info("started for \(caller) (browser process \(options.browserPID))")
  switch await NativeHost.run(options) {
  case .inputClosed:
    return .success
  case .badInput:
    return .dataError
  case .outputClosed:
    return .ioError
  }
}
