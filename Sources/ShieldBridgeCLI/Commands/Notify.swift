import JSON
import Notifications
import Posix

extension Command {
  /// `shieldbridge notify SUMMARY [BODY]`: posts a notification, and with `--wait` reports what became of it.
  static let notify = Command(
    name: "notify",
    abstract:
      "Post a desktop notification; with --wait, report the action chosen or why it closed.",
    arguments: "SUMMARY [BODY]",
    argumentCount: 1...2,
    options: NotifyOptions.self,
    discussion: """
      Takes notify-send 0.8's options, short ones too, parsed as GLib parses
      them (-pu low, never -ulow); -h is --hint, and -? is help. With --wait it
      prints the key of the action chosen, or the reason it closed (expired,
      dismissed, closed, undefined), and exits 0 either way, as notify-send
      does; with --json as {"event":"action","id":N,"key":…,
      "activation_token":…} or {"event":"closed","id":N,"reason":…}.
      Stricter than notify-send: a value it cannot read (a hint, the urgency,
      the time, --replace-id 0, an empty KEY) exits 64 and posts nothing. As
      with notify-send, an action implies --wait: nothing else would hear the
      click. No
      notification server, or actions asked of a server that has none: a
      message naming the cause, exit 69. A server that answers with the id 0
      (notify-osd keeps no ids) has posted it, but --wait has nothing to wait
      on: a warning, exit 0.
      """,
    body: { invocation in try await NotifyCommand(invocation).run() }
  )
}

/// The options of `shieldbridge notify`.
private struct NotifyOptions: BusOptions {
  let appName: Option<String>
  let icon: Option<String>
  let action: RepeatedOption
  let hint: RepeatedOption
  let urgency: Option<String>
  let category: Option<String>
  let transient: Flag
  let expireTime: Option<Int>
  let id: Option<String>
  let replaceID: Option<Int>
  let printID: Flag
  let markup: Flag
  let wait: Flag
  let json: Flag
  let address: Option<String>

  init(declaring options: inout OptionDeclarations) {
    urgency = options.value("--urgency", short: "u", "LEVEL", "low, normal (default) or critical.")
    expireTime = options.integer(
      "--expire-time", short: "t", "MS", in: -1...Int(Int32.max),
      "Close after MS milliseconds; 0 never, -1 the server's default (default).")
    appName = options.value(
      "--app-name", short: "a", "NAME", "The application name shown with it (default shieldbridge).")
    icon = options.value("--icon", short: "i", "ICON", "An icon name or a file:// URI.")
    category = options.value(
      "--category", short: "c", "TYPE[,TYPE...]", "The category, such as im.received (the category hint).")
    transient = options.flag(
      "--transient", short: "e", "Bypass the server's persistence: show it, keep no history.")
    hint = options.repeated(
      "--hint", short: "h", "TYPE:NAME:VALUE",
      "A hint as notify-send writes it (boolean, int, double, string, byte, variant); stricter: "
        + "a value that does not parse as its type is refused.")
    printID = options.flag("--print-id", short: "p", "Print the server's id once posted.")
    replaceID = options.integer(
      "--replace-id", short: "r", "N", in: 1...Int(UInt32.max), "Replace the notification with this server id.")
    wait = options.flag(
      "--wait", short: "w", "Stay until the notification is acted on or closed, and print what happened.")
    action = options.repeated(
      "--action", short: "A", "[KEY=]LABEL",
      "An action; without KEY it is named by its place, 0, 1, …; 'default' is a click on the "
        + "notification. As in notify-send, it implies --wait.")
    id = options.value(
      "--id", "IDENTIFIER", "Replace the notification posted before with this identifier, [A-Za-z0-9._-]{1,64}.")
    markup = options.flag("--markup", "Send the body as markup, unescaped, on purpose.")
    json = options.flag("--json", "Print JSON objects instead of plain words.")
    address = options.address()
  }
}

/// One run of `shieldbridge notify`.
private struct NotifyCommand {
  let invocation: Invocation<NotifyOptions>
  let notification: Notification
  let json: Bool

  init(_ invocation: Invocation<NotifyOptions>) throws(CommandFailure) {
    self.invocation = invocation
    json = invocation[\.json]
    notification = try NotifyCommand.notification(from: invocation)
  }

