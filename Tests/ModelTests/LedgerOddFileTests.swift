import Foundation
import Glibc
import Model
import Store
import TestSupport
import Testing

@Suite("A FIFO, a device or a dangling link in the ledger's files is refused at once, the same early as late")
struct LedgerOddFileTests {
  let social = Rule(name: "social", apps: ["Instagram"])

  /// A store whose folder exists, with `make` run on the path of `name` in it.
  private func store(_ name: String, _ make: (String) -> Int32) throws -> (LedgerStore, String, TemporaryDirectory) {
    let state = try TemporaryDirectory()
    let store = LedgerStore(directory: state.path, lockTimeout: .seconds(30))
    let path = state.file(name)
    #expect(make(path) == 0)
    return (store, path, state)
  }

  @Test("A FIFO or a device as ledger.json: reading and granting say what it is, and it is left alone")
  func ledgerIsNotRegular() throws {
    for (make, kind) in [({ mkfifo($0, 0o600) }, "a FIFO"), ({ symlink("/dev/zero", $0) }, "a character device")]
      as [((String) -> Int32, String)]
    {
      let (store, path, state) = try store("ledger.json", make)
      let read = #expect(throws: LedgerError.self) { try store.load() }
      let granted = #expect(throws: LedgerError.self) { try store.recordGrant(for: social) }
      #expect(read == granted)
      #expect(read?.code == "state-io")
      #expect(read?.description == "\(path): it is \(kind), not a regular file; it was left as it is")
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: state.path).sorted() == ["ledger.json", "ledger.lock"])
    }
  }

  @Test("A FIFO, a device or a dangling link as ledger.lock fails the check before a task as the grant fails")
  func lockIsNotRegular() throws {
    let makers: [(String) -> Int32] = [
      { mkfifo($0, 0o600) }, { symlink("/dev/null", $0) }, { symlink("/nonexistent-shieldbridge/x", $0) },
      { mkdir($0, 0o700) },
    ]
    for make in makers {
      let (store, path, state) = try store("ledger.lock", make)
      defer { withExtendedLifetime(state) {} }
      let early = #expect(throws: LedgerError.self) { try store.checkWritable() }
      let late = #expect(throws: LedgerError.self) { try store.recordGrant(for: social) }
      #expect(early == late)
      #expect(early?.description.hasPrefix(path + ": ") == true, "\(String(describing: early))")
    }
  }
}
