import TestSupport
import Testing

@testable import DeepLink

/// A library user's route with what the standard ones lack: a route name and
/// a key longer than eight bytes, a required integer, an optional token.
private enum WideAction: Hashable, Sendable {
  case shield(ShieldAction)
  case notifications(channel: String, quietMinutes: Int, tag: String?)
}

private let channel: Parameter<String> = .text("channel-name")
private let quiet: Parameter<Int> = .integer("quiet-minutes", in: 0...1440)
private let tag: Parameter<String?> = .token("tag", TokenRule("a-z0-9_", length: 2...12)!)

private func wideRouter() throws -> Router<WideAction> {
  var router = try Router<WideAction>(scheme: "x-shield.test+app")
  try router.register(
    Route.view().map(WideAction.shield) {
      if case .shield(let action) = $0 { action } else { nil }
    })
  try router.register(
    Route<WideAction>(
      "notifications-center", channel, quiet, tag,
      action: { .notifications(channel: $0, quietMinutes: $1, tag: $2) },
      values: {
        if case .notifications(let channel, let quiet, let tag) = $0 { (channel, quiet, tag) } else { nil }
      }))
  return router
}

/// Bytes that make a valid link invalid, or valid in another way, when put into it.
private let edits: [[UInt8]] =
  [
    "%", "&", "=", "?", ":", "/", "+", " ", "a", "Z", "0", "-", ".", "_", "~", "&&", "==", "%2", "%G1", "%20", "%2B",
    "%26", "%3D", "%C3%A9", "%c3%A9", "%E6%97%A5", "%F0%9F%98%80", "%C2%85", "%C2%A0", "%E0%80%80", "%ED%A0%80",
    "%F4%90%80%80", "%C3", "%A9", "%00", "%1F", "%7F", "&app=", "&id=x", "&grant=7", "&view=home", "&utm=1", "&tag=ab",
    "&quiet-minutes=5", "&channel-name=x", "APP", "Grant", "puzzle", "VIEW",
  ].map { Array($0.utf8) } + [[0x80], [0xC3], [0xFF], [0x00], [0x0A]]

@Suite("The fast path gives the strict parser's answers")
struct FastPathTests {
  let router = Router(configuration: .standard)

  /// A link for the standard routes: parameters in any order, some left out,
  /// some with empty values, scheme and route in any case.
  private func standardLink(using generator: inout SeededGenerator) -> [UInt8] {
    let isView = Bool.random(using: &generator)
    var parameters: [(String, String)] = [
      ("app", RandomText.string(using: &generator, maximumLength: 12, controls: false)),
      ("id", RandomText.token(from: "abcXYZ019._-", length: 1...20, using: &generator)),
      isView
        ? ("view", RandomText.token(from: "abz09-", length: 1...10, using: &generator))
        : ("grant", String(Int.random(in: 1...120, using: &generator))),
    ]
    parameters.shuffle(using: &generator)
    parameters.removeLast(Int.random(in: 0...1, using: &generator))
    return link(scheme: "shieldbridge", route: isView ? "view" : "puzzle", parameters, using: &generator)
  }

  /// A link for the wide router's routes.
  private func wideLink(using generator: inout SeededGenerator) -> [UInt8] {
    guard Bool.random(using: &generator) else {
      var parameters: [(String, String)] = [
        ("channel-name", RandomText.string(using: &generator, maximumLength: 24, controls: false)),
        ("quiet-minutes", String(Int.random(in: 0...1440, using: &generator))),
        ("tag", RandomText.token(from: "az09_", length: 2...12, using: &generator)),
      ]
      parameters.shuffle(using: &generator)
      return link(scheme: "x-shield.test+app", route: "notifications-center", parameters, using: &generator)
    }
    let parameters = [("app", RandomText.string(using: &generator, maximumLength: 30, controls: false))]
    return link(scheme: "x-shield.test+app", route: "view", parameters, using: &generator)
  }

  private func link(
    scheme: String, route: String, _ parameters: [(String, String)], using generator: inout SeededGenerator
  ) -> [UInt8] {
    var text = ""
    for character in scheme + "://" + route {
      text += Bool.random(using: &generator) ? character.uppercased() : String(character)
    }
    for (index, (key, value)) in parameters.enumerated() {
      text += (index == 0 ? "?" : "&") + key + "=" + PercentEncoding.encode(value)
    }
    return Array(text.utf8)
  }

  /// `bytes` with one to three edits: an insertion, a replacement or a deletion.
  private func mutated(_ bytes: [UInt8], using generator: inout SeededGenerator) -> [UInt8] {
    var bytes = bytes
    for _ in 0..<Int.random(in: 1...3, using: &generator) {
      let position = Int.random(in: 0...bytes.count, using: &generator)
      let edit = edits[Int.random(in: 0..<edits.count, using: &generator)]
      switch Int.random(in: 0..<3, using: &generator) {
      case 0: bytes.insert(contentsOf: edit, at: position)
      case 1 where position < bytes.count: bytes.replaceSubrange(position..<(position + 1), with: edit)
      default: if position < bytes.count { bytes.remove(at: position) }
      }
    }
    return bytes
  }

  /// Whether the fast path resolves `bytes` on its own.
  private func takesFastPath<Action>(_ router: Router<Action>, _ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { link in
      RouteValues.withScratch(length: link.count, slotCount: router.compiled.slotCount) { decoded, slots in
        guard let decoded = decoded.baseAddress else { return false }
        var resolver = Resolver<StoppingAtProblems>(table: router.compiled, slots: slots)
        do throws(StoppingAtProblems.Stopped) {
          try LinkScanner.scan(link, decodingInto: decoded, into: &resolver)
        } catch {
          return false
        }
        return resolver.route >= 0
      }
    }
  }

