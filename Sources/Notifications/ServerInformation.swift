import Version

/// What `GetServerInformation` reports about the server.
public struct ServerInformation: Sendable, Hashable {
  /// The product name, such as `dunst`.
  public var name: String
  public var vendor: String
  /// The server's own version.
  public var version: String
  /// The version of the specification it follows, such as `1.2`.
  public var specVersion: String

  public init(name: String, vendor: String, version: String, specVersion: String) {
    self.name = name
    self.vendor = vendor
    self.version = version
    self.specVersion = specVersion
  }
}

extension ServerInformation {
  /// The embedded server's: ShieldBridge's name and version, specification 1.3.
  public static let shieldBridge = ServerInformation(
    name: "shieldbridge", vendor: "ShieldBridge", version: shieldBridgeVersion, specVersion: "1.3")
}
