import Foundation
import Spawn
import TestSupport
import Testing

/// The README's path as a new user walks it, from the Debian package that `make deb` built,
/// on Debian 12 with Xfce and on Debian 13 with GNOME Shell 48 (`scripts/first-day`, which
/// checks every step and says what it saw when one fails).
///
/// Each day installs the package into a clean tree of its own (`scripts/first-day-chroot`,
/// cached in `/var/cache/shieldbridge/`), logs a new user in, runs `shieldbridge setup` as a
/// person answers it, uses the covered app and site until the limit, solves the shield's task,
/// reads the report and purges the package. A tree that cannot be built fails the test.
@Suite struct FirstDayTests {
  /// The package: `SHIELDBRIDGE_DEB`, else `shieldbridge_VERSION_amd64.deb` at the top of the tree.
  static func package() throws -> String {
    if let given = ProcessInfo.processInfo.environment["SHIELDBRIDGE_DEB"], !given.isEmpty { return given }
    let repository = GnomeShellSession.repositoryPath
    let version = try String(contentsOfFile: repository + "/VERSION", encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let deb = repository + "/shieldbridge_\(version)_amd64.deb"
    guard FileManager.default.fileExists(atPath: deb) else {
      throw DesktopError("no \(deb): run 'make deb' first ('make test' does), or give SHIELDBRIDGE_DEB")
    }
    return deb
  }

  /// Where the pictures of the steps go: `SHIELDBRIDGE_SCREENSHOTS`, else `.build/first-day`
  /// (docs/screenshots/first-day/ holds a set taken so).
  static var screenshots: String {
    let given = ProcessInfo.processInfo.environment["SHIELDBRIDGE_SCREENSHOTS"] ?? ""
    return given.isEmpty ? GnomeShellSession.repositoryPath + "/.build/first-day" : given
  }

  @Test("Debian 12, Xfce: install, log in, setup, app and site to the limit, task, report, purge")
  func xfceOnDebian12() async throws {
    try await walk("xfce")
  }

  @Test("Debian 13, GNOME Shell 48: install, log in, setup, app and site to the limit, task, report, purge")
  func gnomeOnDebian13() async throws {
    try await walk("gnome")
  }

  private func walk(_ desktop: String) async throws {
    _ = try requiredTool("unshare", package: "util-linux")
    _ = try requiredTool("zstd", package: "zstd")
    let deb = try Self.package()
    let command = [GnomeShellSession.repositoryPath + "/scripts/first-day", desktop, deb, Self.screenshots]
    let result = try await onOwnThread { try Subprocess.run(command, timeout: .seconds(1200)) }
    #expect(result.status == 0, "scripts/first-day \(desktop) said:\n\(result.output)\n\(result.error)")
  }
}
