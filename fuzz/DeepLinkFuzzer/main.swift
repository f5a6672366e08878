// The libFuzzer entry for the deep-link parser, built by `fuzz/run` (or
// `make fuzz`) together with the DeepLink sources, so internals are in reach.
//
// Each input is parsed every way there is, and the laws between the answers
// are checked; a law that fails stops the run with the input saved, and that
// input becomes a regression test in Tests/DeepLinkTests.

private let router = Router(configuration: .standard)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  checkRouter(bytes)
  checkFastPath(bytes)
  checkLinkValue(bytes)
  checkPercentEncoding(bytes)
  return 0
}

/// What the router accepts builds back into a link with the same action.
private func checkRouter(_ bytes: UnsafeBufferPointer<UInt8>) {
  do throws(DeepLinkError) {
    let resolution = try router.resolve(utf8: bytes)
    let rebuilt = try router.link(for: resolution.action)
    let again = try router.resolve(rebuilt.description)
    require(again.action == resolution.action, "the rebuilt link resolves to another action")
    require((try? DeepLink(parsingUTF8: bytes)) != nil, "the router accepts what the grammar refuses")
  } catch {
    require(error.offset >= 0 && error.offset <= max(bytes.count, DeepLink.maximumLength), "offset out of range")
    require(!error.message.isEmpty, "an error without a message")
  }
}

/// The router's fast path gives the strict parser's answer, error messages included.
private func checkFastPath(_ bytes: UnsafeBufferPointer<UInt8>) {
  let answer = Result { () throws(DeepLinkError) in try router.resolve(utf8: bytes) }
  let strict = Result { () throws(DeepLinkError) in try router.resolveLink(bytes, fastPath: false) }
  require(answer == strict, "the fast path and the strict parser disagree")
}

/// A parsed link's text parses to the same link.
private func checkLinkValue(_ bytes: UnsafeBufferPointer<UInt8>) {
  guard let link = try? DeepLink(parsingUTF8: bytes) else { return }
  require((try? DeepLink(parsing: link.description)) == link, "a link's text parses to another link")
  require(link.description.utf8.count <= bytes.count, "the canonical text is longer than the input")
}

/// Encoding is reversible for any bytes, and decoding for what it accepts.
private func checkPercentEncoding(_ bytes: UnsafeBufferPointer<UInt8>) {
  let encoded = PercentEncoding.encode(utf8: bytes)
  require((try? PercentEncoding.decodeBytes(encoded)) == Array(bytes), "decodeBytes(encode(b)) != b")
  if let text = try? PercentEncoding.decode(utf8: bytes) {
    require((try? PercentEncoding.decode(PercentEncoding.encode(text))) == text, "decode(encode(s)) != s")
  }
}

private func require(_ condition: Bool, _ law: StaticString) {
  if !condition { fatalError("law broken: \(law)") }
}
