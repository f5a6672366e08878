/// `config.json`'s `"desktop"`: how the meter watches the desktop.
///
/// `auto` picks the first backend that works in this session; the others force
/// one, and `off` runs the service without a meter.
public enum DesktopSetting: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
  case auto
  case x11
  case i3
  case sway
  case processes
  case off

  public var description: String { rawValue }
}
