import CXCB
import Model

/// One connection to an X server, with the atoms and extensions the backend uses.
///
/// The backend keeps two: the event loop's, which only its thread touches,
/// and one for hide, close and identity look-ups, used under a mutex, so a
/// reply read by one caller never takes an event from the loop's queue while
/// it waits in `poll`. Everything the server sends is read within the length
/// the reply really has.
final class XConnection: @unchecked Sendable {
  let raw: OpaquePointer
  /// The display as the caller named it, for messages.
  let display: String
  let root: xcb_window_t
  let atoms: XAtoms
  /// Whether X-Resource 1.2 answers client pids (`QueryClientIds`).
  let hasClientPids: Bool

  private init(raw: OpaquePointer, display: String, root: xcb_window_t, atoms: XAtoms, hasClientPids: Bool) {
    self.raw = raw
    self.display = display
    self.root = root
    self.atoms = atoms
    self.hasClientPids = hasClientPids
  }

  deinit {
    xcb_disconnect(raw)
  }

  /// Connects to `display` and interns the atoms.
  ///
  /// - Throws: ``DesktopError`` when there is no X server at `display` or it does not answer.
  static func open(display: String) throws(DesktopError) -> XConnection {
    var screenNumber: Int32 = 0
    guard let raw = xcb_connect(display, &screenNumber) else {
      throw DesktopError("could not connect to the X display \(display)")
    }
    let code = xcb_connection_has_error(raw)
    guard code == 0 else {
      xcb_disconnect(raw)
      throw DesktopError("could not connect to the X display \(display): \(describe(code))")
    }
    var roots = xcb_setup_roots_iterator(xcb_get_setup(raw))
    var skipped: Int32 = 0
    while skipped < screenNumber && roots.rem > 0 {
      xcb_screen_next(&roots)
      skipped += 1
    }
    guard roots.rem > 0, let screen = roots.data else {
      xcb_disconnect(raw)
      throw DesktopError("the X display \(display) has no screen \(screenNumber)")
    }
    let atoms: XAtoms
    do {
      atoms = try XAtoms.intern(on: raw)
    } catch {
      xcb_disconnect(raw)
      throw error
    }
    return XConnection(
      raw: raw, display: display, root: screen.pointee.root, atoms: atoms,
      hasClientPids: clientPidsAvailable(on: raw))
  }

  private static func clientPidsAvailable(on raw: OpaquePointer) -> Bool {
    guard let data = xcb_get_extension_data(raw, CXCB_res_id()), data.pointee.present != 0 else { return false }
    let reply = xcb_res_query_version_reply(raw, xcb_res_query_version(raw, 1, 2), nil)
    defer { CXCB_free(reply) }
    guard let reply else { return false }
    return reply.pointee.server_major > 1 || (reply.pointee.server_major == 1 && reply.pointee.server_minor >= 2)
  }

  /// Why a connection failed, from `xcb_connection_has_error`'s code.
  static func describe(_ code: Int32) -> String {
    switch code {
    case XCB_CONN_ERROR: "no X server answers there, or it closed the connection"
    case XCB_CONN_CLOSED_EXT_NOTSUPPORTED: "the server lacks an extension the connection needs"
    case XCB_CONN_CLOSED_MEM_INSUFFICIENT: "out of memory"
    case XCB_CONN_CLOSED_REQ_LEN_EXCEED: "a request was longer than the server accepts"
    case XCB_CONN_CLOSED_PARSE_ERR: "the display name could not be parsed"
    case XCB_CONN_CLOSED_INVALID_SCREEN: "the display has no such screen"
    default: "error \(code)"
    }
  }

  /// Why the connection is broken, or `nil` while it works.
  var failure: String? {
    let code = xcb_connection_has_error(raw)
    return code == 0 ? nil : XConnection.describe(code)
  }

  /// The connection's socket, for `poll`.
  var fileDescriptor: Int32 { xcb_get_file_descriptor(raw) }

  /// Sends what is buffered; `false` when the connection is broken.
  @discardableResult
  func flush() -> Bool { xcb_flush(raw) > 0 }

  // MARK: Properties

  /// Asks for `atom` on `window`, at most `maxBytes` of it from `offsetWords` 32-bit units in, of any type.
  func requestProperty(
    _ window: xcb_window_t, _ atom: xcb_atom_t, maxBytes: Int, offsetWords: Int = 0
  ) -> xcb_get_property_cookie_t {
    xcb_get_property(
      raw, 0, window, atom, 0, UInt32(clamping: offsetWords), UInt32(clamping: (maxBytes + 3) / 4))
  }

