import DBus
import Testing

@Suite("Invalid names, paths and values are errors, never an abort in libdbus")
struct ValidationTests {
  @Test(arguments: [
    "", ".a", "a..b", "1a.b", "a", "a.b\u{0}c", "org.example.\u{e9}", String(repeating: "a.", count: 130) + "b",
  ])
  func invalidBusNames(_ name: String) {
    #expect(throws: DBusError.self) { try BusName(name) }
  }

  @Test(arguments: ["org.example.Name", ":1.42", "org.example.with-dash", "a.b"])
  func validBusNames(_ name: String) throws {
    #expect(try BusName(name).rawValue == name)
  }

  @Test(arguments: ["", "relative", "/trailing/", "//double", "/with space", "/dash-ed", "/nul\u{0}"])
  func invalidObjectPaths(_ path: String) {
    let error = #expect(throws: DBusError.self) { try ObjectPath(path) }
    #expect(error?.is(.invalidArgs) == true)
  }

  @Test(arguments: ["", "noDots", "org..x", "org.1x", "org.x-y", "org.x."])
  func invalidInterfaceNames(_ name: String) {
    #expect(throws: DBusError.self) { try InterfaceName(name) }
  }

  @Test(arguments: ["", "1Start", "with.dot", "with-dash", String(repeating: "m", count: 256)])
  func invalidMemberNames(_ name: String) {
    #expect(throws: DBusError.self) { try MemberName(name) }
  }

  @Test(arguments: ["", "Failed", "org..Error"])
  func invalidErrorNames(_ name: String) {
    #expect(throws: DBusError.self) { try ErrorName(name) }
  }

  @Test func everyNameTypeSharesOneShape() {
    func check<Name: DBusName>(_: Name.Type, valid: String, invalid: String) {
      #expect(Name(rawValue: valid)?.description == valid)
      #expect(Name(rawValue: valid) == (try? Name(valid)))
      #expect(Name(rawValue: invalid) == nil)
      let error = #expect(throws: DBusError.self) { try Name(invalid) }
      #expect(error?.is(.invalidArgs) == true)
      #expect(error?.message.contains("'\(invalid)'") == true)
    }
    check(BusName.self, valid: ":1.42", invalid: "a..b")
    check(ObjectPath.self, valid: "/a/b", invalid: "/a/")
    check(InterfaceName.self, valid: "org.example.A", invalid: "noDots")
    check(MemberName.self, valid: "Notify", invalid: "with.dot")
    check(ErrorName.self, valid: "org.example.Error.Failed", invalid: "Failed")
  }

  @Test(arguments: [
    "(", ")", "a", "a{}", "{sv}", "a{vs}", "()", "ah", "z", "a{s}", "a{sss}",
    String(repeating: "a", count: 33) + "i",
    String(repeating: "(", count: 33) + "i" + String(repeating: ")", count: 33),
  ])
  func invalidSignatures(_ text: String) {
    let error = #expect(throws: DBusError.self) { try Signature(text) }
    #expect(error?.is(.invalidSignature) == true)
  }

  @Test func validSignaturesParseIntoTheirTypes() throws {
    let signature = try Signature("susssasa{sv}i")
    #expect(signature.types.count == 8)
    #expect(signature.types[6] == .dictionary(key: .string, value: .variant))
    #expect(Signature(signature.types) == signature)
  }

  @Test func aStringWithANulByteCannotBeAppended() throws {
    let message = try Message.signal(
      path: try ObjectPath("/a"), interface: try InterfaceName("a.b"), member: try MemberName("C"))
    let error = #expect(throws: DBusError.self) { try message.append("before\u{0}after") }
    #expect(error?.is(.invalidArgs) == true)
  }

  @Test func aContainerHoldingAnotherTypeThanItDeclaresIsRefused() throws {
    let message = try Message.signal(
      path: try ObjectPath("/a"), interface: try InterfaceName("a.b"), member: try MemberName("C"))
    #expect(throws: DBusError.self) { try message.append(values: [.array(element: .string, [.int32(1)])]) }
    #expect(throws: DBusError.self) {
      try message.append(values: [.dictionary(key: .variant, value: .string, [])])
    }
    #expect(throws: DBusError.self) { try message.append(values: [.structure([])]) }
  }

  @Test func onlyLocalUnixAddressesAreAccepted() {
    for address in ["tcp:host=127.0.0.1,port=1", "nonce-tcp:host=localhost", "garbage", "unix:path=/x\u{0}"] {
      let error = #expect(throws: DBusError.self) { try Connection(.address(address)) }
      #expect(error?.is(.badAddress) == true)
    }
  }

  @Test func aMissingBusIsAnErrorNotAHang() {
    let error = #expect(throws: DBusError.self) {
      try Connection(.address("unix:path=/nonexistent/shieldbridge/bus"))
    }
    #expect(error != nil)
  }

  @Test func matchRulesQuoteTheirValues() throws {
    let rule = MatchRule(
      sender: try BusName("org.example.A"), member: try MemberName("Changed"), arguments: [0: "it's"])
    #expect(rule.description == #"type='signal',sender='org.example.A',member='Changed',arg0='it'\''s'"#)
  }
}
