#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Writes an executable script at `path`.
///
/// The text goes to a sibling file first, and `cp` writes the script itself
/// (see `copyExecutable`): a file this process had open for writing can be
/// inherited by a child another thread starts meanwhile, and while that
/// child keeps the descriptor every start of the script fails with "Text
/// file busy".
public func writeExecutable(_ path: String, _ text: String) throws {
  let draft = path + ".text"
  let descriptor = open(draft, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
  guard descriptor >= 0 else { throw PollTimedOut(what: "a writable \(draft)") }
  var bytes = Array(text.utf8)[...]
  while !bytes.isEmpty {
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard written > 0 else {
      close(descriptor)
      throw PollTimedOut(what: "writing \(draft)")
    }
    bytes = bytes.dropFirst(written)
  }
  close(descriptor)
  defer { unlink(draft) }
  try copyExecutable(from: draft, to: path)
}
