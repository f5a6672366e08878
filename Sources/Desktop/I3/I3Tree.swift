import JSON
import Model

/// A window in an i3 or sway layout tree: its container, the app behind it, where it is.
struct I3Window: Hashable, Sendable {
  /// The container id (`con_id`), what commands name it by.
  var containerID: Int64
  /// The X11 window id (i3, and Xwayland windows under sway).
  var xWindow: UInt32?
  /// The names i3 or sway tell: `window_properties` (`instance`, `class`), `app_id`, `pid`.
  var app: AppIdentity
  /// The name of the workspace it is on (`__i3_scratch` for the scratchpad).
  var workspace: String?

  /// The name of the scratchpad's workspace (in i3 and sway alike).
  static let scratchpad = "__i3_scratch"

  var isInScratchpad: Bool { workspace == Self.scratchpad }

  /// The window described by a container object, or `nil` when the container holds no window
  /// (a split container, a workspace, an output).
  ///
  /// Only the names that identify an app are read; the title (`name`) never is.
  init?(container: JSONValue, workspace: String?) {
    guard let id = container["id"]?.integerValue else { return nil }
    let xWindow = container["window"]?.integerValue.flatMap { UInt32(exactly: $0) }
    let appID = container["app_id"]?.stringValue
    let properties = container["window_properties"]
    // A container is a window when an X11 window or a Wayland surface (app_id or pid) is behind it.
    let pid = container["pid"]?.integerValue.flatMap { Int32(exactly: $0) }.flatMap { $0 > 0 ? $0 : nil }
    guard xWindow != nil || appID != nil || pid != nil || properties != nil else { return nil }
    containerID = id
    self.xWindow = xWindow
    app = AppIdentity(
      instance: properties?["instance"]?.stringValue, windowClass: properties?["class"]?.stringValue,
      appID: appID, pid: pid)
    self.workspace = workspace
  }

  /// The window id a ``FocusedWindow`` names: the container id (what commands use).
  var focused: FocusedWindow {
    FocusedWindow(window: WindowID(UInt64(bitPattern: containerID)), app: app)
  }
}

/// What is read from `GET_TREE`: the windows and which one has the focus.
struct I3Tree {
  var windows: [I3Window] = []
  /// The window that has the focus; `nil` when a workspace (an empty one) or nothing has it.
  var focused: I3Window?

  init(_ root: JSONValue) {
    var focusedNode: JSONValue?
    walk(root, workspace: nil, focusedNode: &focusedNode)
    if let node = focusedNode {
      focused = Self.focusLeaf(of: node, windows: windows)
    }
  }

  private mutating func walk(_ node: JSONValue, workspace: String?, focusedNode: inout JSONValue?) {
    var workspace = workspace
    if node["type"]?.stringValue == "workspace" { workspace = node["name"]?.stringValue }
    if node["focused"]?.boolValue == true { focusedNode = node }
    if let window = I3Window(container: node, workspace: workspace) { windows.append(window) }
    for key in ["nodes", "floating_nodes"] {
      for child in node[key]?.arrayValue ?? [] { walk(child, workspace: workspace, focusedNode: &focusedNode) }
    }
  }

  /// The window a focused node stands for: itself, or (a parent container
  /// focused with `focus parent`) the child its `focus` list puts first, down
  /// to a window; a workspace stands for none.
  private static func focusLeaf(of node: JSONValue, windows: [I3Window]) -> I3Window? {
    var node = node
    // Bounded by the tree's depth, which the JSON parser bounds.
    for _ in 0..<JSONValue.maximumDepth {
      if node["type"]?.stringValue == "workspace" { return nil }
      if let id = node["id"]?.integerValue, let window = windows.first(where: { $0.containerID == id }) {
        return window
      }
      guard let first = node["focus"]?.arrayValue?.first?.integerValue else { return nil }
      let children = (node["nodes"]?.arrayValue ?? []) + (node["floating_nodes"]?.arrayValue ?? [])
      guard let child = children.first(where: { $0["id"]?.integerValue == first }) else { return nil }
      node = child
    }
    return nil
  }
}
