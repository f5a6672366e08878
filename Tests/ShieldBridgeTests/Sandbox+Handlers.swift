import Foundation
import TestSupport

extension Sandbox {
  /// A handler script that writes its arguments and activation token to `name`
  /// in the sandbox (replacing it whole, so a reader never sees half of it),
  /// and adds a line to `name.runs` for every run.
  func recordingHandler(_ name: String) throws -> String {
    let script = root.file("\(name).sh")
    let output = root.file(name)
    try writeExecutable(
      script,
      """
      #!/bin/sh
      { for argument in "$@"; do echo "arg=$argument"; done
        echo "token=${XDG_ACTIVATION_TOKEN:-}"
        echo "startup=${DESKTOP_STARTUP_ID:-}"; } > "\(output).$$"
      mv "\(output).$$" "\(output)"
      echo run >> "\(output).runs"

      """)
    return script
  }

  /// The lines the recording handler `name` wrote, once it has run.
  func handlerOutput(_ name: String, timeout: Duration = HangBound.wait) async throws -> [String] {
    let path = root.file(name)
    return try await poll("the handler's output in \(name)", timeout: timeout) {
      (try? String(contentsOfFile: path, encoding: .utf8))?.split(separator: "\n").map(String.init)
    }
  }

  /// How many times the recording handler `name` has finished.
  func handlerRuns(_ name: String) -> Int {
    ((try? String(contentsOfFile: root.file(name + ".runs"), encoding: .utf8)) ?? "").split(separator: "\n").count
  }
}
