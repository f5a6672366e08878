import JSON
import ShieldCore

extension Glance {
  /// What `Glance()` answers and `GlanceChanged` carries (docs/reference/service.md):
  /// `{"rule":"social","app":"Instagram","state":"left","minutesLeft":3}`, `"state":"usedUp"`,
  /// or `"state":"downtime"` with `"until":"07:00"`.
  var json: JSONValue {
    var members: [(String, JSONValue)] = [("rule", .string(rule)), ("app", .string(app))]
    switch state {
    case .left(let minutes):
      members += [("state", .string("left")), ("minutesLeft", .integer(Int64(minutes)))]
    case .usedUp:
      members.append(("state", .string("usedUp")))
    case .downtime(let until):
      members += [("state", .string("downtime")), ("until", .string(until))]
    }
    return .object(members)
  }

  /// The JSON of `glance`; `{}` while nothing covered is in front.
  static func json(_ glance: Glance?) -> String {
    (glance?.json ?? .object([])).serialized
  }
}
