import Posix

/// A D-Bus match rule: which messages the bus should route to this connection.
///
/// The same rule also filters locally, since one connection receives the
/// union of all its rules, and a signal sent unicast to this connection
/// reaches it whatever its rules say. A message carries its sender's unique
/// name, stamped by the bus, so a sender given as a unique name, or as the
/// bus's own name (the daemon's messages carry `org.freedesktop.DBus`
/// exactly), is checked here. Any other well-known name changes hands, so
/// only its current owner can tell: subscribing with such a sender takes the
/// ``NameOwnerTracker`` of that name.
public struct MatchRule: Hashable, Sendable, CustomStringConvertible {
  /// The message kind; signals by default.
  public var kind: Message.Kind? = .signal
  public var sender: BusName?
  public var interface: InterfaceName?
  public var member: MemberName?
  public var path: ObjectPath?
  public var pathNamespace: ObjectPath?
  public var destination: BusName?
  /// String arguments that must be equal: `arguments[0] = "org.freedesktop.Notifications"` is `arg0=…`.
  public var arguments: [Int: String] = [:]

  public init(
    kind: Message.Kind? = .signal, sender: BusName? = nil, interface: InterfaceName? = nil,
    member: MemberName? = nil, path: ObjectPath? = nil, pathNamespace: ObjectPath? = nil,
    destination: BusName? = nil, arguments: [Int: String] = [:]
  ) {
    self.kind = kind
    self.sender = sender
    self.interface = interface
    self.member = member
    self.path = path
    self.pathNamespace = pathNamespace
    self.destination = destination
    self.arguments = arguments
  }

  /// The rule in the bus's syntax, values quoted: `type='signal',interface='…'`.
  public var description: String {
    var parts: [String] = []
    if let kind {
      let name =
        switch kind {
        case .methodCall: "method_call"
        case .methodReturn: "method_return"
        case .error: "error"
        case .signal, .invalid: "signal"
        }
      parts.append("type='\(name)'")
    }
    if let sender { parts.append("sender=\(quoted(sender.rawValue))") }
    if let interface { parts.append("interface=\(quoted(interface.rawValue))") }
    if let member { parts.append("member=\(quoted(member.rawValue))") }
    if let path { parts.append("path=\(quoted(path.rawValue))") }
    if let pathNamespace { parts.append("path_namespace=\(quoted(pathNamespace.rawValue))") }
    if let destination { parts.append("destination=\(quoted(destination.rawValue))") }
    for (index, value) in arguments.sorted(by: { $0.key < $1.key }) {
      parts.append("arg\(index)=\(quoted(value))")
    }
    return parts.joined(separator: ",")
  }

  /// Checks the rule before it is sent to the bus.
  ///
  /// - Throws: `MatchRuleInvalid` for an argument index above 63, a string
  ///   argument with a NUL byte, or a rule longer than the bus accepts (1024 bytes).
  func validate() throws(DBusError) {
    for (index, value) in arguments {
      guard (0...63).contains(index) else {
        throw DBusError(.matchRuleInvalid, "argument index \(index) is not in 0…63")
      }
      guard !value.utf8.contains(0) else {
        throw DBusError(.matchRuleInvalid, "arg\(index) contains a NUL byte")
      }
    }
    guard description.utf8.count <= 1024 else {
      throw DBusError(.matchRuleInvalid, "the match rule is longer than 1024 bytes")
    }
  }

  /// Whether `message` satisfies the rule, as far as this side can tell.
  public func matches(_ message: Message) -> Bool {
    if let kind, message.kind != kind { return false }
    // Any connection can send a signal that claims to come from the bus or
    // from a service (GLib's CVE-2024-34397), but not its sender: the bus stamps it.
    if let sender, sender.isUnique || sender == .bus, message.sender != sender { return false }
    if let interface, message.interface != interface { return false }
    if let member, message.member != member { return false }
    if let path, message.path != path { return false }
    if let pathNamespace {
      guard let messagePath = message.path,
        messagePath == pathNamespace || pathNamespace.isAncestor(of: messagePath)
      else { return false }
    }
    if let destination, message.destination != destination { return false }
    if !arguments.isEmpty {
      guard let highest = arguments.keys.max() else { return true }
      var reader = message.reader()
      for index in 0...highest {
        let value: String?
        if reader.nextCode == TypeCode.string {
          value = try? reader.read(String.self)
        } else {
          value = nil
          guard (try? reader.readValue()) != nil else { return false }
        }
        if let expected = arguments[index], value != expected { return false }
      }
    }
    return true
  }
}

/// Quotes a match rule value: inside single quotes nothing is special, and a
/// single quote itself is written as `'\''`.
private func quoted(_ value: String) -> String {
  "'" + value.replacingAll("'", with: "'\\''") + "'"
}
