import DeepLink

extension Command {
  /// `shieldbridge link build puzzle|view`.
  static let linkBuild = Command(
    name: "build",
    abstract: "Build a puzzle or view link.",
    subcommands: [.linkBuildPuzzle, .linkBuildView]
  )

  /// `shieldbridge link build puzzle [--app NAME] [--grant N] [--id ID] [--scheme S]`.
  static let linkBuildPuzzle = Command(
    name: "puzzle",
    abstract: "Build a link that opens the math puzzle.",
    options: LinkBuildPuzzleOptions.self,
    body: { invocation in
      let configuration = try linkConfiguration(invocation)
      let grant = try invocation[\.grant] ?? configuration.grant
      let action = ShieldAction.puzzle(
        app: invocation[\.app], grant: grant, id: invocation[\.id] ?? configuration.identifier)
      return try printLink(for: action, configuration)
    }
  )

  /// `shieldbridge link build view --app NAME [--view VIEW] [--id ID] [--scheme S]`.
  static let linkBuildView = Command(
    name: "view",
    abstract: "Build a link that opens an app view.",
    options: LinkBuildViewOptions.self,
    body: { invocation in
      let configuration = try linkConfiguration(invocation)
      guard let app = invocation[\.app] else {
        throw CommandFailure.usage("--app is required")
      }
      let action = ShieldAction.view(
        app: app, view: invocation[\.view] ?? configuration.view,
        id: invocation[\.id] ?? configuration.identifier)
      return try printLink(for: action, configuration)
    }
  )

  /// The standard configuration with the scheme of `--scheme`, if given.
  static func linkConfiguration(_ invocation: Invocation<some LinkSchemeOptions>) throws(CommandFailure)
    -> LinkConfiguration
  {
    guard let scheme = invocation[\.scheme] else { return .standard }
    do {
      return try LinkConfiguration(scheme: scheme)
    } catch {
      throw .usage("--scheme: \(error.message)")
    }
  }

  private static func printLink(
    for action: ShieldAction, _ configuration: LinkConfiguration
  ) throws(CommandFailure) -> ExitCode {
    do {
      Output.out(try Router(configuration: configuration).link(for: action).description)
      return .success
    } catch {
      throw .usage("\(error.code): \(error.message)")
    }
  }
}
