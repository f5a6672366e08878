public import DBus

/// `org.freedesktop.Notifications` (specification 1.3, with KDE's
/// `NotificationReplied`), declared once: the client calls it and the embedded
/// server serves it from this declaration.
///
/// The force unwraps cannot fail for these literals and no input reaches them.
public enum NotificationsInterface {
  public static let name = InterfaceName(rawValue: "org.freedesktop.Notifications")!

  /// `Notify(…) → u id`: posts or replaces a notification; `actions` alternate keys and labels.
  public static let notify = MethodContract<
    (String, UInt32, String, String, String, [String], DictionaryEntries<String, Variant>, Int32) -> UInt32
  >(
    name, "Notify",
    inputs: ["app_name", "replaces_id", "app_icon", "summary", "body", "actions", "hints", "expire_timeout"],
    outputs: ["id"])!
  /// `CloseNotification(u id)`.
  public static let closeNotification = MethodContract<(UInt32) -> Void>(name, "CloseNotification", inputs: ["id"])!
  /// `GetCapabilities() → as capabilities`.
  public static let getCapabilities = MethodContract<() -> [String]>(
    name, "GetCapabilities", outputs: ["capabilities"])!
  /// `GetServerInformation() → (s name, s vendor, s version, s spec_version)`.
  public static let getServerInformation = MethodContract<() -> (String, String, String, String)>(
    name, "GetServerInformation", outputs: ["name", "vendor", "version", "spec_version"])!

  /// `NotificationClosed(u id, u reason)`.
  public static let notificationClosed = SignalContract<UInt32, UInt32>(
    name, "NotificationClosed", arguments: ["id", "reason"])!
  /// `ActionInvoked(u id, s action_key)`.
  public static let actionInvoked = SignalContract<UInt32, String>(
    name, "ActionInvoked", arguments: ["id", "action_key"])!
  /// `ActivationToken(u id, s activation_token)`: sent just before `ActionInvoked`.
  public static let activationToken = SignalContract<UInt32, String>(
    name, "ActivationToken", arguments: ["id", "activation_token"])!
  /// KDE's `NotificationReplied(u id, s text)`: the text typed into the inline reply field.
  public static let notificationReplied = SignalContract<UInt32, String>(
    name, "NotificationReplied", arguments: ["id", "text"])!

  public static let contract = InterfaceContract(
    name,
    methods: [
      notify.declaration, closeNotification.declaration, getCapabilities.declaration,
      getServerInformation.declaration,
    ],
    signals: [
      notificationClosed.declaration, actionInvoked.declaration, activationToken.declaration,
      notificationReplied.declaration,
    ])
}
