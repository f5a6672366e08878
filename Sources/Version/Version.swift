/// ShieldBridge's version: `--version`, the notification server's information and the D-Bus introspection.
///
/// A copy of `VERSION`, the one source, written by `scripts/version`; VersionTests fails when they differ.
public let shieldBridgeVersion = "0.14.0"
