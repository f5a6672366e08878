extension FileDescriptor {
  /// The next line that arrives within `timeout`, without its `\n`; `nil` when
  /// none does, the input ends first, or the line grows past `maximumLength` bytes.
  ///
  /// Read a byte at a time, so that nothing after the line is taken from the
  /// descriptor: a child's pipe stays its own for whoever reads it next. For
  /// the one line a program prints once it is ready (`dbus-daemon
  /// --print-address`, `Xvfb -displayfd`), not for reading much.
  public func readLine(timeout: Duration, maximumLength: Int = 4096) -> String? {
    let deadline = ContinuousClock.now + timeout
    var line: [UInt8] = []
    var byte: [UInt8] = [0]
    while line.count <= maximumLength {
      guard (try? waitUntilReadable(timeout: deadline - ContinuousClock.now)) == true,
        (try? read(into: &byte)) == 1
      else { return nil }
      if byte[0] == 0x0A { return String(decoding: line, as: UTF8.self) }
      line.append(byte[0])
    }
    return nil
  }
}
