extension AppIdentity {
  /// The identity a compositor's script or extension reports: an empty name is one the
  /// compositor does not know, and a pid outside 1...Int32.max is none.
  ///
  /// KWin's script and GNOME Shell's extension send `""` and `0` for what a window lacks
  /// (JavaScript has no `nil` on D-Bus); both backends read them the same way here.
  init(reportedInstance instance: String?, windowClass: String?, appID: String?, pid: Int64?) {
    self.init(
      instance: instance.flatMap(Self.known), windowClass: windowClass.flatMap(Self.known),
      appID: appID.flatMap(Self.known), pid: pid.flatMap { $0 > 0 && $0 <= Int64(Int32.max) ? Int32($0) : nil })
  }

  private static func known(_ name: String) -> String? { name.isEmpty ? nil : name }
}
