import CXCB

/// What the server offers beyond the core protocol for idle and the screen saver.
struct XCapabilities: Sendable {
  /// MIT-SCREEN-SAVER's first event code, when the server has it.
  var screenSaverEvent: UInt8?
  /// SYNC's first event code and the `IDLETIME` system counter, when the server has them.
  var syncEvent: UInt8?
  var idleCounter: UInt32?
}

extension XConnection {
  /// Finds MIT-SCREEN-SAVER, and SYNC with its `IDLETIME` counter (initialising SYNC on this connection).
  func probeCapabilities() -> XCapabilities {
    var capabilities = XCapabilities()
    if let data = xcb_get_extension_data(raw, CXCB_screensaver_id()), data.pointee.present != 0 {
      capabilities.screenSaverEvent = data.pointee.first_event
    }
    if let data = xcb_get_extension_data(raw, CXCB_sync_id()), data.pointee.present != 0 {
      // SYNC answers nothing else before a client has said which version it speaks.
      let initialized = xcb_sync_initialize_reply(raw, xcb_sync_initialize(raw, 3, 1), nil)
      defer { CXCB_free(initialized) }
      let list = xcb_sync_list_system_counters_reply(raw, xcb_sync_list_system_counters(raw), nil)
      defer { CXCB_free(list) }
      if initialized != nil, let list {
        let total = 32 + Int(list.pointee.length) * 4
        let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(list), count: total)
        capabilities.idleCounter = XWire.systemCounter(named: "IDLETIME", inListReply: bytes)
        capabilities.syncEvent = data.pointee.first_event
      }
    }
    return capabilities
  }

  /// Asks for change events: the root's properties (`_NET_ACTIVE_WINDOW`, the manager's
  /// check), and the screen saver's turning on and off.
  func selectRootEvents(properties: Bool, screenSaver: Bool) {
    if properties {
      var mask = XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue
      xcb_change_window_attributes(raw, root, XCB_CW_EVENT_MASK.rawValue, &mask)
    }
    if screenSaver {
      xcb_screensaver_select_input(raw, root, XCB_SCREENSAVER_EVENT_NOTIFY_MASK.rawValue)
    }
  }

  /// Asks to be told when `window` (the manager's check window) is destroyed.
  func watchDestruction(of window: xcb_window_t) {
    var mask = XCB_EVENT_MASK_STRUCTURE_NOTIFY.rawValue
    xcb_change_window_attributes(raw, window, XCB_CW_EVENT_MASK.rawValue, &mask)
  }

  /// The screen as MIT-SCREEN-SAVER sees it now.
  func screenSaverState() -> ScreenState? {
    let reply = xcb_screensaver_query_info_reply(raw, xcb_screensaver_query_info(raw, root), nil)
    defer { CXCB_free(reply) }
    return reply.map { XEventLoop.screen(fromSaverState: $0.pointee.state) }
  }

  /// An alarm on `counter` that fires each time the counter crosses `value` in the
  /// direction `test` names, and stays armed (a delta of 0 keeps a transition alarm active).
  func createAlarm(counter: UInt32, value: Int64, test: xcb_sync_testtype_t) -> UInt32 {
    let alarm = xcb_generate_id(raw)
    var list = xcb_sync_create_alarm_value_list_t()
    list.counter = counter
    list.valueType = XCB_SYNC_VALUETYPE_ABSOLUTE.rawValue
    list.value = xcb_sync_int64_t(hi: Int32(truncatingIfNeeded: value >> 32), lo: UInt32(truncatingIfNeeded: value))
    list.testType = test.rawValue
    list.delta = xcb_sync_int64_t(hi: 0, lo: 0)
    list.events = 1
    let mask =
      XCB_SYNC_CA_COUNTER.rawValue | XCB_SYNC_CA_VALUE_TYPE.rawValue | XCB_SYNC_CA_VALUE.rawValue
      | XCB_SYNC_CA_TEST_TYPE.rawValue | XCB_SYNC_CA_DELTA.rawValue | XCB_SYNC_CA_EVENTS.rawValue
    xcb_sync_create_alarm_aux(raw, alarm, mask, &list)
    return alarm
  }

  /// The counter's value now (milliseconds without input, for `IDLETIME`).
  func counterValue(_ counter: UInt32) -> Int64? {
    let reply = xcb_sync_query_counter_reply(raw, xcb_sync_query_counter(raw, counter), nil)
    defer { CXCB_free(reply) }
    return reply.map { XEventLoop.int64($0.pointee.counter_value) }
  }

  /// Asks the server for its time: a 1×1 input-only window of this connection
  /// gets an empty append to a property of its own, which the server answers
  /// with a stamped `PropertyNotify` on that window. Once per connection; the
  /// window is the caller's to tell apart.
  func askServerTime() -> xcb_window_t {
    let window = xcb_generate_id(raw)
    var mask = XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue
    xcb_create_window(
      raw, 0, window, root, -1, -1, 1, 1, 0, UInt16(XCB_WINDOW_CLASS_INPUT_ONLY.rawValue), 0,
      XCB_CW_EVENT_MASK.rawValue, &mask)
    // Nothing is appended: the property changes in name only, and the window is never mapped.
    xcb_change_property(
      raw, UInt8(XCB_PROP_MODE_APPEND.rawValue), window, XCB_ATOM_WM_NAME.rawValue, XCB_ATOM_STRING.rawValue, 8, 0,
      nil)
    return window
  }
}
