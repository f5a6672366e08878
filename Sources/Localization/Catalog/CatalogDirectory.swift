import Posix

/// The folder that holds `shieldbridge.pot` and the PO catalogs, and how to find it.
public struct CatalogDirectory: Hashable, Sendable, CustomStringConvertible {
  /// The environment variable that names the folder explicitly.
  public static let environmentVariable = "SHIELDBRIDGE_LOCALEDIR"
  /// The name of the template, which also marks a source tree's `locales/` folder.
  public static let templateName = "shieldbridge.pot"
  /// Where `make install` puts the catalogs, relative to the installation prefix.
  public static let installedSubpath = "share/shieldbridge/locales"

  /// The folder's path.
  public let path: String

  public init(path: String) { self.path = path }

  public var description: String { path }

  /// One catalog file in the folder.
  public struct File: Hashable, Sendable {
    /// The language, from the file name (`pt_BR.po` → `pt-BR`).
    public var tag: LocaleTag
    public var path: String
  }

  /// The catalogs (`*.po` whose name is a language tag), sorted by tag.
  public func catalogFiles() -> [File] {
    ((try? FileSystem.contentsOfDirectory(path)) ?? []).compactMap { name -> File? in
      // Byte-wise: Unicode-aware string comparisons cost more than the rest of a load when cold.
      guard name.utf8.count > 3, name.utf8.suffix(3).elementsEqual(".po".utf8),
        let tag = LocaleTag(Substring(name.utf8.dropLast(3)))
      else { return nil }
      let filePath = path.appendingPathComponent(name)
      return FileSystem.isRegularFile(filePath) ? File(tag: tag, path: filePath) : nil
    }.sorted { $0.tag < $1.tag }
  }

  /// The template's path, when the folder has one.
  public var templatePath: String? {
    let candidate = path.appendingPathComponent(Self.templateName)
    return FileSystem.isRegularFile(candidate) ? candidate : nil
  }

  /// Whether the folder exists.
  public var exists: Bool { FileSystem.isDirectory(path) }

  /// Finds the catalogs, first match wins:
  ///
  /// 1. `explicit` (a command-line argument), then `$SHIELDBRIDGE_LOCALEDIR`;
  /// 2. installed beside the executable: `<bin>/../share/shieldbridge/locales`;
  /// 3. a source tree: `locales/shieldbridge.pot` in a parent of the executable,
  ///    then in the current directory or one of its parents;
  /// 4. `/usr/local/share/shieldbridge/locales`, `/usr/share/shieldbridge/locales`.
  ///
  /// - Parameters:
  ///   - environment: The variables to read; this process's when `nil`.
  ///   - executablePath: The running program; `/proc/self/exe` when `nil`.
  ///   - currentDirectory: Where to start the upward search; the working directory when `nil`.
  /// - Returns: `nil` when none is found; messages then stay in English.
  public static func locate(
    explicit: String? = nil, environment: [String: String]? = nil, executablePath: String? = nil,
    currentDirectory: String? = nil
  ) -> CatalogDirectory? {
    if let explicit, !explicit.isEmpty { return CatalogDirectory(path: explicit) }
    let environment = environment ?? Environment.all
    if let fromEnvironment = environment[environmentVariable], !fromEnvironment.isEmpty {
      return CatalogDirectory(path: fromEnvironment)
    }
    let executable = executablePath ?? FileSystem.executablePath()
    if let binDirectory = executable?.parentPath {
      let installed = binDirectory.parentPath.appendingPathComponent(installedSubpath)
      if FileSystem.isDirectory(installed) { return CatalogDirectory(path: installed) }
      if let tree = sourceTree(above: binDirectory) { return tree }
    }
    if let start = currentDirectory ?? FileSystem.currentDirectory(),
      let tree = sourceTree(above: start)
    {
      return tree
    }
    for prefix in ["/usr/local", "/usr"] {
      let installed = prefix.appendingPathComponent(installedSubpath)
      if FileSystem.isDirectory(installed) { return CatalogDirectory(path: installed) }
    }
    return nil
  }

  /// The first `locales/` folder with the template in `start` or one of its parents.
  private static func sourceTree(above start: String) -> CatalogDirectory? {
    var directory = start
    for _ in 0..<64 {
      let candidate = directory.appendingPathComponent("locales")
      if FileSystem.isRegularFile(candidate.appendingPathComponent(templateName)) {
        return CatalogDirectory(path: candidate)
      }
      let parent = directory.parentPath
      if parent == directory { break }
      directory = parent
    }
    return nil
  }
}
