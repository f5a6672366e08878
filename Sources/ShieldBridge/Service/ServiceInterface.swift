public import DBus
import Version

/// `org.shieldbridge.ShieldBridge1`, declared once: the service exports it,
/// the commands, the native host and the tests call it from this declaration.
///
/// `Open`, `Status`, `Usage`, `SiteFocus` and `Glance` answer JSON in a string, which
/// scripts read: their fields are a contract of their own, in docs/reference/service.md.
/// The force unwraps cannot fail for these literals and no input reaches them.
public enum ServiceInterface {
  public static let name = InterfaceName(rawValue: "org.shieldbridge.ShieldBridge1")!

  /// `Shield(s app) → u id`: posts the shield for `app`, answers the notification's id.
  public static let shield = MethodContract<(String) -> UInt32>(name, "Shield", inputs: ["app"], outputs: ["id"])!
  /// `Open(s link) → s record`: routes a link, answers the dispatch record (JSON).
  public static let open = MethodContract<(String) -> String>(name, "Open", inputs: ["link"], outputs: ["record"])!
  /// `Status() → s status`: today's rules and grants (JSON, as `status --json` prints them).
  public static let status = MethodContract<() -> String>(name, "Status", outputs: ["status"])!
  /// `Usage() → s usage`: the meter's day (JSON, see ``ShieldService/usage()``).
  public static let usage = MethodContract<() -> String>(name, "Usage", outputs: ["usage"])!
  /// `SiteFocus(s site, u browserPid, b windowFocused) → s state`: the site of a browser's
  /// active tab and whether the browser says its window is focused, answered with the site's
  /// state (JSON, see ``ShieldService/siteFocus(_:browserPID:windowFocused:caller:)``).
  public static let siteFocus = MethodContract<(String, UInt32, Bool) -> String>(
    name, "SiteFocus", inputs: ["site", "browserPid", "windowFocused"], outputs: ["state"])!

  /// `Glance() → s glance`: the rule of the app or site in front and its time
  /// left today (JSON, see docs/reference/service.md); `{}` while nothing covered is in front.
  public static let glance = MethodContract<() -> String>(name, "Glance", outputs: ["glance"])!

  /// `Dispatched(s record)`: a link was routed (the record as `Open` answers it).
  public static let dispatched = SignalContract<String>(name, "Dispatched", arguments: ["record"])!
  /// `LimitReached(s rule, s app)`: a rule's apps reached today's limit.
  public static let limitReached = SignalContract<String, String>(name, "LimitReached", arguments: ["rule", "app"])!
  /// `Unlocked(s rule, u minutes)`: a grant (or a new day) lifted a rule's limit.
  public static let unlocked = SignalContract<String, UInt32>(name, "Unlocked", arguments: ["rule", "minutes"])!
  /// `GlanceChanged(s glance)`: what `Glance()` answers changed (another rule or app in front,
  /// one minute less, the limit, a downtime): once per minute shown at most while time counts.
  public static let glanceChanged = SignalContract<String>(name, "GlanceChanged", arguments: ["glance"])!

  public static let contract = InterfaceContract(
    name,
    methods: [
      shield.declaration, open.declaration, status.declaration, usage.declaration, siteFocus.declaration,
      glance.declaration,
    ],
    signals: [dispatched.declaration, limitReached.declaration, unlocked.declaration, glanceChanged.declaration],
    annotations: [Annotation(versionAnnotation, shieldBridgeVersion)])

  /// The annotation of the interface's introspection that names the service's version.
  public static let versionAnnotation = "org.shieldbridge.Version"
}