  func run() async throws(CommandFailure) -> ExitCode {
    // As in notify-send, actions imply waiting: a click reaches only the sender.
    let wait = invocation[\.wait] || !notification.actions.isEmpty
    let identifiers = notification.identifier.map { _ in OneShotIDStore(command: "notify") }
    let client: NotificationClient
    // Only actions need the presentation here: without them, the post asks
    // for the capabilities itself, and only when they change what is sent.
    var presentation: Presentation?
    do {
      client = try await NotificationClient.connect(
        to: bus(invocation), store: identifiers?.store ?? MemoryIDStore(), receivesEvents: wait)
      if !notification.actions.isEmpty { presentation = try await client.presentation() }
    } catch {
      throw CommandFailure(error)
    }
    if let presentation, !presentation.routesClicks {
      let name = (try? await client.serverInformation().name) ?? "the notification server"
      throw CommandFailure(
        "\(name) does not support actions (no 'actions' capability), so the actions cannot be offered or clicked",
        exitCode: .unavailable)
    }
    let events = wait ? client.events() : nil
    let id: UInt32
    do {
      id = try await client.post(notification)
    } catch {
      throw CommandFailure(error)
    }
    identifiers?.reportFailure()
    if invocation[\.printID] || (json && !wait) {
      Output.out(
        json ? JSONValue.object([("event", "posted"), ("id", .int(id))]).serialized : String(id))
      Output.flush()
    }
    guard let events else { finish(.success) }
    guard id != 0 else {
      // notify-osd's answer: no event will ever name this notification.
      Output.err(
        "shieldbridge notify: warning: the server answered with the id 0 (it keeps no ids), so nothing can be waited for"
      )
      finish(.success)
    }
    finish(try await report(events, for: id))
  }

  /// Ends the process at once with `status`.
  ///
  /// The post is done: returning to the main thread first, and closing the
  /// connection politely (flush, then wait for its thread), would only delay
  /// a one-shot process; the bus notices a closed socket just as well.
  private func finish(_ status: ExitCode) -> Never {
    Output.flush()
    CurrentProcess.exit(status.rawValue)
  }

  /// Waits for the action or the close of notification `id` and prints it.
  private func report(_ events: AsyncStream<NotificationEvent>, for id: UInt32)
    async throws(CommandFailure)
    -> ExitCode
  {
    var token: String?
    for await event in events where event.id == id {
      switch event {
      case .activationToken(_, let value):
        token = value
      case .action(_, let key):
        print(
          key,
          [
            ("event", "action"), ("id", .int(id)), ("key", .string(key)),
            ("activation_token", .string(token)),
          ])
        return .success
      case .replied(_, let text):
        print(text, [("event", "reply"), ("id", .int(id)), ("text", .string(text))])
        return .success
      case .closed(_, let reason):
        print(
          reason.name, [("event", "closed"), ("id", .int(id)), ("reason", .string(reason.name))])
        // notify-send exits 0 on any close: the post itself succeeded.
        return .success
      }
    }
    throw CommandFailure(
      "lost the connection to the message bus while waiting", exitCode: .unavailable)
  }

  private func print(_ plain: String, _ members: [(String, JSONValue)]) {
    Output.out(json ? JSONValue.object(members).serialized : plain)
  }

  /// The notification the command line describes.
  private static func notification(from invocation: Invocation<NotifyOptions>) throws(CommandFailure)
    -> Notification
  {
    var notification = Notification(
      summary: invocation.positional(0) ?? "", body: invocation.positional(1) ?? "",
      appName: invocation[\.appName] ?? "shieldbridge",
      icon: invocation[\.icon] ?? "")
    notification.bodyIsMarkup = invocation[\.markup]
    // As notify-send: the urgency is always sent, normal unless asked.
    notification.hints.urgency = .normal
    for (index, text) in invocation[\.action].enumerated() {
      // As notify-send: split at the first '=', trim both sides, and name an
      // action without a key by its place among all actions, 0 first.
      guard let equals = text.firstIndex(of: "=") else {
        notification.actions.append(.init(key: String(index), label: text.trimmedOfWhitespace))
        continue
      }
      let key = text[..<equals].trimmedOfWhitespace
      guard !key.isEmpty else {
        throw .usage("--action takes [KEY=]LABEL with a non-empty key, not '\(text)'")
      }
      notification.actions.append(
        .init(key: key, label: text[text.index(after: equals)...].trimmedOfWhitespace))
    }
    if let category = invocation[\.category] { notification.hints.category = category }
    if invocation[\.transient] { notification.hints.transient = true }
    for text in invocation[\.hint] {
      do {
        let (name, value) = try HintSyntax.parse(text)
        notification.hints.custom[name] = value
      } catch {
        throw .usage(error.message)
      }
    }
    if let name = invocation[\.urgency] {
      guard let urgency = Notification.Urgency(name: name) else {
        throw .usage("--urgency is low, normal or critical, not '\(name)'")
      }
      notification.hints.urgency = urgency
    }
    if let milliseconds = try invocation[\.expireTime] {
      notification.expiry = Notification.Expiry(wireValue: Int32(milliseconds))
    }
    if let identifier = invocation[\.id] {
      guard Notification.isValidIdentifier(identifier) else {
        throw .usage("--id takes 1 to 64 of A-Z a-z 0-9 . _ -, not '\(identifier)'")
      }
      notification.identifier = identifier
    }
    if let replacesID = try invocation[\.replaceID] {
      notification.replacesID = UInt32(replacesID)
    }
    return notification
  }
}

extension StringProtocol {
  /// The text without spaces, tabs and newlines at either end, as `g_strstrip` leaves it.
  fileprivate var trimmedOfWhitespace: String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(self[first...last])
  }
}
