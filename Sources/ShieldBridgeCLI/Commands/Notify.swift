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
      With --wait it prints the key of the action chosen and exits 0, or the
      reason it closed (expired, dismissed, closed, undefined) and exits 1; with
      --json as {"event":"action","id":N,"key":…,"activation_token":…} or
      {"event":"closed","id":N,"reason":…}. Without --wait, clicks on actions
      reach nobody, and a warning says so. No notification server, or actions
      asked of a server that has none: a message naming the cause, exit 69. A
      server that answers with the id 0 (notify-osd keeps no ids) has posted
      it, but --wait has nothing to wait on: a warning, exit 0.
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
  let expireTime: Option<Int>
  let id: Option<String>
  let replaceID: Option<Int>
  let printID: Flag
  let markup: Flag
  let wait: Flag
  let json: Flag
  let address: Option<String>

  init(declaring options: inout OptionDeclarations) {
    appName = options.value("--app-name", "NAME", "The application name shown with it (default shieldbridge).")
    icon = options.value("--icon", "ICON", "An icon name or a file:// URI.")
    action = options.repeated(
      "--action", "KEY=LABEL", "An action; the key 'default' is a click on the notification.")
    hint = options.repeated(
      "--hint", "TYPE:NAME:VALUE", "A hint as notify-send writes it (int, double, string, byte, boolean, variant).")
    urgency = options.value("--urgency", "LEVEL", "low, normal or critical.")
    expireTime = options.integer(
      "--expire-time", "MS", in: -1...Int(Int32.max),
      "Close after MS milliseconds; 0 never, -1 the server's default (default).")
    id = options.value(
      "--id", "IDENTIFIER", "Replace the notification posted before with this identifier, [A-Za-z0-9._-]{1,64}.")
    replaceID = options.integer(
      "--replace-id", "N", in: 1...Int(UInt32.max), "Replace the notification with this server id.")
    printID = options.flag("--print-id", "Print the server's id once posted.")
    markup = options.flag("--markup", "Send the body as markup, unescaped, on purpose.")
    wait = options.flag("--wait", "Stay until the notification is acted on or closed, and print what happened.")
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
    let wait = invocation[\.wait]
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
    if !notification.actions.isEmpty && !wait {
      Output.err(
        "shieldbridge notify: warning: clicks on the actions will not be routed: nothing waits for them (use --wait)"
      )
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
        return .failure
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
    for text in invocation[\.action] {
      guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
        throw .usage("--action takes KEY=LABEL with a non-empty key, not '\(text)'")
      }
      notification.actions.append(
        .init(key: String(text[..<equals]), label: String(text[text.index(after: equals)...])))
    }
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
