import DeepLink
import TestSupport
import Testing

@Suite("Arbitrary input never crashes the parser")
struct RobustnessTests {
  let router = Router(configuration: .standard)

  /// Parses `bytes` every way there is and checks that the answers agree.
  private func parseEveryWay(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { buffer in
      let resolution = Result { () throws(DeepLinkError) in try router.resolve(utf8: buffer) }
      let link = Result { () throws(DeepLinkError) in try DeepLink(parsingUTF8: buffer) }
      _ = Result { () throws(DeepLinkError) in
        try PercentEncoding.decode(utf8: buffer, rejectingControlCharacters: true)
      }
      if case .success(let resolution) = resolution {
        // What the router accepts is a well-formed link whose action builds and parses back.
        #expect((try? link.get()) != nil)
        if let rebuilt = try? router.link(for: resolution.action) {
          #expect((try? router.resolve(rebuilt.description).action) == resolution.action)
        } else {
          Issue.record(
            "an accepted link's action does not build: \(String(decoding: bytes, as: UTF8.self))")
        }
      }
      if case .failure(let error) = resolution {
        #expect(error.offset >= 0 && error.offset <= max(bytes.count, DeepLink.maximumLength))
      }
    }
  }

  @Test("20,000 random byte strings")
  func randomBytes() async {
    var generator = SeededGenerator(seed: 0x5EED_0004)
    for round in 0..<20_000 {
      await yieldToOtherTests(round: round)
      let count = Int.random(in: 0...200, using: &generator)
      parseEveryWay((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
  }

  @Test("20,000 mutations of valid links")
  func mutatedLinks() async {
    var generator = SeededGenerator(seed: 0x5EED_0005)
    let seeds = [
      "shieldbridge://puzzle?app=Insta%20gram&grant=5&id=shield-open",
      "shieldbridge://view?app=%E6%97%A5%E6%9C%AC&view=messages&id=n.1",
      "ShieldBridge://PUZZLE?utm=x&app=%F0%9F%98%80",
    ]
    let alphabet =
      Array("%&=?:/+ aAzZ09-._~".utf8) + [0x00, 0x0A, 0x80, 0xC0, 0xC3, 0xE0, 0xED, 0xF4, 0xFF]
    for round in 0..<20_000 {
      await yieldToOtherTests(round: round)
      var bytes = Array(seeds[Int.random(in: 0..<seeds.count, using: &generator)].utf8)
      for _ in 0..<Int.random(in: 1...4, using: &generator) {
        let position = Int.random(in: 0...bytes.count, using: &generator)
        let byte = alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: bytes.insert(byte, at: position)
        case 1 where position < bytes.count: bytes[position] = byte
        default: if position < bytes.count { bytes.remove(at: position) }
        }
      }
      parseEveryWay(bytes)
    }
  }

  @Test("the longest links and very many parameters stay bounded")
  func largeInputs() {
    let many = "shieldbridge://puzzle?" + (0..<680).map { "k\($0)=" }.joined(separator: "&")
    parseEveryWay(Array(many.utf8.prefix(2048)))
    parseEveryWay(Array(repeating: UInt8(ascii: "%"), count: 100_000))
    parseEveryWay(
      Array(("shieldbridge://puzzle?app=" + String(repeating: "%C3%A9", count: 400)).utf8))
  }
}
