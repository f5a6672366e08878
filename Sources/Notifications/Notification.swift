public import DBus

/// A desktop notification as ShieldBridge posts it (freedesktop Desktop Notifications Specification 1.3).
///
/// Text is plain unless ``bodyIsMarkup`` says otherwise: the ``Presentation``
/// decided from the server's capabilities escapes it for servers that read
/// markup and leaves it alone for those that do not.
public struct Notification: Sendable, Hashable {
  /// The name of the application, shown by some servers; may be empty.
  public var appName: String
  /// An icon name from the theme or a `file://` URI; may be empty.
  public var icon: String
  /// The one-line overview; always plain text.
  public var summary: String
  /// The body text: plain text, or markup when ``bodyIsMarkup`` is set.
  public var body: String
  /// Whether ``body`` is already markup, to be sent unescaped on purpose
  /// (`notify --markup`); on a server without `body-markup` its tags are stripped.
  public var bodyIsMarkup: Bool
  /// The actions, in the order they are offered; the key `default` is the click on the notification itself.
  public var actions: [Action]
  public var hints: Hints
  public var expiry: Expiry
  /// A fixed identifier: posting again with the same one replaces the earlier notification.
  public var identifier: String?
  /// An explicit server id to replace; 0 lets the identifier decide.
  public var replacesID: UInt32
  /// Text added to the body when the server can route no click (close-only presentation),
  /// telling the user how to go on; plain text.
  public var closeOnlyText: String?
  /// Whether the notification waits until the user acts on it or dismisses it.
  ///
  /// The ``Presentation`` turns it into what the server understands: an
  /// `expire_timeout` of 0 everywhere, and the `resident` hint where the server
  /// advertises `persistence`, so that it stays after a click too (the shield
  /// is the answer to something the user just tried to open; a click whose
  /// puzzle is closed unsolved finds it still there).
  public var waitsForUser: Bool

  public init(
    summary: String, body: String = "", appName: String = "", icon: String = "",
    actions: [Action] = [],
    hints: Hints = Hints(), expiry: Expiry = .serverDefault, identifier: String? = nil
  ) {
    self.appName = appName
    self.icon = icon
    self.summary = summary
    self.body = body
    self.bodyIsMarkup = false
    self.actions = actions
    self.hints = hints
    self.expiry = expiry
    self.identifier = identifier
    self.replacesID = 0
    self.closeOnlyText = nil
    self.waitsForUser = false
  }

  /// Whether `identifier` is a valid fixed identifier: 1 to 64 of `A-Z a-z 0-9 . _ -`.
  public static func isValidIdentifier(_ identifier: String) -> Bool {
    (1...64).contains(identifier.utf8.count)
      && identifier.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
          UInt8(ascii: "-"):
          true
        default: false
        }
      }
  }

  /// One action: the key reported back when it is invoked, and the label shown.
  public struct Action: Sendable, Hashable {
    /// The key; `default` is the click on the notification, `inline-reply` asks for KDE's reply field.
    public var key: String
    public var label: String
    /// Where the action leads, when it has a link: shown in the body on servers
    /// that offer hyperlinks but no actions.
    public var link: String?

    public init(key: String, label: String, link: String? = nil) {
      self.key = key
      self.label = label
      self.link = link
    }

    /// The key of the action invoked by clicking the notification itself.
    public static let defaultKey = "default"
    /// The key KDE reads as a request for an inline reply field.
    public static let inlineReplyKey = "inline-reply"
  }

  /// How urgent the notification is (the `urgency` hint, a byte).
  public enum Urgency: UInt8, Sendable, Hashable, CaseIterable {
    case low = 0
    case normal = 1
    case critical = 2

    /// The name used on the command line: `low`, `normal`, `critical`.
    public var name: String {
      switch self {
      case .low: "low"
      case .normal: "normal"
      case .critical: "critical"
      }
    }

    public init?(name: String) {
      guard let match = Urgency.allCases.first(where: { $0.name == name }) else { return nil }
      self = match
    }
  }

  /// When the notification goes away by itself (`expire_timeout`).
  public enum Expiry: Sendable, Hashable {
    /// The server decides (-1).
    case serverDefault
    /// It stays until the user or the program closes it (0).
    case never
    /// After this many milliseconds (1…Int32.max).
    case milliseconds(Int32)

    /// The `expire_timeout` argument of `Notify`.
    public var wireValue: Int32 {
      switch self {
      case .serverDefault: -1
      case .never: 0
      case .milliseconds(let value): max(1, value)
      }
    }

    /// The expiry a `Notify` call asked for; any negative value is the server's default.
    public init(wireValue: Int32) {
      switch wireValue {
      case ..<0: self = .serverDefault
      case 0: self = .never
      default: self = .milliseconds(wireValue)
      }
    }
  }

  /// The standard hints of the specification, typed, and any others as D-Bus values.
  public struct Hints: Sendable, Hashable {
    public var urgency: Urgency?
    /// A category such as `im.received` or `device.added`.
    public var category: String?
    /// The name of the application's desktop file, without `.desktop`.
    public var desktopEntry: String?
    /// Bypass the server's persistence: show it, keep no history.
    public var transient: Bool?
    /// Keep the notification after an action was invoked.
    public var resident: Bool?
    /// An image as a `file://` URI or an icon name.
    public var imagePath: String?
    /// A themed sound name such as `message-new-instant`.
    public var soundName: String?
    public var suppressSound: Bool?
    /// The screen position to point at, when both are set.
    public var x: Int32?
    public var y: Int32?
    /// KDE's placeholder for the inline reply field (`x-kde-reply-placeholder-text`).
    public var replyPlaceholder: String?
    /// Any other hint by name; a name given here wins over the typed fields above.
    public var custom: [HintName: DBusValue]

    public init(
      urgency: Urgency? = nil, category: String? = nil, desktopEntry: String? = nil,
      transient: Bool? = nil,
      resident: Bool? = nil, imagePath: String? = nil, soundName: String? = nil,
      suppressSound: Bool? = nil,
      x: Int32? = nil, y: Int32? = nil, replyPlaceholder: String? = nil,
      custom: [HintName: DBusValue] = [:]
    ) {
      self.urgency = urgency
      self.category = category
      self.desktopEntry = desktopEntry
      self.transient = transient
      self.resident = resident
      self.imagePath = imagePath
      self.soundName = soundName
      self.suppressSound = suppressSound
      self.x = x
      self.y = y
      self.replyPlaceholder = replyPlaceholder
      self.custom = custom
    }

    /// The hints as sent: the typed ones in the specification's order, then
    /// the custom ones sorted by name, each name once.
    public var entries: [(name: HintName, value: DBusValue)] {
      var result: [(name: HintName, value: DBusValue)] = []
      func add(_ name: HintName, _ value: DBusValue?) {
        guard let value, custom[name] == nil else { return }
        result.append((name, value))
      }
      add(.urgency, urgency.map { .byte($0.rawValue) })
      add(.category, category.map(DBusValue.string))
      add(.desktopEntry, desktopEntry.map(DBusValue.string))
      add(.transient, transient.map(DBusValue.boolean))
      add(.resident, resident.map(DBusValue.boolean))
      add(.imagePath, imagePath.map(DBusValue.string))
      add(.soundName, soundName.map(DBusValue.string))
      add(.suppressSound, suppressSound.map(DBusValue.boolean))
      if let x, let y {
        add(.x, .int32(x))
        add(.y, .int32(y))
      }
      add(.replyPlaceholder, replyPlaceholder.map(DBusValue.string))
      for name in custom.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
        if let value = custom[name] { result.append((name, value)) }
      }
      return result
    }
  }
}
