import NotificationMarkup

/// How ShieldBridge presents notifications to one server, decided once from its capabilities.
///
/// The same decision shapes what is posted (actions, a link in the body, or a
/// close-only notification; escaped markup or plain text) and what is read
/// back (an `ActionInvoked` is expected only where actions were offered, a
/// `NotificationReplied` only where inline replies are).
public struct Presentation: Sendable, Hashable, CustomStringConvertible {
  /// Where a click can go.
  public enum Style: String, Sendable, Hashable {
    /// The server shows actions and reports `ActionInvoked`: a default action and secondary ones.
    case actions
    /// No actions, but the server opens hyperlinks in the body: the links go there.
    case bodyHyperlink = "body-hyperlink"
    /// Neither: the notification can only be closed; its text says how to go on.
    case closeOnly = "close-only"
  }

  public let style: Style
  /// Whether the server reads body markup, so that every inserted value is escaped.
  public let bodyMarkup: Bool
  /// Whether the server offers KDE's inline reply field (`inline-reply`).
  public let inlineReply: Bool
  /// The stack-tag hints the server advertises, set to the notification's identifier.
  public let stackTagHints: [HintName]
  /// Whether the server keeps notifications until the user removes them
  /// (`persistence`), so that the `resident` hint means something there.
  public let persistence: Bool

  /// The stack-tag hints ShieldBridge knows, in the order they are set.
  public static let knownStackTagHints: [HintName] = [.dunstStackTag, .canonicalPrivateSynchronous]

  /// Decides the presentation for a server with these capabilities.
  public init(capabilities: [Capability]) {
    let set = Set(capabilities)
    if set.contains(.actions) {
      style = .actions
    } else if set.contains(.bodyHyperlinks) {
      style = .bodyHyperlink
    } else {
      style = .closeOnly
    }
    bodyMarkup = set.contains(.bodyMarkup)
    inlineReply = set.contains(.inlineReply)
    persistence = set.contains(.persistence)
    stackTagHints = Presentation.knownStackTagHints.filter { set.contains(Capability(hint: $0)) }
  }

  /// Whether clicks come back to the program that posted (only with actions).
  public var routesClicks: Bool { style == .actions }

  /// `text` as it must be inserted into a body: escaped where the server reads markup.
  public func text(_ text: String) -> String {
    bodyMarkup ? Markup.escape(text) : text
  }

  /// The notification as it goes on the wire to this server.
  ///
  /// The body is escaped (or, when it is markup, stripped to plain text for a
  /// server without markup); actions stay only where the server has them, and
  /// become links in the body or the close-only text otherwise; the inline
  /// reply action stays only where inline replies exist; the identifier is set
  /// as every stack-tag hint the server advertises, unless the post replaces
  /// a notification by its id. A notification that
  /// ``Notification/waitsForUser`` never expires, and is resident where the
  /// server has `persistence` (a `resident` set by the caller wins).
  ///
  /// - Parameter replacing: Whether the post names the notification it
  ///   replaces by id (`replaces_id`). The stack tags are for replacing without
  ///   an id; with one they add nothing, and mako 1.7.1 (Debian 12) crashes on
  ///   a `Notify` that names the same notification both ways
  ///   (docs/reference/notification-servers.md).
  public func prepare(_ notification: Notification, replacing: Bool = false) -> Notification {
    var result = notification
    var body: String
    if notification.bodyIsMarkup {
      body = bodyMarkup ? notification.body : Markup.plainText(notification.body)
    } else {
      body = text(notification.body)
    }
    var extra: [String] = []
    switch style {
    case .actions:
      if !inlineReply {
        result.actions.removeAll { $0.key == Notification.Action.inlineReplyKey }
      }
    case .bodyHyperlink:
      for action in notification.actions {
        guard let link = action.link else { continue }
        extra.append(
          bodyMarkup
            ? "<a href=\"\(Markup.escape(link))\">\(Markup.escape(action.label))</a>"
            : "\(action.label): \(link)")
      }
      result.actions = []
    case .closeOnly:
      if let closeOnlyText = notification.closeOnlyText, !closeOnlyText.isEmpty {
        extra.append(text(closeOnlyText))
      }
      result.actions = []
    }
    if !extra.isEmpty {
      body = ([body].filter { !$0.isEmpty } + extra).joined(separator: "\n")
    }
    result.body = body
    result.bodyIsMarkup = bodyMarkup
    result.closeOnlyText = nil
    if notification.waitsForUser {
      result.expiry = .never
      if persistence, result.hints.resident == nil { result.hints.resident = true }
    }
    if let identifier = notification.identifier, !replacing {
      for hint in stackTagHints where result.hints.custom[hint] == nil {
        result.hints.custom[hint] = .string(identifier)
      }
    }
    return result
  }

  /// Whether ``prepare(_:)`` gives `notification` the same form whatever the
  /// server's capabilities: it has no actions, no close-only text, no
  /// identifier and does not wait for the user (resident only with
  /// `persistence`), and its body reads the same escaped or stripped of markup.
  public static func isSameForEveryServer(_ notification: Notification) -> Bool {
    guard notification.actions.isEmpty, notification.closeOnlyText?.isEmpty ?? true,
      notification.identifier == nil, !notification.waitsForUser
    else { return false }
    return notification.bodyIsMarkup
      ? Markup.plainText(notification.body) == notification.body
      : Markup.escape(notification.body) == notification.body
  }

  /// Whether an event from the server makes sense under this presentation.
  ///
  /// Actions are read only where they were offered, replies only where the
  /// server has inline replies; closes and activation tokens always.
  public func accepts(_ event: NotificationEvent) -> Bool {
    switch event {
    case .action: style == .actions
    case .replied: inlineReply
    case .closed, .activationToken: true
    }
  }

  /// One line for people: `actions, body markup (escaped), stack tags: x-dunst-stack-tag`.
  public var description: String {
    var parts = [style.rawValue]
    parts.append(bodyMarkup ? "body markup (values escaped)" : "plain text")
    if inlineReply { parts.append("inline reply") }
    if !stackTagHints.isEmpty {
      parts.append("stack tags: " + stackTagHints.map(\.rawValue).joined(separator: ", "))
    }
    if persistence { parts.append("persistence (waiting notifications are resident)") }
    return parts.joined(separator: ", ")
  }
}
