/// `org.freedesktop.DBus.Properties`, as it is called: reading one property of a peer's object.
///
/// The force unwraps cannot fail for these literals and no input reaches them.
public enum PropertiesInterface {
  public static let name = InterfaceName.properties

  /// `Get(s interface_name, s property_name) → v value`.
  public static let get = MethodContract<(String, String) -> Variant>(
    name, "Get", inputs: ["interface_name", "property_name"], outputs: ["value"])!

  public static let contract = InterfaceContract(name, methods: [get.declaration])
}
