import DBus
import JSON
import Notifications
import Posix
import Spawn
import Version

extension Command {
  /// `shieldbridge notification-server [click|close|reply|list …]`: the embedded server, and how to drive it.
  ///
  /// The command tree has no command that both runs and has subcommands, so
  /// the forms are read from the first positional argument here.
  static let notificationServer = Command(
    name: "notification-server",
    abstract:
      "Run the embedded headless notification server, or click, close, reply to and list its notifications.",
    arguments: "[click ID [ACTION] | close ID [REASON] | reply ID TEXT | list]",
    argumentCount: 0...3,
    options: NotificationServerOptions.self,
    discussion: """
      Without a command it owns org.freedesktop.Notifications on the session bus
      (or ADDR) until SIGTERM or SIGINT, then closes what it shows (reason
      closed, to each sender) and exits 0. The commands talk to a
      running server: click sends ActivationToken and ActionInvoked for ACTION
      (default 'default') and prints the token; close sends NotificationClosed
      with REASON (expired, dismissed, closed, undefined or 1-4; default
      dismissed); reply sends NotificationReplied (needs inline-reply); list
      shows the open notifications. It keeps the 1,000 most recent within
      16 MiB of JSON, each text cut to 64 KiB (see docs/reference/notifications.md).
      """,
    body: { invocation in
      switch invocation.positional(0) {
      case nil: return try await serveNotifications(invocation)
      case "click": return try await clickNotification(invocation)
      case "close": return try await closeNotification(invocation)
      case "reply": return try await replyToNotification(invocation)
      case "list": return try await listNotifications(invocation)
      case let other?:
        throw CommandFailure.usage("unknown command '\(other)'; use click, close, reply or list")
      }
    }
  )
}

/// The options of `shieldbridge notification-server`; each form takes only some of them.
private struct NotificationServerOptions: BusOptions {
  let address: Option<String>
  let capabilities: Option<String>
  let record: Option<String>
  let ids: Option<String>
  let json: Flag

  init(declaring options: inout OptionDeclarations) {
    address = options.address()
    capabilities = options.value(
      "--capabilities", "LIST", "Comma-separated capabilities to advertise (default: " + defaultCapabilityList + ").")
    record = options.value(
      "--record", "FILE", "Append every notification, close, action and reply to FILE as JSON lines.")
    ids = options.value(
      "--ids", "KIND", "numbered (default), or zero to answer Notify with 0 as notify-osd does.")
    json = options.flag("--json", "With list: print the notifications as a JSON array.")
  }
}

/// The command line of `notification-server`, read through its options.
private typealias ServerInvocation = Invocation<NotificationServerOptions>

/// The default capabilities as `--capabilities` takes them: `actions,body,…`.
///
/// Built with a loop: `joined(separator:)` would make the runtime instantiate
/// its generic types first, which cost a one-shot `notify` more than the rest
/// of the tree when every command declared all its options at start.
private var defaultCapabilityList: String {
  var list = ""
  for capability in NotificationServer.Configuration.defaultCapabilities {
    list += list.isEmpty ? capability.rawValue : "," + capability.rawValue
  }
  return list
}

/// Runs the server until SIGTERM or SIGINT.
private func serveNotifications(_ invocation: ServerInvocation) async throws(CommandFailure) -> ExitCode {
  try onlyOptions(
    { [$0.address, $0.capabilities, $0.record, $0.ids] }, in: invocation, for: "the server")
  var configuration = NotificationServer.Configuration(recordPath: invocation[\.record])
  switch invocation[\.ids] {
  case nil, "numbered"?: break
  case "zero"?: configuration.answersZeroIDs = true
  case let other?: throw .usage("--ids is numbered or zero, not '\(other)'")
  }
  if let list = invocation[\.capabilities] {
    let capabilities = list.split(separator: ",", omittingEmptySubsequences: true).map(String.init)
    if let bad = capabilities.first(where: { $0.contains(where: \.isWhitespace) }) {
      throw .usage("--capabilities takes names separated by commas, not '\(bad)'")
    }
    configuration.capabilities = capabilities.map(Capability.init(rawValue:))
  }
  configuration.information.version = shieldBridgeVersion
  let stop = SignalWaiter([SignalPipe.terminate, SignalPipe.interrupt])
  let connection: Connection
  let server: NotificationServer
  do {
    connection = try Connection(bus(invocation))
  } catch {
    throw CommandFailure(
      "cannot connect to the message bus: \(error.message)", exitCode: .unavailable)
  }
  do {
    server = try NotificationServer(connection: connection, configuration: configuration)
    try await server.start()
  } catch {
    throw CommandFailure(error)
  }
  let address = (try? Connection.address(of: bus(invocation))) ?? "the session bus"
  Output.out("serving org.freedesktop.Notifications on \(address) as \(connection.uniqueName)")
  Output.flush()
  guard await stop.wait(orUntilLost: connection) != nil else {
    throw CommandFailure("lost the connection to the message bus", exitCode: .unavailable)
  }
  // A client waiting on what is shown (notify-send -w) hears that it closed; close() flushes the signals.
  server.closeAll()
  await server.stop()
  connection.close()
  if let failure = server.recordError {
    throw CommandFailure(failure)
  }
  return .success
}

