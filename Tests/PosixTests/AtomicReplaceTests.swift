import Glibc
import Posix
import Testing

@Suite("Atomic replace leaves the old or the new file, and no temporary file behind")
struct AtomicReplaceTests {
  @Test func theNewContentReplacesTheOldWithPrivatePermissions() throws {
    try withScratchFolder { folder in
      let path = folder + "/state.json"
      plainWrite("old", to: path)
      try FileSystem.replaceAtomically(path, with: Array("new".utf8))
      #expect(try FileSystem.readFile(path, limit: 100) == Array("new".utf8))
      #expect(try FileSystem.status(path).permissions == 0o600)
      #expect(try FileSystem.contentsOfDirectory(folder) == ["state.json"])
    }
  }

  @Test func aFailedRenameKeepsTheOldFileAndRemovesTheTemporaryOne() throws {
    try withScratchFolder { folder in
      // A non-empty folder where the file should be: rename(2) cannot replace it.
      let path = folder + "/state.json"
      try FileSystem.makeDirectories(path)
      plainWrite("keep", to: path + "/inside")
      do throws(AtomicReplaceError) {
        try FileSystem.replaceAtomically(path, with: Array("new".utf8))
        Issue.record("replaced a folder")
      } catch {
        #expect(error.step == .rename)
        #expect(error.path.hasPrefix(path + FileSystem.temporaryInfix))
      }
      #expect(try FileSystem.contentsOfDirectory(folder) == ["state.json"])
      #expect(try FileSystem.readFile(path + "/inside", limit: 100) == Array("keep".utf8))
    }
  }

  @Test func aMissingFolderFailsAtCreate() throws {
    try withScratchFolder { folder in
      #expect(throws: AtomicReplaceError.self) {
        try FileSystem.replaceAtomically(folder + "/no/such/file", with: [1])
      }
      do throws(AtomicReplaceError) {
        try FileSystem.replaceAtomically(folder + "/no/such/file", with: [1])
      } catch {
        #expect(error.step == .create)
        #expect(error.errno == .noSuchFileOrDirectory)
      }
    }
  }

  @Test func leftoverTemporaryFilesAreRemovedAndNothingElse() throws {
    try withScratchFolder { folder in
      let path = folder + "/ledger.json"
      plainWrite("{}", to: path)
      plainWrite("dead", to: path + FileSystem.temporaryInfix + "123-abc")
      plainWrite("other", to: folder + "/other.tmp-1")
      FileSystem.removeLeftoverTemporaryFiles(of: path)
      let left = try FileSystem.contentsOfDirectory(folder).sorted()
      #expect(left == ["ledger.json", "other.tmp-1"])
    }
  }

  @Test("A replace removes the temporary files of its path whose writer is dead, and only those")
  func staleTemporaryFilesOfDeadWritersGo() throws {
    try withScratchFolder { folder in
      let path = folder + "/config.json"
      // A pid that ran and ended: a child that exited and was reaped.
      let child = fork()
      if child == 0 { _exit(0) }
      var status: Int32 = 0
      #expect(waitpid(child, &status, 0) == child)
      let dead = "config.json\(FileSystem.temporaryInfix)\(child)-1a2b"
      let live = "config.json\(FileSystem.temporaryInfix)\(getpid())-3c4d"
      let initProcess = "config.json\(FileSystem.temporaryInfix)1-5e6f"
      let odd = [
        "config.json.tmp-notes", "config.json.tmp-\(child)-XYZ", "config.json.tmp-\(child)-", "other.tmp-\(child)-ab",
      ]
      for name in [dead, live, initProcess] + odd { plainWrite("x", to: folder + "/" + name) }
      try FileSystem.replaceAtomically(path, with: Array("{}".utf8))
      let left = try FileSystem.contentsOfDirectory(folder).sorted()
      #expect(left == (["config.json", live, initProcess] + odd).sorted(), "\(left)")
    }
  }
}
