import Localization

extension Command {
  /// `shieldbridge locales plural LOCALE N…`.
  static let localesPlural = Command(
    name: "plural",
    abstract: "Print the plural form index of each number under a catalog's Plural-Forms.",
    arguments: "LOCALE N...",
    argumentCount: 2...Int.max,
    options: LocalesPluralOptions.self,
    discussion: "English and the pseudo-locales use English's rule, nplurals=2; plural=(n != 1).",
    body: { invocation in
      let tag = try LocalesSupport.tag(invocation.positionals[0])
      var numbers: [UInt64] = []
      for text in invocation.positionals.dropFirst() {
        guard let number = UInt64(text) else {
          throw CommandFailure.usage("'\(text)' is not a whole number from 0 to \(UInt64.max)")
        }
        numbers.append(number)
      }
      let forms = try pluralForms(
        for: tag, directory: try LocalesSupport.directory(invocation[\.dir]))
      for number in numbers {
        do throws(PluralFormsError) {
          Output.out(String(try forms.index(for: number)))
        } catch {
          throw CommandFailure(error.message, exitCode: .dataError)
        }
      }
      return .success
    }
  )
}

/// The options of `shieldbridge locales plural`.
private struct LocalesPluralOptions: OptionGroup {
  let dir: Option<String>

  init(declaring options: inout OptionDeclarations) {
    dir = options.catalogDirectory()
  }
}

/// The rule of the catalog for `tag` (or for its language), English's for English and the pseudo-locales.
private func pluralForms(for tag: LocaleTag, directory: CatalogDirectory?) throws(CommandFailure)
  -> PluralForms
{
  if tag.language == LocaleTag.source.language || PseudoLocale(tag: tag) != nil { return .germanic }
  let files = directory?.catalogFiles() ?? []
  guard let file = tag.fallbacks.lazy.compactMap({ tag in files.first { $0.tag == tag } }).first
  else {
    throw CommandFailure(
      "no catalog for '\(tag)' in '\(directory?.path ?? "(no catalog folder found)")'",
      exitCode: .noInput)
  }
  let catalog: POFile
  do throws(POParseError) {
    catalog = try POFile(contentsOf: file.path)
  } catch {
    throw CommandFailure(error.description, exitCode: .dataError)
  }
  guard let header = catalog.header?.field("Plural-Forms") else {
    throw CommandFailure("\(file.path): the header has no Plural-Forms", exitCode: .dataError)
  }
  do throws(PluralFormsError) {
    return try PluralForms(header: header.value)
  } catch {
    throw CommandFailure(
      "\(file.path):\(header.line): Plural-Forms is invalid: \(error)", exitCode: .dataError)
  }
}
