import JSON
import Localization
import Testing

@testable import ShieldBridgeCLI

/// Issue 36, point 3: the lines `status --follow` gives a panel, in each format.
@Suite("status --follow's lines: text, waybar's JSON and i3bar's protocol")
struct GlanceLineTests {
  static let left = JSONValue.object([
    ("rule", .string("social")), ("app", .string("Instagram")), ("state", .string("left")),
    ("minutesLeft", .integer(3)),
  ])
  static let downtime = JSONValue.object([
    ("rule", .string("social")), ("app", .string("Instagram")), ("state", .string("downtime")),
    ("until", .string("07:00")),
  ])

  /// The English source, whatever the machine's locale.
  static func english<T>(_ body: () throws -> T) rethrows -> T {
    try Output.$localizer.withValue(.source, operation: body)
  }

  @Test("Each state in words; nothing in front is an empty text")
  func text() {
    Self.english { textLines() }
  }

  func textLines() {
    #expect(glanceLine(Self.left, format: .text, first: true) == "Instagram: 3 min left today")
    #expect(glanceLine(Self.downtime, format: .text, first: true) == "Instagram: downtime until 07:00")
    let usedUp = JSONValue.object([
      ("rule", .string("social")), ("app", .string("Instagram")), ("state", .string("usedUp")),
    ])
    #expect(glanceLine(usedUp, format: .text, first: true) == "Instagram: no time left today")
    #expect(glanceLine(.object([]), format: .text, first: true) == "")
  }

  @Test("waybar: text, tooltip with the rule, and the state as class and alt")
  func waybar() throws {
    try Self.english { try waybarLines() }
  }

  func waybarLines() throws {
    let line = try JSONValue(parsing: glanceLine(Self.left, format: .waybar, first: true))
    #expect(line["text"]?.stringValue == "Instagram: 3 min left today")
    #expect(line["tooltip"]?.stringValue == "social: Instagram: 3 min left today")
    #expect(line["class"]?.stringValue == "left" && line["alt"]?.stringValue == "left")
    let none = try JSONValue(parsing: glanceLine(.object([]), format: .waybar, first: false))
    #expect(none["text"]?.stringValue == "" && none["class"]?.stringValue == "none")
  }

  @Test("i3bar: one array of blocks per line, the later ones after a comma; none while nothing is in front")
  func i3bar() throws {
    try Self.english { try i3barLines() }
  }

  func i3barLines() throws {
    let first = glanceLine(Self.left, format: .i3bar, first: true)
    let blocks = try #require(try JSONValue(parsing: first).arrayValue)
    #expect(blocks.count == 1 && blocks[0]["full_text"]?.stringValue == "Instagram: 3 min left today")
    #expect(blocks[0]["name"]?.stringValue == "shieldbridge")
    #expect(glanceLine(.object([]), format: .i3bar, first: false) == ",[]")
  }
}
