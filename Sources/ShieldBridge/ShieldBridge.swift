/// The ShieldBridge module; see README.md, "Architecture".
public enum ShieldBridgeModule {}
