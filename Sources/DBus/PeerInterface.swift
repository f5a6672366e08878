/// `org.freedesktop.DBus.Peer`, declared once: the dispatcher serves it on every path of a
/// connection, and the introspection document lists it from here.
///
/// The force unwraps cannot fail for these literals and no input reaches them.
public enum PeerInterface {
  public static let name = InterfaceName.peer

  /// `Ping()`.
  public static let ping = MethodContract<() -> Void>(name, "Ping")!
  /// `GetMachineId() → s machine_uuid`.
  public static let getMachineId = MethodContract<() -> String>(name, "GetMachineId", outputs: ["machine_uuid"])!

  public static let contract = InterfaceContract(name, methods: [ping.declaration, getMachineId.declaration])
}
