/// `org.freedesktop.DBus.Introspectable`, declared once: the dispatcher serves it for every
/// exported object, the introspection document lists it from here, and tests call it.
///
/// The force unwraps cannot fail for these literals and no input reaches them.
public enum IntrospectableInterface {
  public static let name = InterfaceName.introspectable

  /// `Introspect() → s xml_data`: the object's interfaces and children as XML.
  public static let introspect = MethodContract<() -> String>(name, "Introspect", outputs: ["xml_data"])!

  public static let contract = InterfaceContract(name, methods: [introspect.declaration])
}
