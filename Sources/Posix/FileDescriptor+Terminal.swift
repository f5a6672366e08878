#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension FileDescriptor {
  /// Whether the descriptor is a terminal (`isatty`): someone may be typing, or reading.
  public var isTerminal: Bool { isatty(rawValue) == 1 }
}
