import DBus

extension Notification {
  /// The `Notify` call for this notification, as it stands (prepare it with a ``Presentation`` first).
  ///
  /// - Parameters:
  ///   - replacesID: The server id to replace, 0 for a new notification.
  ///   - destination: The server: its unique name, or the well-known name.
  /// - Throws: `InvalidArgs` when a text contains a NUL byte or a custom hint is malformed.
  func notifyCall(replacesID: UInt32, destination: BusName = NotificationsNames.busName)
    throws(DBusError) -> Message
  {
    let message = try Message.methodCall(
      destination: destination, path: NotificationsNames.path,
      interface: NotificationsNames.interface, member: NotificationsNames.notify)
    try message.append(values: notifyArguments(replacesID: replacesID))
    return message
  }

  /// The eight arguments of `Notify` (`susssasa{sv}i`).
  func notifyArguments(replacesID: UInt32) -> [DBusValue] {
    var actionStrings: [DBusValue] = []
    actionStrings.reserveCapacity(actions.count * 2)
    for action in actions {
      actionStrings.append(.string(action.key))
      actionStrings.append(.string(action.label))
    }
    let hintEntries = hints.entries.map {
      DBusValue.DictionaryEntry(.string($0.name.rawValue), .variant($0.value))
    }
    return [
      .string(appName), .uint32(replacesID), .string(icon), .string(summary), .string(body),
      .array(element: .string, actionStrings),
      .dictionary(key: .string, value: .variant, hintEntries),
      .int32(expiry.wireValue),
    ]
  }
}
