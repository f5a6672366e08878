/// `org.freedesktop.DBus`, the bus daemon's own interface at `/org/freedesktop/DBus`
/// (``BusName/bus``, ``ObjectPath/bus``), declared once as zbus's `fdo::DBusProxy`
/// declares it: the methods this package and its tests call, and the signal they match.
///
/// The typed calls of ``Connection`` (``Connection/requestName(_:flags:)``,
/// ``Connection/nameOwner(_:timeout:)``, ``Connection/processID(of:timeout:)``,
/// the match rules of signal handlers, the `Hello` of a new connection) are made
/// from these contracts, so no member name or signature of the bus is written
/// anywhere else. The daemon's introspection names no arguments; the names here
/// are the D-Bus specification's. Its errors are ``DBusError/Name``s
/// (``DBusError/isSpawnFailure`` for the family of a service it could not start).
///
/// The force unwraps cannot fail for these literals and no input reaches them.
public enum BusInterface {
  public static let name = InterfaceName.bus

  /// `Hello() → s uniqueName`: the first call of a connection; the bus answers the name it gave it.
  public static let hello = MethodContract<() -> String>(name, "Hello", outputs: ["unique_name"])!
  /// `RequestName(s name, u flags) → u reply`: flags ``Connection/NameFlags``, reply ``Connection/RequestNameReply``.
  public static let requestName = MethodContract<(String, UInt32) -> UInt32>(
    name, "RequestName", inputs: ["name", "flags"], outputs: ["reply"])!
  /// `ReleaseName(s name) → u reply`: reply ``Connection/ReleaseNameReply``.
  public static let releaseName = MethodContract<(String) -> UInt32>(
    name, "ReleaseName", inputs: ["name"], outputs: ["reply"])!
  /// `GetNameOwner(s name) → s owner`: the unique name of the owner; `NameHasNoOwner` when there is none.
  public static let getNameOwner = MethodContract<(String) -> String>(
    name, "GetNameOwner", inputs: ["name"], outputs: ["unique_name"])!
  /// `GetConnectionUnixProcessID(s name) → u pid`: the process id the bus read from the connection's socket.
  public static let getConnectionUnixProcessID = MethodContract<(String) -> UInt32>(
    name, "GetConnectionUnixProcessID", inputs: ["bus_name"], outputs: ["unix_process_id"])!
  /// `AddMatch(s rule)`: routes the messages ``MatchRule`` describes to the caller.
  public static let addMatch = MethodContract<(String) -> Void>(name, "AddMatch", inputs: ["rule"])!
  /// `RemoveMatch(s rule)`: undoes one `AddMatch` of the same text.
  public static let removeMatch = MethodContract<(String) -> Void>(name, "RemoveMatch", inputs: ["rule"])!
  /// `GetId() → s id`: the bus's own id, new each time a bus starts.
  public static let getId = MethodContract<() -> String>(name, "GetId", outputs: ["id"])!
  /// `ListNames() → as names`: every name owned on the bus, unique names included.
  public static let listNames = MethodContract<() -> [String]>(name, "ListNames", outputs: ["names"])!
  /// `ListActivatableNames() → as names`: the names the bus can start a service for.
  public static let listActivatableNames = MethodContract<() -> [String]>(
    name, "ListActivatableNames", outputs: ["activatable_names"])!
  /// `UpdateActivationEnvironment(a{ss} environment)`: adds to the environment of the services the bus starts.
  public static let updateActivationEnvironment = MethodContract<([String: String]) -> Void>(
    name, "UpdateActivationEnvironment", inputs: ["environment"])!

  /// `NameOwnerChanged(s name, s old_owner, s new_owner)`: an owner is empty for none.
  public static let nameOwnerChanged = SignalContract<String, String, String>(
    name, "NameOwnerChanged", arguments: ["name", "old_owner", "new_owner"])!

  public static let contract = InterfaceContract(
    name,
    methods: [
      hello.declaration, requestName.declaration, releaseName.declaration, getNameOwner.declaration,
      getConnectionUnixProcessID.declaration, addMatch.declaration, removeMatch.declaration, getId.declaration,
      listNames.declaration, listActivatableNames.declaration, updateActivationEnvironment.declaration,
    ],
    signals: [nameOwnerChanged.declaration])
}
