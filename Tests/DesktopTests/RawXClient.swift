import CXCB
import Foundation

/// An X client of the test's own, for windows no toolkit would make: without
/// `WM_CLASS`, with a hostile one, or destroyed the moment they are activated.
final class RawXClient: @unchecked Sendable {
  private let connection: OpaquePointer
  private let root: xcb_window_t
  private let lock = NSLock()

  init(display: String) throws {
    var screenNumber: Int32 = 0
    guard let connection = xcb_connect(display, &screenNumber), xcb_connection_has_error(connection) == 0 else {
      throw RawXError("could not connect to \(display)")
    }
    self.connection = connection
    let iterator = xcb_setup_roots_iterator(xcb_get_setup(connection))
    guard let screen = iterator.data else { throw RawXError("\(display) has no screen") }
    root = screen.pointee.root
  }

  deinit {
    xcb_disconnect(connection)
  }

  /// Whether the server has closed this client's connection (the window manager killed it).
  ///
  /// A round trip, so that xcb reads the socket and sees its end.
  var isDisconnected: Bool {
    lock.withLock {
      free(xcb_get_input_focus_reply(connection, xcb_get_input_focus(connection), nil))
      return xcb_connection_has_error(connection) != 0
    }
  }

  /// A mapped 200×100 top-level window with `WM_CLASS` set to `wmClass` exactly (none when `nil`).
  func createWindow(wmClass: [UInt8]?) -> UInt64 {
    lock.withLock {
      let window = xcb_generate_id(connection)
      xcb_create_window(
        connection, UInt8(XCB_COPY_FROM_PARENT), window, root, 0, 0, 200, 100, 0,
        UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), UInt32(XCB_COPY_FROM_PARENT), 0, nil)
      if let wmClass {
        xcb_change_property(
          connection, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, XCB_ATOM_WM_CLASS.rawValue,
          XCB_ATOM_STRING.rawValue, 8, UInt32(wmClass.count), wmClass)
      }
      xcb_map_window(connection, window)
      xcb_flush(connection)
      return UInt64(window)
    }
  }

  /// Destroys `window` at once.
  func destroy(_ window: UInt64) {
    lock.withLock {
      xcb_destroy_window(connection, xcb_window_t(window))
      xcb_flush(connection)
    }
  }
}

struct RawXError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