  /// The property a ``requestProperty(_:_:maxBytes:)`` asked for; `nil` when the window has none.
  ///
  /// - Throws: ``WindowGone`` when the server answers with an error (the window was destroyed).
  func property(_ cookie: xcb_get_property_cookie_t) throws(WindowGone) -> XProperty? {
    var error: UnsafeMutablePointer<xcb_generic_error_t>?
    let reply = xcb_get_property_reply(raw, cookie, &error)
    defer {
      CXCB_free(reply)
      CXCB_free(error)
    }
    guard let reply else { throw WindowGone() }
    let format = reply.pointee.format
    guard reply.pointee.type != 0, format == 8 || format == 16 || format == 32 else { return nil }
    // The value's length as the header declares it, never more than the reply holds.
    let declared = Int(reply.pointee.value_len) * Int(format / 8)
    let available = Int(reply.pointee.length) * 4
    let count = min(declared, available)
    guard count > 0, let start = xcb_get_property_value(reply) else { return nil }
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    return XProperty(
      type: reply.pointee.type, format: format, bytes: bytes, remaining: Int(reply.pointee.bytes_after))
  }

  /// `atom` on `window`, asked and read in one round trip.
  func property(
    _ window: xcb_window_t, _ atom: xcb_atom_t, maxBytes: Int, offsetWords: Int = 0
  ) throws(WindowGone) -> XProperty? {
    try property(requestProperty(window, atom, maxBytes: maxBytes, offsetWords: offsetWords))
  }

  /// A window named by a `WINDOW` property (`_NET_ACTIVE_WINDOW`, `_NET_SUPPORTING_WM_CHECK`); `nil` for None.
  func windowProperty(_ window: xcb_window_t, _ atom: xcb_atom_t) -> xcb_window_t? {
    guard let value = try? property(window, atom, maxBytes: 4), value.type == XCB_ATOM_WINDOW.rawValue,
      let first = value.words.first, first != 0
    else { return nil }
    return first
  }

  /// The EWMH manager's check window: the root's `_NET_SUPPORTING_WM_CHECK`, when that window
  /// names itself too (a stale property left by a manager that died names a window that is gone).
  func windowManagerCheck() -> xcb_window_t? {
    guard let check = windowProperty(root, atoms.supportingWMCheck),
      windowProperty(check, atoms.supportingWMCheck) == check
    else { return nil }
    return check
  }

  /// Whether the root's `_NET_SUPPORTED` lists `atom` (at most 4096 atoms are read).
  func supports(_ atom: xcb_atom_t) -> Bool {
    guard let value = try? property(root, atoms.supported, maxBytes: 4 * 4096), value.type == XCB_ATOM_ATOM.rawValue
    else { return false }
    return value.words.contains(atom)
  }

  /// The managed windows: the root's `_NET_CLIENT_LIST` (at most 65536).
  func clientList() -> [xcb_window_t] {
    guard let value = try? property(root, atoms.clientList, maxBytes: 4 * 65536),
      value.type == XCB_ATOM_WINDOW.rawValue
    else { return [] }
    return value.words.filter { $0 != 0 }
  }

  /// The root's `I3_SOCKET_PATH`, which i3 sets to its IPC socket.
  func i3SocketPath() -> String? {
    guard let value = try? property(root, atoms.i3SocketPath, maxBytes: 4096), value.format == 8 else { return nil }
    let bytes = value.bytes.prefix { $0 != 0 }
    guard let path = String(validating: bytes, as: UTF8.self), path.hasPrefix("/") else { return nil }
    return path
  }

  // MARK: Identity

  /// The requests behind one window's identity, sent together.
  struct IdentityRequest {
    var window: xcb_window_t
    var wmClass: xcb_get_property_cookie_t
    var wmPid: xcb_get_property_cookie_t
    var clientIDs: xcb_res_query_client_ids_cookie_t?
  }

  /// Asks for `window`'s `WM_CLASS` (the first ``X11Text/headBytes``), `_NET_WM_PID` and its client's pid.
  func requestIdentity(_ window: xcb_window_t) -> IdentityRequest {
    var clientIDs: xcb_res_query_client_ids_cookie_t?
    if hasClientPids {
      var spec = xcb_res_client_id_spec_t(client: window, mask: XCB_RES_CLIENT_ID_MASK_LOCAL_CLIENT_PID.rawValue)
      clientIDs = xcb_res_query_client_ids(raw, 1, &spec)
    }
    return IdentityRequest(
      window: window, wmClass: requestProperty(window, XCB_ATOM_WM_CLASS.rawValue, maxBytes: X11Text.headBytes),
      wmPid: requestProperty(window, atoms.wmPid, maxBytes: 4), clientIDs: clientIDs)
  }

