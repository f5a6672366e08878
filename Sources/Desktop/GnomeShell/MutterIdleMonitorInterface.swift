public import DBus

/// `org.gnome.Mutter.IdleMonitor` at `/org/gnome/Mutter/IdleMonitor/Core`, declared
/// once: Mutter's input idle monitor as the GNOME Shell backend calls it.
///
/// A watch belongs to the connection that owns the name when it is added, so
/// a new owner (the shell restarted) gets its watches again. Mutter answers
/// with the bus's error names only (``DBusError/Name``).
///
/// The force unwraps cannot fail for these literals and no input reaches them.
public enum MutterIdleMonitorInterface {
  /// `org.gnome.Mutter.IdleMonitor`, owned by GNOME Shell's connection.
  public static let busName = BusName(rawValue: "org.gnome.Mutter.IdleMonitor")!
  /// `/org/gnome/Mutter/IdleMonitor/Core`: the monitor of all input devices.
  public static let path = ObjectPath(rawValue: "/org/gnome/Mutter/IdleMonitor/Core")!
  public static let name = InterfaceName(rawValue: "org.gnome.Mutter.IdleMonitor")!

  /// `GetIdletime() → t idletime`: milliseconds since the last input.
  public static let getIdletime = MethodContract<() -> UInt64>(name, "GetIdletime", outputs: ["idletime"])!
  /// `AddIdleWatch(t interval) → u id`: fires `WatchFired(id)` each time input has been idle `interval` ms.
  public static let addIdleWatch = MethodContract<(UInt64) -> UInt32>(
    name, "AddIdleWatch", inputs: ["interval"], outputs: ["id"])!
  /// `AddUserActiveWatch() → u id`: fires `WatchFired(id)` once, at the next input.
  public static let addUserActiveWatch = MethodContract<() -> UInt32>(name, "AddUserActiveWatch", outputs: ["id"])!

  /// `WatchFired(u id)`.
  public static let watchFired = SignalContract<UInt32>(name, "WatchFired", arguments: ["id"])!

  public static let contract = InterfaceContract(
    name, methods: [getIdletime.declaration, addIdleWatch.declaration, addUserActiveWatch.declaration],
    signals: [watchFired.declaration])
}
