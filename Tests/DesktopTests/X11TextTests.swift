import Testing

@testable import Desktop

/// What any X client can write into a property, turned into names safe to match and log.
@Suite struct X11TextTests {
  @Test func splitsWMClassIntoInstanceAndClass() {
    let names = X11Text.wmClass(Array("xterm\u{0}Instagram\u{0}".utf8))
    #expect(names.instance == "xterm")
    #expect(names.windowClass == "Instagram")
  }

  @Test func takesAValueWithoutNULAsTheInstance() {
    let names = X11Text.wmClass(Array("lonely".utf8))
    #expect(names.instance == "lonely")
    #expect(names.windowClass == nil)
  }

  @Test func dropsEmptyNamesControlCharactersAndReadsLatin1() {
    #expect(X11Text.wmClass([0, 0]).instance == nil)
    #expect(X11Text.wmClass([0, 0]).windowClass == nil)
    #expect(X11Text.name(Array("a\u{1b}[0m\nb\u{202e}c".utf8)) == "a[0mbc")
    #expect(X11Text.name([0x43, 0x61, 0x66, 0xe9]) == "Café")
    #expect(X11Text.name([0x1b, 0x07]) == nil)
  }

  @Test func boundsTheInstanceAndTheClassEachOnItsOwn() {
    let long = [UInt8](repeating: UInt8(ascii: "a"), count: 5000)
    let names = X11Text.wmClass(long + [0] + Array("Instagram".utf8) + [0])
    #expect(names.instance?.utf8.count == X11Text.nameBound)
    // Both names fit the first read: the class is there.
    let short = Array("xterm\u{0}Instagram\u{0}".utf8)
    #expect(X11Text.classPlace(head: short, remaining: 0) == .inHead)
    // An instance of exactly the bound still leaves its NUL in the first read.
    let atBound = [UInt8](repeating: UInt8(ascii: "a"), count: X11Text.nameBound) + [0] + Array("Instagram".utf8)
    #expect(X11Text.classPlace(head: atBound, remaining: 0) == .inHead)
    #expect(X11Text.wmClass(atBound).windowClass == "Instagram")
    // An instance longer than its bound: the class is read from the value's end.
    let head = Array(long.prefix(X11Text.headBytes))
    #expect(X11Text.classPlace(head: head, remaining: 5000 + 11 - head.count) == .inTail)
    let tail = Array((long + [0] + Array("Instagram".utf8) + [0]).suffix(X11Text.tailBytes))
    #expect(X11Text.lastName(tail) == "Instagram")
    #expect(X11Text.lastName(Array("aaaa\u{0}Instagram".utf8)) == "Instagram")
    // One long name, or a class over its bound: no class.
    #expect(X11Text.lastName(Array(long.suffix(X11Text.tailBytes))) == nil)
    #expect(X11Text.lastName([0] + Array("Instagram".utf8)) == "Instagram")
  }

  @Test func readsClientPidsOnlyWithinTheReply() {
    var reply = [UInt8](repeating: 0, count: 32 + 16)
    reply[8] = 1
    reply[32 + 4] = 2  // LOCAL_CLIENT_PID
    reply[32 + 8] = 4
    reply[32 + 12] = 0x39
    reply[32 + 13] = 0x30
    #expect(reply.withUnsafeBytes { XWire.clientPid(inQueryClientIDsReply: $0, mask: 2) } == 12345)
    // A length that runs past the reply's end, and a count larger than what is there.
    reply[32 + 8] = 0xff
    #expect(reply.withUnsafeBytes { XWire.clientPid(inQueryClientIDsReply: $0, mask: 2) } == nil)
    reply[32 + 8] = 4
    reply[8] = 200
    reply[32 + 4] = 1
    #expect(reply.withUnsafeBytes { XWire.clientPid(inQueryClientIDsReply: $0, mask: 2) } == nil)
    #expect(
      [UInt8](repeating: 0, count: 8).withUnsafeBytes { XWire.clientPid(inQueryClientIDsReply: $0, mask: 2) } == nil)
  }

  @Test func findsASystemCounterByName() {
    var reply = [UInt8](repeating: 0, count: 32)
    reply[8] = 2
    for (id, name) in [(7, "SERVERTIME"), (9, "IDLETIME")] {
      var entry = [UInt8](repeating: 0, count: 14)
      entry[0] = UInt8(id)
      entry[12] = UInt8(name.utf8.count)
      entry += Array(name.utf8)
      while entry.count % 4 != 0 { entry.append(0) }
      reply += entry
    }
    #expect(reply.withUnsafeBytes { XWire.systemCounter(named: "IDLETIME", inListReply: $0) } == 9)
    #expect(reply.withUnsafeBytes { XWire.systemCounter(named: "DEVICEIDLETIME", inListReply: $0) } == nil)
  }
}
