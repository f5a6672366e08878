import Model

extension AppIdentity {
  /// The longest name taken from a compositor, in UTF-16 code units (JavaScript's `length`):
  /// GNOME Shell's extension sends none longer.
  static let longestReportedName = 1024

  /// The identity a compositor's script or extension reports: an empty name is one the
  /// compositor does not know, and a pid outside 1...Int32.max is none.
  ///
  /// KWin's script and GNOME Shell's extension send `""` and `0` for what a window lacks
  /// (JavaScript has no `nil` on D-Bus); both backends read them the same way here. A name
  /// longer than ``longestReportedName`` is dropped, as the extension drops it: the client
  /// sets its own class, and no rule names an app that way, so it would only fill the log.
  init(reportedInstance instance: String?, windowClass: String?, appID: String?, pid: Int64?) {
    self.init(
      instance: instance.flatMap(Self.known), windowClass: windowClass.flatMap(Self.known),
      appID: appID.flatMap(Self.known), pid: pid.flatMap { $0 > 0 && $0 <= Int64(Int32.max) ? Int32($0) : nil })
  }

  private static func known(_ name: String) -> String? {
    name.isEmpty || name.utf16.count > longestReportedName ? nil : name
  }
}
