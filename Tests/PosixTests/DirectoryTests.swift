import Glibc
import Posix
import Testing

@Suite("Directories are made with their parents, checked for privacy and listed")
struct DirectoryTests {
  @Test func missingParentsAreMade() throws {
    try withScratchFolder { folder in
      try FileSystem.makeDirectories(folder + "/a/b/c")
      #expect(FileSystem.isDirectory(folder + "/a/b/c"))
      #expect(try FileSystem.status(folder + "/a/b").permissions == 0o700)
      try FileSystem.makeDirectories(folder + "/a/b/c")  // already there: fine
      #expect(try FileSystem.contentsOfDirectory(folder + "/a") == ["b"])
    }
  }

  @Test func aFileInTheWayIsNotADirectory() throws {
    try withScratchFolder { folder in
      plainWrite("x", to: folder + "/file")
      #expect(throws: MakeDirectoriesError(step: .notDirectory, path: folder + "/file", errno: .notDirectory)) {
        try FileSystem.makeDirectories(folder + "/file")
      }
      #expect(throws: MakeDirectoriesError(step: .create, path: folder + "/file/below", errno: .notDirectory)) {
        try FileSystem.makeDirectories(folder + "/file/below")
      }
    }
  }

  @Test func aPrivateDirectoryMustBeOursAndClosedToOthers() throws {
    try withScratchFolder { folder in
      let path = folder + "/private"
      try FileSystem.makePrivateDirectory(path)
      #expect(try FileSystem.status(path).permissions == 0o700)
      chmod(path, 0o755)
      #expect(throws: PrivateDirectoryError.openToOthers(permissions: 0o755)) {
        try FileSystem.makePrivateDirectory(path)
      }
      symlink(path, folder + "/link")
      #expect(throws: PrivateDirectoryError.notDirectory) { try FileSystem.makePrivateDirectory(folder + "/link") }
      #expect(throws: PrivateDirectoryError.create(.noSuchFileOrDirectory)) {
        try FileSystem.makePrivateDirectory(folder + "/missing/private")
      }
    }
  }

  @Test func pathsSplitAndJoin() {
    #expect("/a/b".parentPath == "/a")
    #expect("/a".parentPath == "/")
    #expect("b".parentPath == ".")
    #expect("/a/b/".parentPath == "/a")
    #expect("/a/de.po".lastPathComponent == "de.po")
    #expect("/a".appendingPathComponent("b") == "/a/b")
    #expect("/a/".appendingPathComponent("b") == "/a/b")
  }
}
