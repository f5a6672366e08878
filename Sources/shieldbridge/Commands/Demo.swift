import DBus

extension Command {
  /// `shieldbridge demo`: the whole flow on a private bus, with nothing of the desktop needed.
  static let demo = Command(
    name: "demo",
    abstract: "Run the flow end to end on a private bus of its own.",
    discussion: """
      Starts a private dbus-daemon, connects to it twice, exports an object on one
      connection and calls it from the other, and prints each step. Needs only
      the dbus-daemon program; leaves no process behind.
      """,
    body: { _ in
      let bus = try BusDaemon()
      defer { bus.stop() }
      Output.out("1. Started a private bus at \(bus.address)")
      let service = try Connection(.address(bus.address))
      let client = try Connection(.address(bus.address))
      Output.out("2. Connected twice: \(service.uniqueName) and \(client.uniqueName)")
      let name = try BusName("org.shieldbridge.Demo")
      _ = try await service.requestName(name)
      try service.export(
        [
          try Interface(
            "org.shieldbridge.Demo1",
            methods: [
              try Method("Hello", inputs: "s", outputs: "s") { call in
                [.string("hello, \(try call.decode(String.self))")]
              }
            ])
        ], at: try ObjectPath("/org/shieldbridge/Demo"))
      Output.out("3. \(service.uniqueName) owns \(name) and exports /org/shieldbridge/Demo")
      let owner = try await client.nameOwner(name)
      Output.out("4. The bus says \(name) belongs to \(owner ?? "nobody")")
      let reply = try await client.call(
        name, try ObjectPath("/org/shieldbridge/Demo"), try InterfaceName("org.shieldbridge.Demo1"),
        try MemberName("Hello"), "ShieldBridge", timeout: .seconds(2))
      Output.out("5. Called Hello and got: \(try reply.decode(String.self))")
      Output.out("6. Stopped the private bus")
      return .success
    }
  )
}