  /// What is known of the app behind a window: class and instance, and the pid the server
  /// knows (X-Resource, which a client cannot fake), else the one the window claims.
  ///
  /// - Throws: ``WindowGone`` when the window no longer exists.
  func identity(_ request: IdentityRequest) throws(WindowGone) -> AppIdentity {
    // Every reply is read, even after a failure, so none is left behind in xcb's queue.
    let wmClass = Result { () throws(WindowGone) in try property(request.wmClass) }
    let wmPid = try? property(request.wmPid)
    let serverPid = request.clientIDs.flatMap(clientPid)
    let names = wmClassNames(request.window, head: try wmClass.get())
    var pid = serverPid
    if pid == nil, let claimed = wmPid, claimed.type == XCB_ATOM_CARDINAL.rawValue, let value = claimed.words.first,
      value > 0, value <= UInt32(Int32.max)
    {
      pid = Int32(value)
    }
    return AppIdentity(instance: names.instance, windowClass: names.windowClass, pid: pid)
  }

  /// The instance and the class from `WM_CLASS`'s first bytes (`head`), each within its own
  /// bound: when the instance is longer than its bound, the class is read from the value's end
  /// (one more round trip), so that no instance, however long, pushes the class out.
  private func wmClassNames(
    _ window: xcb_window_t, head: XProperty?
  ) -> (instance: String?, windowClass: String?) {
    guard let head, let bytes = head.formatted(8) else { return (nil, nil) }
    let names = X11Text.wmClass(bytes)
    guard X11Text.classPlace(head: bytes, remaining: head.remaining) == .inTail else { return names }
    let total = bytes.count + head.remaining
    let offsetWords = max(0, total - X11Text.tailBytes) / 4
    // A value that shrank since the first read is answered with an error: then no class is known.
    let tail = try? property(
      window, XCB_ATOM_WM_CLASS.rawValue, maxBytes: total - offsetWords * 4, offsetWords: offsetWords)
    return (names.instance, tail?.formatted(8).flatMap(X11Text.lastName))
  }

  /// `window`'s identity in one round trip; `nil` when the window is gone.
  func identity(of window: xcb_window_t) -> AppIdentity? {
    try? identity(requestIdentity(window))
  }

  /// The pid in a `QueryClientIds` reply, read within the reply's own length.
  private func clientPid(_ cookie: xcb_res_query_client_ids_cookie_t) -> Int32? {
    var error: UnsafeMutablePointer<xcb_generic_error_t>?
    let reply = xcb_res_query_client_ids_reply(raw, cookie, &error)
    defer {
      CXCB_free(reply)
      CXCB_free(error)
    }
    guard let reply else { return nil }
    let total = 32 + Int(reply.pointee.length) * 4
    let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(reply), count: total)
    return XWire.clientPid(inQueryClientIDsReply: bytes, mask: XCB_RES_CLIENT_ID_MASK_LOCAL_CLIENT_PID.rawValue)
  }

  // MARK: Client messages

  /// Sends a 32-bit client message about `window` to `destination` and waits for the server's verdict.
  ///
  /// - Returns: Whether the server accepted it (an error means the window is gone).
  func sendClientMessage(
    to destination: xcb_window_t, window: xcb_window_t, type: xcb_atom_t,
    data: (UInt32, UInt32, UInt32, UInt32, UInt32), eventMask: UInt32
  ) -> Bool {
    var event = xcb_client_message_event_t()
    event.response_type = UInt8(XCB_CLIENT_MESSAGE)
    event.format = 32
    event.window = window
    event.type = type
    event.data.data32 = data
    let cookie = withUnsafeBytes(of: &event) { bytes in
      xcb_send_event_checked(raw, 0, destination, eventMask, bytes.bindMemory(to: CChar.self).baseAddress)
    }
    let error = xcb_request_check(raw, cookie)
    defer { CXCB_free(error) }
    return error == nil
  }
}

/// The window a request named no longer exists (the server answered with an error).
struct WindowGone: Error {}

/// A property's value, cut to the bytes its reply really holds.
struct XProperty {
  var type: xcb_atom_t
  var format: UInt8
  var bytes: [UInt8]
  /// How many bytes of the value follow those read (the reply's `bytes_after`).
  var remaining: Int = 0

  /// The value as 32-bit items (in the connection's byte order, which is ours); empty for other formats.
  var words: [UInt32] {
    guard format == 32 else { return [] }
    return stride(from: 0, to: bytes.count - 3, by: 4).map { offset in
      bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
    }
  }

  /// The bytes when the value has `format`, else `nil`.
  func formatted(_ wanted: UInt8) -> [UInt8]? {
    format == wanted ? bytes : nil
  }
}