  /// Checks that every way of resolving `bytes` gives the strict path's answer, error message included.
  private func expectSameAnswers<Action: Hashable>(
    _ router: Router<Action>, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    bytes.withUnsafeBufferPointer { link in
      let strict = Result { () throws(DeepLinkError) in try router.resolveLink(link, fastPath: false) }
      let fast = Result { () throws(DeepLinkError) in try router.resolve(utf8: link) }
      #expect(fast == strict, "\(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
    }
  }

  /// The same for the router of shield actions, which has a path of its own for the standard routes.
  private func expectSameAnswers(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
    bytes.withUnsafeBufferPointer { link in
      let strict = Result { () throws(DeepLinkError) in try router.resolveLink(link, fastPath: false) }
      let fast = Result { () throws(DeepLinkError) in try router.resolve(utf8: link) }
      #expect(fast == strict, "\(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
      if let text = String(validating: bytes, as: UTF8.self) {
        let fromText = Result { () throws(DeepLinkError) in try router.resolve(text) }
        #expect(fromText == strict, "\(text)", sourceLocation: sourceLocation)
      }
      // The lent resolution, which makes no string, gives the same answers.
      var lent: Resolution<ShieldAction>?
      let lending = Result { () throws(DeepLinkError) in
        try router.withResolution(utf8: link) { lent = $0.resolution }
        guard let lent else { throw DeepLinkError(.unknownRoute, at: 0, "the body was not called") }
        return lent
      }
      #expect(lending == strict, "\(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
    }
  }

  @Test("5,000 valid links to the standard routes take the fast path and resolve as the strict path does")
  func validStandardLinks() async {
    var generator = SeededGenerator(seed: 0xFA57_0001)
    var taken = 0
    for round in 0..<5_000 {
      await yieldToOtherTests(round: round)
      let link = standardLink(using: &generator)
      expectSameAnswers(link)
      if takesFastPath(router, link) { taken += 1 }
    }
    // A link without an app to a view is refused, hence not all of them.
    #expect(taken > 4_000)
  }

  @Test("20,000 mutated links to the standard routes get the strict path's answer, or error")
  func mutatedStandardLinks() async {
    var generator = SeededGenerator(seed: 0xFA57_0002)
    for round in 0..<20_000 {
      await yieldToOtherTests(round: round)
      expectSameAnswers(mutated(standardLink(using: &generator), using: &generator))
    }
  }

  @Test("links to a library user's routes, long names and keys included, agree on both paths")
  func wideRoutes() async throws {
    let router = try wideRouter()
    var generator = SeededGenerator(seed: 0xFA57_0003)
    var taken = 0
    for round in 0..<3_000 {
      await yieldToOtherTests(round: round)
      let link = wideLink(using: &generator)
      expectSameAnswers(router, link)
      if takesFastPath(router, link) { taken += 1 }
      expectSameAnswers(router, mutated(link, using: &generator))
      expectSameAnswers(router, mutated(link, using: &generator))
    }
    #expect(taken > 2_500)
  }

  @Test("a route registered over a standard one is resolved by its own action")
  func replacedStandardRoute() throws {
    var router = Router(configuration: .standard)
    try router.register(
      Route<ShieldAction>(
        "puzzle", Parameter<String>.text("app"),
        action: { .view(app: $0, view: "puzzle", id: "replaced") },
        values: { if case .view(let app, "puzzle", "replaced") = $0 { app } else { nil } }))
    #expect(
      try router.resolve("shieldbridge://puzzle?app=X").action == .view(app: "X", view: "puzzle", id: "replaced"))
    #expect(
      try router.resolve("shieldbridge://view?app=X").action == .view(app: "X", view: "home", id: "shield-open"))
  }

  @Test("random bytes get the strict path's answer")
  func randomBytes() async throws {
    let wide = try wideRouter()
    var generator = SeededGenerator(seed: 0xFA57_0004)
    for round in 0..<10_000 {
      await yieldToOtherTests(round: round)
      let prefix = Array((Bool.random(using: &generator) ? "shieldbridge://puzzle?" : "").utf8)
      let bytes =
        prefix
        + (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
      expectSameAnswers(bytes)
      expectSameAnswers(wide, bytes)
    }
  }
}

@Suite("Strings of short values")
struct ShortValueStringTests {
  @Test("every length up to 15 bytes, ASCII or not, gives the standard library's string")
  func equalToStandardLibrary() async {
    var generator = SeededGenerator(seed: 0x5311_0001)
    var count = 0
    while count < 5_000 {
      await yieldToOtherTests(round: count)
      let text = RandomText.string(using: &generator, maximumLength: 8)
      let bytes = Array(text.utf8)
      guard bytes.count <= 15 else { continue }
      count += 1
      // Bytes past the value are in the decoded buffer too, and must be ignored.
      let made = (bytes + Array(repeating: 0xEE, count: 16)).withUnsafeBufferPointer { buffer in
        var slot = Slot()
        slot.state = .text
        slot.count = bytes.count
        let noDefault: ParameterValue? = nil
        return withUnsafePointer(to: slot) { slot in
          withUnsafePointer(to: noDefault) { defaults in
            buffer.baseAddress.flatMap {
              RouteValues(slots: UnsafeBufferPointer(start: slot, count: 1), decoded: $0, defaults: defaults).text(0)
            }
          }
        }
      }
      guard let string = made else {
        Issue.record("no buffer")
        return
      }
      #expect(string == text)
      #expect(Array(string.utf8) == bytes)
      #expect(string.hashValue == text.hashValue)
      #expect(string.unicodeScalars.elementsEqual(text.unicodeScalars))
      #expect(string + "!" == text + "!")
    }
  }
}
