#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Who the running process is.
public enum CurrentProcess {
  /// The real user id (`getuid`).
  public static var userID: UInt32 { UInt32(getuid()) }
  /// The process id (`getpid`).
  public static var id: Int32 { Int32(getpid()) }
}
