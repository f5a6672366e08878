import Foundation

/// `dbus-monitor` on a bus, watching the `Notify` calls that pass, as they are on the wire.
public final class BusMonitor: Sendable {
  private let process: BackgroundProcess

  /// One `Notify` call as the monitor saw it.
  public struct NotifyCall: Sendable, Equatable {
    /// The unique name of the caller.
    public var sender: String
    public var appName: String
    public var replacesID: UInt32
    public var summary: String
    public var body: String
  }

  /// Starts monitoring and returns once the monitor is in place.
  public init(address: String) async throws {
    process = try BackgroundProcess([
      "dbus-monitor", "--address", address,
      "type='method_call',interface='org.freedesktop.Notifications',member='Notify'",
    ])
    // A new monitor loses its unique name at once; from then on it sees the traffic.
    _ = try await process.waitForLine(containing: "member=NameLost")
  }

  /// The `Notify` calls seen so far, in order.
  public var notifyCalls: [NotifyCall] {
    var calls: [NotifyCall] = []
    let lines = process.outputLines
    for (index, line) in lines.enumerated()
    where line.hasPrefix("method call") && line.contains("member=Notify") {
      let arguments = lines[(index + 1)...].prefix(5).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard arguments.count == 5,
        let sender = line.split(separator: " ").first(where: { $0.hasPrefix("sender=") })
      else { continue }
      func string(_ text: String) -> String {
        guard text.hasPrefix("string \""), text.hasSuffix("\"") else { return text }
        return String(text.dropFirst(8).dropLast())
      }
      calls.append(
        NotifyCall(
          sender: String(sender.dropFirst(7)), appName: string(arguments[0]),
          replacesID: UInt32(arguments[1].replacingOccurrences(of: "uint32 ", with: "")) ?? 0,
          summary: string(arguments[3]), body: string(arguments[4])))
    }
    return calls
  }

  /// Waits until `count` `Notify` calls were seen, and returns them.
  public func waitForNotifyCalls(_ count: Int, timeout: Duration = HangBound.wait) async throws
    -> [NotifyCall]
  {
    try await poll("\(count) Notify call(s) on the bus", timeout: timeout) {
      let calls = self.notifyCalls
      return calls.count >= count ? calls : nil
    }
  }
}
