/// The app id in a process's systemd unit, as desktops name the units they
/// start apps in (systemd's "Desktop Environment Integration" convention).
///
/// Two shapes carry an id, the last path component of a cgroup that has one
/// wins (a scope inside a service names the app that runs, not its parent):
///
/// - `app-[<launcher>-]<id>-<random>.scope`: the `-<random>` part after the
///   last dash is dropped;
/// - `app-[<launcher>-]<id>[@<random>].service`: everything from `@` is dropped.
///
/// What is left is split at its dashes (an id's own dashes are escaped as
/// `\x2d`, so a plain dash separates). The first part is a launcher and is
/// dropped when more parts follow and either the rest holds a dot (a
/// reverse-DNS id such as `org.telegram.desktop`) or it is one of the
/// launchers known to write non-dotted ids (`gnome`, `kde`, `flatpak`,
/// `snap`, `xfce`). Otherwise the parts are joined again with dashes, so a
/// launcher that did not escape an id (`app-gnome-terminal-1234.scope` from a
/// launcher that is not GNOME's) keeps the whole name. Last, systemd's `\xNN`
/// escapes are undone (`org.gnome.Terminal\x2dPreview` → `org.gnome.Terminal-Preview`).
public enum SystemdScope {
  /// Launchers that prefix the ids they start even when an id has no dot.
  static let knownLaunchers: Set<String> = ["gnome", "kde", "flatpak", "snap", "xfce"]

  /// The app id in the text of `/proc/PID/cgroup` (one `N:controllers:/path` line per hierarchy), or `nil`.
  public static func appID(inCgroupFile text: String) -> String? {
    // The unified hierarchy's line (`0::`) first, then the others (cgroup v1's `name=systemd`).
    var lines = text.split(separator: "\n", omittingEmptySubsequences: true)
    lines.sort { $0.hasPrefix("0::") && !$1.hasPrefix("0::") }
    for line in lines {
      let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
      guard fields.count == 3 else { continue }
      for component in fields[2].split(separator: "/").reversed() {
        if let id = appID(unit: String(component)) { return id }
      }
    }
    return nil
  }

  /// The app id in one unit name such as `app-gnome-org.telegram.desktop-4242.scope`, or `nil`.
  public static func appID(unit: String) -> String? {
    guard unit.hasPrefix("app-") else { return nil }
    let body: Substring
    if unit.hasSuffix(".scope") {
      let inner = unit.dropFirst(4).dropLast(6)
      guard let lastDash = inner.lastIndex(of: "-") else { return nil }
      body = inner[..<lastDash]
    } else if unit.hasSuffix(".service") {
      let inner = unit.dropFirst(4).dropLast(8)
      body = inner.firstIndex(of: "@").map { inner[..<$0] } ?? inner
    } else {
      return nil
    }
    var parts = body.split(separator: "-", omittingEmptySubsequences: false)
    if parts.count >= 2 {
      let rest = parts.dropFirst().joined(separator: "-")
      if rest.contains(".") || knownLaunchers.contains(String(parts[0])) { parts.removeFirst() }
    }
    let id = unescape(parts.joined(separator: "-"))
    return id.isEmpty ? nil : id
  }

  /// Undoes systemd's unit-name escapes: `\xNN` (two hex digits) becomes that byte.
  ///
  /// An escape that is not one (`\x4`, `\xzz`) stays as written.
  public static func unescape(_ text: String) -> String {
    let bytes = Array(text.utf8)
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "\\"), index + 3 < bytes.count, bytes[index + 1] == UInt8(ascii: "x"),
        let high = hexValue(bytes[index + 2]), let low = hexValue(bytes[index + 3])
      {
        result.append(high << 4 | low)
        index += 4
      } else {
        result.append(bytes[index])
        index += 1
      }
    }
    return String(decoding: result, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