private func clickNotification(_ invocation: ServerInvocation) async throws(CommandFailure) -> ExitCode {
  try onlyOptions({ [$0.address] }, in: invocation, for: "click")
  let id = try notificationID(invocation)
  guard invocation.positionals.count <= 3 else { throw .usage("click takes ID [ACTION]") }
  let token = try await withControl(invocation) { control throws(NotificationError) in
    try await control.click(id, action: invocation.positional(2) ?? Notification.Action.defaultKey)
  }
  Output.out(token)
  return .success
}

private func closeNotification(_ invocation: ServerInvocation) async throws(CommandFailure) -> ExitCode {
  try onlyOptions({ [$0.address] }, in: invocation, for: "close")
  let id = try notificationID(invocation)
  var reason = CloseReason.dismissed
  if let text = invocation.positional(2) {
    guard let named = CloseReason(name: text) ?? UInt32(text).flatMap(CloseReason.init(rawValue:))
    else {
      throw .usage(
        "a close reason is expired, dismissed, closed, undefined or 1 to 4, not '\(text)'")
    }
    reason = named
  }
  try await withControl(invocation) { control throws(NotificationError) in
    try await control.close(id, reason: reason)
  }
  return .success
}

private func replyToNotification(_ invocation: ServerInvocation) async throws(CommandFailure) -> ExitCode {
  try onlyOptions({ [$0.address] }, in: invocation, for: "reply")
  let id = try notificationID(invocation)
  guard let text = invocation.positional(2) else { throw .usage("reply takes ID TEXT") }
  try await withControl(invocation) { control throws(NotificationError) in
    try await control.reply(id, text: text)
  }
  return .success
}

private func listNotifications(_ invocation: ServerInvocation) async throws(CommandFailure) -> ExitCode {
  try onlyOptions({ [$0.address, $0.json] }, in: invocation, for: "list")
  guard invocation.positionals.count == 1 else { throw .usage("list takes no arguments") }
  let list = try await withControl(invocation) { control throws(NotificationError) in
    try await control.list()
  }
  if invocation[\.json] {
    Output.out(list.serialized)
    return .success
  }
  let notifications = list.arrayValue ?? []
  if notifications.isEmpty { Output.out("no open notifications") }
  for notification in notifications {
    let id = notification["id"]?.integerValue.map(String.init) ?? "?"
    var line =
      "\(id)\t\(notification["app_name"]?.stringValue ?? "")\t\(notification["summary"]?.stringValue ?? "")"
    let keys = (notification["actions"]?.arrayValue ?? []).compactMap { $0["key"]?.stringValue }
    if !keys.isEmpty { line += "\t[" + keys.joined(separator: ", ") + "]" }
    Output.out(line)
  }
  return .success
}

/// The ID argument of click, close and reply.
private func notificationID(_ invocation: ServerInvocation) throws(CommandFailure) -> UInt32 {
  guard let text = invocation.positional(1) else { throw .usage("missing the notification ID") }
  guard let id = UInt32(text), id != 0 else {
    throw .usage("a notification ID is a number from 1, not '\(text)'")
  }
  return id
}

/// Refuses options that do not apply to this form of the command.
private func onlyOptions(
  _ allowed: (NotificationServerOptions) -> [any OptionKey], in invocation: ServerInvocation,
  for form: String
) throws(CommandFailure) {
  let names = Set(allowed(invocation.options).map(\.name))
  if let other = invocation.givenOptionNames.first(where: { !names.contains($0) }) {
    throw .usage("\(other) does not apply to \(form)")
  }
}

/// Connects to the bus and runs `body` with a control client of the running server.
private func withControl<T>(
  _ invocation: ServerInvocation,
  _ body: (NotificationServerControl) async throws(NotificationError) -> T
) async throws(CommandFailure) -> T {
  let connection: Connection
  do {
    connection = try Connection(bus(invocation))
  } catch {
    throw CommandFailure(
      "cannot connect to the message bus: \(error.message)", exitCode: .unavailable)
  }
  defer { connection.close() }
  do {
    return try await body(NotificationServerControl(connection: connection))
  } catch {
    throw CommandFailure(error)
  }
}
