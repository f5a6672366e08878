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
  /// The parent's process id (`getppid`): for a native-messaging host, the browser that started it.
  public static var parentID: Int32 { Int32(getppid()) }
}

extension CurrentProcess {
  /// Ends the process with `status`, flushing C's stdio buffers (`exit`).
  public static func exit(_ status: Int32) -> Never {
    systemExit(status)
  }

  /// Makes a write to a closed pipe an `EPIPE` error for the writer to report,
  /// instead of a `SIGPIPE` that ends the process.
  public static func ignoreBrokenPipes() {
    signal(SIGPIPE, SIG_IGN)
  }
}

// `exit` under a name of its own: inside `CurrentProcess` the method shadows it.
private func systemExit(_ status: Int32) -> Never { exit(status) }
