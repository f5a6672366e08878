import CXCB

/// The atoms the backend uses, interned once per connection.
///
/// None of them names a window title: `WM_NAME` and `_NET_WM_NAME` are never
/// interned, so they cannot be requested by mistake.
struct XAtoms: Sendable {
  var activeWindow: xcb_atom_t = 0
  var supported: xcb_atom_t = 0
  var supportingWMCheck: xcb_atom_t = 0
  var wmPid: xcb_atom_t = 0
  var clientList: xcb_atom_t = 0
  var closeWindow: xcb_atom_t = 0
  var wmProtocols: xcb_atom_t = 0
  var wmDeleteWindow: xcb_atom_t = 0
  var wmChangeState: xcb_atom_t = 0
  var utf8String: xcb_atom_t = 0
  var i3SocketPath: xcb_atom_t = 0

  private static var names: [(String, WritableKeyPath<XAtoms, xcb_atom_t>)] {
    [
      ("_NET_ACTIVE_WINDOW", \.activeWindow), ("_NET_SUPPORTED", \.supported),
      ("_NET_SUPPORTING_WM_CHECK", \.supportingWMCheck), ("_NET_WM_PID", \.wmPid),
      ("_NET_CLIENT_LIST", \.clientList), ("_NET_CLOSE_WINDOW", \.closeWindow), ("WM_PROTOCOLS", \.wmProtocols),
      ("WM_DELETE_WINDOW", \.wmDeleteWindow), ("WM_CHANGE_STATE", \.wmChangeState), ("UTF8_STRING", \.utf8String),
      ("I3_SOCKET_PATH", \.i3SocketPath),
    ]
  }

  /// Interns every atom in one round trip (the requests are sent before the first reply is read).
  ///
  /// - Throws: ``DesktopError`` when the server answers none for one of them.
  static func intern(on connection: OpaquePointer) throws(DesktopError) -> XAtoms {
    let names = XAtoms.names
    let cookies = names.map { name, _ in xcb_intern_atom(connection, 0, UInt16(name.utf8.count), name) }
    var atoms = XAtoms()
    for (cookie, (name, path)) in zip(cookies, names) {
      var error: UnsafeMutablePointer<xcb_generic_error_t>?
      let reply = xcb_intern_atom_reply(connection, cookie, &error)
      defer {
        CXCB_free(reply)
        CXCB_free(error)
      }
      guard let reply, reply.pointee.atom != 0 else {
        throw DesktopError("the X server did not intern the atom \(name)")
      }
      atoms[keyPath: path] = reply.pointee.atom
    }
    return atoms
  }
}
