import Foundation
import JSON
import Notifications
import TestSupport
import Testing

@Suite("One-shot posts remember identifiers in a file tagged with the server")
struct FileIDStoreTests {
  @Test func anIDIsFoundAgainOnlyForTheSameServer() throws {
    let directory = try TemporaryDirectory()
    let store = FileIDStore(path: directory.file("ids.json"))
    #expect(store.id(for: "shield-open", server: "bus/:1.5") == nil)
    store.remember(12, for: "shield-open", server: "bus/:1.5")
    store.remember(13, for: "other", server: "bus/:1.5")
    #expect(FileIDStore(path: store.path).id(for: "shield-open", server: "bus/:1.5") == 12)
    #expect(store.id(for: "shield-open", server: "bus/:1.9") == nil)
    #expect(store.lastError == nil)
  }

  @Test func anotherServerForgetsTheOldIDs() throws {
    let directory = try TemporaryDirectory()
    let store = FileIDStore(path: directory.file("ids.json"))
    store.remember(12, for: "shield-open", server: "bus/:1.5")
    store.remember(3, for: "new", server: "bus/:1.7")
    #expect(store.id(for: "shield-open", server: "bus/:1.5") == nil)
    #expect(store.id(for: "new", server: "bus/:1.7") == 3)
    let json = try JSONValue(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: store.path))))
    #expect(json == .object([("server", "bus/:1.7"), ("ids", .object([("new", 3)]))]))
  }

  @Test func aDamagedFileIsReadAsEmptyAndReplaced() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("ids.json")
    try Data("{\"server\": tru".utf8).write(to: URL(fileURLWithPath: path))
    let store = FileIDStore(path: path)
    #expect(store.id(for: "a", server: "s") == nil)
    store.remember(1, for: "a", server: "s")
    #expect(store.id(for: "a", server: "s") == 1)
  }

  @Test func theNumberOfIdentifiersIsBounded() throws {
    let directory = try TemporaryDirectory()
    let store = FileIDStore(path: directory.file("ids.json"))
    for index in 1...300 { store.remember(UInt32(index), for: "id\(index)", server: "s") }
    #expect(store.id(for: "id1", server: "s") == nil)
    #expect(store.id(for: "id300", server: "s") == 300)
    #expect(store.id(for: "id45", server: "s") == 45)
  }

  @Test func aStoreThatCannotBeWrittenKeepsTheFailureForTheCaller() throws {
    let store = FileIDStore(path: "/nonexistent-shieldbridge-dir/ids.json")
    store.remember(1, for: "a", server: "s")
    #expect(store.lastError?.code == .file)
  }

  @Test func theStandardStoreLivesInAPrivateFolderOfTheRuntimeDirectory() throws {
    let directory = try TemporaryDirectory()
    setenv("XDG_RUNTIME_DIR", directory.path, 1)
    defer { unsetenv("XDG_RUNTIME_DIR") }
    let store = try FileIDStore.standard()
    #expect(store.path == directory.path + "/shieldbridge/notification-ids.json")
    var status = stat()
    #expect(stat(directory.path + "/shieldbridge", &status) == 0)
    #expect(status.st_mode & 0o777 == 0o700)
  }
}
