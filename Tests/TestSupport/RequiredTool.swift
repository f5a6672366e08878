import Foundation

/// The full path of `tool` on `PATH`.
///
/// A test that needs a tool the setup installs fails when it is missing; it
/// never skips. The error names the Debian package that brings the tool.
///
/// - Throws: ``DesktopError`` naming `package` when `tool` is not installed.
public func requiredTool(_ tool: String, package: String) throws -> String {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/\(tool)") {
    return "\(folder)/\(tool)"
  }
  throw DesktopError("\(tool) is not installed: install the Debian package \(package) ('make test' does)")
}
