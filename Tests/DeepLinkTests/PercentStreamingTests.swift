import DeepLink
import TestSupport
import Testing

/// What a whole-text call or a streamed one gave: the bytes, or the error.
private enum Outcome: Equatable, CustomStringConvertible {
  case bytes([UInt8])
  case error(DeepLinkError)

  var description: String {
    switch self {
    case .bytes(let bytes): "bytes \(String(decoding: bytes, as: UTF8.self).debugDescription)"
    case .error(let error): "error \(error)"
    }
  }
}

@Suite("Streaming percent-encoding gives what the whole-text calls give, however the text is cut")
struct PercentStreamingTests {
  /// `input` cut at `cuts` (sorted offsets, repeats give empty pieces).
  private func pieces(_ input: [UInt8], cuts: [Int]) -> [ArraySlice<UInt8>] {
    var result: [ArraySlice<UInt8>] = []
    var start = 0
    for cut in cuts {
      result.append(input[start..<cut])
      start = cut
    }
    result.append(input[start...])
    return result
  }

  private func wholeDecode(_ input: [UInt8], controls: Bool) -> Outcome {
    do throws(DeepLinkError) {
      let text = try input.withUnsafeBufferPointer { bytes throws(DeepLinkError) in
        try PercentEncoding.decode(utf8: bytes, rejectingControlCharacters: controls)
      }
      return .bytes(Array(text.utf8))
    } catch {
      return .error(error)
    }
  }

  private func streamedDecode(_ pieces: [ArraySlice<UInt8>], controls: Bool) -> Outcome {
    var decoder = PercentEncoding.StreamingDecoder(rejectingControlCharacters: controls)
    var output: [UInt8] = []
    do throws(DeepLinkError) {
      for (index, piece) in pieces.enumerated() {
        try Array(piece).withUnsafeBufferPointer { bytes throws(DeepLinkError) in
          try decoder.decode(bytes, isFinal: index == pieces.count - 1) { output += $0 }
        }
      }
      return .bytes(output)
    } catch {
      return .error(error)
    }
  }

  private func wholeEncode(_ input: [UInt8]) -> Outcome {
    do throws(DeepLinkError) {
      let text = try input.withUnsafeBufferPointer { bytes throws(DeepLinkError) in
        try PercentEncoding.encode(validating: bytes)
      }
      return .bytes(Array(text.utf8))
    } catch {
      return .error(error)
    }
  }

  private func streamedEncode(_ pieces: [ArraySlice<UInt8>]) -> Outcome {
    var encoder = PercentEncoding.StreamingEncoder()
    var output: [UInt8] = []
    do throws(DeepLinkError) {
      for (index, piece) in pieces.enumerated() {
        try Array(piece).withUnsafeBufferPointer { bytes throws(DeepLinkError) in
          try encoder.encode(bytes, isFinal: index == pieces.count - 1) { output += $0 }
        }
      }
      return .bytes(output)
    } catch {
      return .error(error)
    }
  }

  /// A percent-encoded text, mostly good: escapes of random characters (multi-byte
  /// ones included, in either case), raw unreserved bytes, and now and then a
  /// flaw: a lone `%`, a bad digit, a raw byte to encode, a cut-short or stray
  /// continuation escape, an overlong form, a control character.
  private func encodedText(using generator: inout SeededGenerator, maximumUnits: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    let units = Int.random(in: 0...maximumUnits, using: &generator)
    for _ in 0..<units {
      switch Int.random(in: 0..<100, using: &generator) {
      case 0..<40:
        bytes += Array("AZaz09-._~".utf8).randomElement(using: &generator).map { [$0] } ?? []
      case 40..<85:
        let text = RandomText.string(using: &generator, maximumLength: 1)
        let encoded = PercentEncoding.encode(text)
        bytes += Array((Bool.random(using: &generator) ? encoded : encoded.lowercased()).utf8)
      case 85..<87: bytes += Array("%".utf8)
      case 87..<89: bytes += Array("%4G".utf8)
      case 89..<91: bytes += [Array(" +&=/\u{7F}".utf8).randomElement(using: &generator) ?? 0x20]
      case 91..<93: bytes += Array("%E6%97".utf8)
      case 93..<95: bytes += Array("%80".utf8)
      case 95..<96: bytes += Array("%C0%AF".utf8)
      case 96..<97: bytes += [0xC3, 0xA9]
      case 97..<98: bytes += Array("%0A".utf8)
      default: bytes += Array("%C2%85".utf8)
      }
    }
    return bytes
  }

