import JSON
import Model

/// A window as KWin's script describes it: KWin's `internalId` and the names of its app.
struct KWinWindow: Hashable, Sendable {
  /// KWin's `internalId` (a UUID in braces), which the one-shot scripts find the window by again.
  var id: String
  var app: AppIdentity
  var minimized: Bool

  /// The window from the names the script sends; empty strings are names KWin does not know.
  init(id: String, resourceClass: String, resourceName: String, desktopFileName: String, pid: Int64, minimized: Bool) {
    self.id = id
    app = AppIdentity(
      reportedInstance: resourceName, windowClass: resourceClass, appID: desktopFileName, pid: pid)
    self.minimized = minimized
  }

  /// The ``WindowID`` the backend reports for KWin's `internalId`: its 64-bit FNV-1a hash.
  ///
  /// KWin names a window by a UUID on X11 and Wayland alike; the meter needs
  /// only a stable number per window, and commands find the window by the UUID.
  static func windowID(of internalID: String) -> WindowID {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in internalID.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    return WindowID(hash)
  }

  /// The windows of a `Windows` call's JSON list; an entry that is not an object with a string `id` is skipped.
  ///
  /// - Throws: ``DesktopError`` when the text is not a JSON array.
  static func list(fromJSON text: String) throws(DesktopError) -> [KWinWindow] {
    let value: JSONValue
    do { value = try JSONValue(parsing: text) } catch {
      throw DesktopError("the KWin script sent a window list that is not JSON: \(error)")
    }
    guard let entries = value.arrayValue else {
      throw DesktopError("the KWin script sent a window list that is not a JSON array")
    }
    return entries.compactMap { entry in
      guard let id = entry["id"]?.stringValue, !id.isEmpty else { return nil }
      return KWinWindow(
        id: id, resourceClass: entry["resourceClass"]?.stringValue ?? "",
        resourceName: entry["resourceName"]?.stringValue ?? "",
        desktopFileName: entry["desktopFileName"]?.stringValue ?? "",
        pid: entry["pid"]?.integerValue ?? 0, minimized: entry["minimized"]?.boolValue ?? false)
    }
  }
}
