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
    var actionStrings: [String] = []
    actionStrings.reserveCapacity(actions.count * 2)
    for action in actions {
      actionStrings.append(action.key)
      actionStrings.append(action.label)
    }
    // In the order the hints are declared: the wire keeps it.
    let hintEntries = DictionaryEntries(hints.entries.map { (key: $0.name.rawValue, value: Variant($0.value)) })
    return try NotificationsInterface.notify.message(
      destination: destination, path: NotificationsNames.path, appName, replacesID, icon, summary, body,
      actionStrings, hintEntries, expiry.wireValue)
  }
}
