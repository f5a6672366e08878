import DBus

/// The options of a command that talks to a message bus: `--address`.
protocol BusOptions: OptionGroup {
  /// `--address ADDR`, declared with ``OptionDeclarations/address()``.
  var address: Option<String> { get }
}

/// The options of a command whose only option is `--address` (`serve`, `open`).
struct AddressOptions: BusOptions {
  let address: Option<String>

  init(declaring options: inout OptionDeclarations) {
    address = options.address()
  }
}

extension OptionDeclarations {
  /// Declares `--address ADDR`, shared by the commands that talk to a bus.
  mutating func address() -> Option<String> {
    value("--address", "ADDR", "The D-Bus address to use instead of the session bus (unix:path=…).")
  }
}

/// The bus named by `--address`, or the session bus.
func bus(_ invocation: Invocation<some BusOptions>) -> Connection.Bus {
  invocation[\.address].map(Connection.Bus.address) ?? .session
}
