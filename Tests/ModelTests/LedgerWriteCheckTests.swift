import Foundation
import Glibc
import Model
import Store
import TestSupport
import Testing

@Suite("LedgerStore.checkWritable answers before a task whether a grant could be written")
struct LedgerWriteCheckTests {
  let social = Rule(name: "social", apps: ["Instagram"])

  @Test("Where a grant can be written it passes, and it creates nothing")
  func passesAndCreatesNothing() throws {
    let state = try TemporaryDirectory()
    let store = LedgerStore(directory: state.file("deep/er/shieldbridge"))
    try store.checkWritable()
    #expect(!FileManager.default.fileExists(atPath: state.file("deep")))
    _ = try store.recordGrant(for: social)
    let before = try Data(contentsOf: URL(fileURLWithPath: store.path))
    try store.checkWritable()
    #expect(try Data(contentsOf: URL(fileURLWithPath: store.path)) == before)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: store.directory).sorted()
        == ["ledger.json", "ledger.lock"])
  }

  @Test("A state folder below a regular file fails as creating it would")
  func belowAFile() throws {
    let state = try TemporaryDirectory()
    try "not a folder".write(toFile: state.file("file"), atomically: false, encoding: .utf8)
    let store = LedgerStore(directory: state.file("file/state/shieldbridge"))
    let early = #expect(throws: LedgerError.self) { try store.checkWritable() }
    let late = #expect(throws: LedgerError.self) { try store.recordGrant(for: social) }
    #expect(early == late)
    guard case .io("create directory", let path, ENOTDIR) = early else {
      Issue.record("\(String(describing: early))")
      return
    }
    #expect(path.hasSuffix("/file/state"))
  }
}