  /// Raw text, mostly UTF-8, now and then with a bad byte or a cut-short character.
  private func rawText(using generator: inout SeededGenerator, maximumLength: Int) -> [UInt8] {
    var bytes = Array(RandomText.string(using: &generator, maximumLength: maximumLength).utf8)
    if !bytes.isEmpty && Int.random(in: 0..<4, using: &generator) == 0 {
      let flaw: [UInt8] =
        [[0xFF], [0xC3], [0xE6, 0x97], [0x80], [0xED, 0xA0, 0x80]].randomElement(
          using: &generator) ?? [0xFF]
      bytes.insert(contentsOf: flaw, at: Int.random(in: 0...bytes.count, using: &generator))
    }
    return bytes
  }

  @Test("decoding cut in two at every offset", arguments: [false, true])
  func decodeEveryCut(controls: Bool) async {
    var generator = SeededGenerator(seed: controls ? 11 : 12)
    for round in 0..<1500 {
      await yieldToOtherTests(round: round)
      let input = encodedText(using: &generator, maximumUnits: 8)
      let whole = wholeDecode(input, controls: controls)
      for cut in 0...input.count {
        let streamed = streamedDecode(pieces(input, cuts: [cut]), controls: controls)
        if streamed != whole {
          Issue.record("\(String(decoding: input, as: UTF8.self)) cut at \(cut): \(streamed), whole \(whole)")
          return
        }
      }
    }
  }

  @Test("decoding long texts cut at random offsets into many pieces", arguments: [false, true])
  func decodeRandomPieces(controls: Bool) async {
    var generator = SeededGenerator(seed: controls ? 21 : 22)
    for round in 0..<1500 {
      await yieldToOtherTests(round: round)
      let input = encodedText(using: &generator, maximumUnits: Int.random(in: 0...400, using: &generator))
      let cuts = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
        Int.random(in: 0...input.count, using: &generator)
      }.sorted()
      let streamed = streamedDecode(pieces(input, cuts: cuts), controls: controls)
      let whole = wholeDecode(input, controls: controls)
      if streamed != whole {
        Issue.record("\(String(decoding: input, as: UTF8.self)) cut at \(cuts): \(streamed), whole \(whole)")
        return
      }
    }
  }

  @Test("a text cut into one-byte pieces decodes as a whole")
  func decodeByteByByte() async {
    var generator = SeededGenerator(seed: 31)
    for round in 0..<500 {
      await yieldToOtherTests(round: round)
      let input = encodedText(using: &generator, maximumUnits: 30)
      let streamed = streamedDecode(pieces(input, cuts: Array(0...input.count)), controls: true)
      #expect(streamed == wholeDecode(input, controls: true), "\(String(decoding: input, as: UTF8.self))")
    }
  }

  @Test("encoding cut in two at every offset and into many pieces")
  func encodeCuts() async {
    var generator = SeededGenerator(seed: 41)
    for round in 0..<2000 {
      await yieldToOtherTests(round: round)
      let input = rawText(using: &generator, maximumLength: round < 1000 ? 12 : 300)
      let whole = wholeEncode(input)
      let cutsToTry: [[Int]] =
        round < 1000
        ? (0...input.count).map { [$0] } + [Array(0...input.count)]
        : [
          (0..<Int.random(in: 0...12, using: &generator)).map { _ in
            Int.random(in: 0...input.count, using: &generator)
          }.sorted()
        ]
      for cuts in cutsToTry {
        let streamed = streamedEncode(pieces(input, cuts: cuts))
        if streamed != whole {
          Issue.record("\(input) cut at \(cuts): \(streamed), whole \(whole)")
          return
        }
      }
    }
  }

  @Test("split escapes and characters at a piece's edge decode whole")
  func knownEdges() {
    let input = Array("Caf%C3%A9%20%E6%97%A5%F0%9F%98%80~".utf8)
    for cut in 0...input.count {
      #expect(streamedDecode(pieces(input, cuts: [cut]), controls: true) == .bytes(Array("Café 日😀~".utf8)))
    }
    let errors: [(String, DeepLinkError.Code, Int)] = [
      ("ab%E6%97+", .unencodedCharacter, 8), ("ab%E6%97a", .invalidUTF8, 2), ("ab%E6%97%4", .badPercentEscape, 8),
      ("ab%E6%97%41", .invalidUTF8, 2), ("x%80", .invalidUTF8, 1), ("x%C2%85", .controlCharacter, 1),
    ]
    for (text, code, offset) in errors {
      let bytes = Array(text.utf8)
      for cut in 0...bytes.count {
        let streamed = streamedDecode(pieces(bytes, cuts: [cut]), controls: true)
        guard case .error(let error) = streamed else {
          Issue.record("\(text) cut at \(cut): \(streamed)")
          continue
        }
        #expect(error.code == code && error.offset == offset, "\(text) cut at \(cut): \(error)")
        #expect(streamed == wholeDecode(bytes, controls: true), "\(text) cut at \(cut)")
      }
    }
  }
}
