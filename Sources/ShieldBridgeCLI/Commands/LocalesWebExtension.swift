import Localization
import Posix

extension Command {
  /// `shieldbridge locales webextension DIR`.
  static let localesWebExtension = Command(
    name: "webextension",
    abstract: "Write the browser extension's _locales/LANG/messages.json from the catalogs.",
    arguments: "DIR",
    argumentCount: 1...1,
    options: LocalesWebExtensionOptions.self,
    discussion: """
      DIR is the extension's folder (integrations/webextension). English comes from the
      built-in messages, every other language from its catalog; only messages without a
      plural are written (the native host renders the others). Existing files are replaced.
      """,
    body: { invocation in
      let folder = invocation.positionals[0]
      guard FileSystem.isDirectory(folder) else {
        throw CommandFailure("no folder at '\(folder)'", exitCode: .noInput)
      }
      let catalogs = LocalesSupport.load(try LocalesSupport.directory(invocation[\.dir]))
      for file in WebExtensionLocales.files(for: catalogs) {
        let path = folder + "/" + file.path
        let parent = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        do throws(MakeDirectoriesError) {
          try FileSystem.makeDirectories(parent, permissions: 0o755)
        } catch {
          throw CommandFailure("cannot make '\(parent)': \(error)", exitCode: .cannotCreate)
        }
        do throws(AtomicReplaceError) {
          try FileSystem.replaceAtomically(path, with: Array(file.text.utf8), permissions: 0o644)
        } catch {
          throw CommandFailure("cannot write '\(path)': \(error)", exitCode: .cannotCreate)
        }
        Output.out(path)
      }
      return .success
    }
  )
}

/// The options of `shieldbridge locales webextension`.
private struct LocalesWebExtensionOptions: OptionGroup {
  let dir: Option<String>

  init(declaring options: inout OptionDeclarations) {
    dir = options.catalogDirectory()
  }
}
