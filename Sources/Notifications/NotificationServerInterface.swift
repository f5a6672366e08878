public import DBus

/// `org.shieldbridge.NotificationServer1`, declared once: the embedded
/// server's control interface beside the standard one, which
/// ``NotificationServerControl`` calls, so that `shieldbridge
/// notification-server click|close|reply|list` can drive a server running in
/// another process.
///
/// The force unwraps cannot fail for these literals and no input reaches them.
public enum NotificationServerInterface {
  public static let name = InterfaceName(rawValue: "org.shieldbridge.NotificationServer1")!

  /// `Click(u id, s action_key) → s token`: invokes an action; answers the activation token sent with it.
  public static let click = MethodContract<(UInt32, String) -> String>(
    name, "Click", inputs: ["id", "action_key"], outputs: ["token"])!
  /// `Close(u id, u reason)`: closes a notification with a reason from 1 to 4.
  public static let close = MethodContract<(UInt32, UInt32) -> Void>(name, "Close", inputs: ["id", "reason"])!
  /// `Reply(u id, s text)`: answers through the inline reply field.
  public static let reply = MethodContract<(UInt32, String) -> Void>(name, "Reply", inputs: ["id", "text"])!
  /// `ListPage(t after) → s page`: the kept notifications stored after the cursor, a page at a time, as JSON.
  public static let listPage = MethodContract<(UInt64) -> String>(
    name, "ListPage", inputs: ["after"], outputs: ["page"])!

  public static let contract = InterfaceContract(
    name, methods: [click.declaration, close.declaration, reply.declaration, listPage.declaration])
}
