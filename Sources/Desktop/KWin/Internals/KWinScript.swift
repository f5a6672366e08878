import DBus

/// The JavaScript that ``KWinDesktop`` loads into KWin, generated with the
/// backend's own unique bus name so that KWin calls back only that connection.
///
/// One text serves KWin 5.27 and KWin 6: the script checks which API the
/// `workspace` object has (`windowActivated`/`windowList()` since 6,
/// `clientActivated`/`clientList()` before) instead of the backend guessing
/// the version. A window is named by what identifies its app (`resourceClass`,
/// `resourceName`, `desktopFileName`, `pid`) and by KWin's `internalId`;
/// the caption is never read.
enum KWinScript {
  /// The object the scripts call back.
  static let path = "/org/shieldbridge/KWin"

  /// The lines every script starts with: where to call back, and which API this KWin has.
  private static func prelude(service: String) -> String {
    """
    var shieldbridge = {
      service: \(literal(service)),
      path: \(literal(path)),
      iface: \(literal(KWinScriptInterface.name.rawValue)),
      six: typeof workspace.windowActivated !== "undefined",
    };
    function shieldbridgeText(value) {
      return value === undefined || value === null ? "" : String(value);
    }
    function shieldbridgePid(window) {
      return typeof window.pid === "number" && isFinite(window.pid) ? Math.floor(window.pid) : 0;
    }
    function shieldbridgeWindows() {
      return typeof workspace.windowList === "function" ? workspace.windowList() : workspace.clientList();
    }

    """
  }

  /// The script that stays loaded: `Activated` on every activation, and once for the window active at load.
  ///
  /// `Activated(resourceClass, resourceName, desktopFileName, pid, internalId)`;
  /// all empty and pid 0 when no window is active.
  static func focus(service: String) -> String {
    prelude(service: service) + """
      // ShieldBridge: reports which app has the focus; never the caption.
      function shieldbridgeReport(window) {
        if (!window) {
          callDBus(shieldbridge.service, shieldbridge.path, shieldbridge.iface, \(member(KWinScriptInterface.activated)), "", "", "", 0, "");
          return;
        }
        callDBus(shieldbridge.service, shieldbridge.path, shieldbridge.iface, \(member(KWinScriptInterface.activated)),
          shieldbridgeText(window.resourceClass), shieldbridgeText(window.resourceName),
          shieldbridgeText(window.desktopFileName), shieldbridgePid(window), shieldbridgeText(window.internalId));
      }
      if (shieldbridge.six) {
        workspace.windowActivated.connect(shieldbridgeReport);
        shieldbridgeReport(workspace.activeWindow);
      } else {
        workspace.clientActivated.connect(shieldbridgeReport);
        shieldbridgeReport(workspace.activeClient);
      }

      """
  }

  /// What a one-shot script does to the windows the backend picks.
  enum Action: String {
    case hide
    case close
  }

  /// A one-shot script: lists the windows (`Windows(request, json)`), and in
  /// the reply's callback minimizes or closes those whose ids the reply
  /// names, then says how many it acted on (`Done(request, count)`).
  ///
  /// The list is read again in the callback, so a window that closed in the
  /// meantime is simply not found.
  static func command(service: String, request: String, action: Action) -> String {
    prelude(service: service) + """
      // ShieldBridge: one request (\(action.rawValue)); never reads a caption.
      (function () {
        var request = \(literal(request));
        var action = \(literal(action.rawValue));
        var windows = shieldbridgeWindows();
        var list = [];
        for (var i = 0; i < windows.length; i++) {
          var w = windows[i];
          if (!w || !(w.normalWindow || w.dialog)) continue;
          list.push({
            id: shieldbridgeText(w.internalId), resourceClass: shieldbridgeText(w.resourceClass),
            resourceName: shieldbridgeText(w.resourceName), desktopFileName: shieldbridgeText(w.desktopFileName),
            pid: shieldbridgePid(w), minimized: w.minimized === true
          });
        }
        callDBus(shieldbridge.service, shieldbridge.path, shieldbridge.iface, \(member(KWinScriptInterface.windows)), request, JSON.stringify(list),
          function (chosen) {
            var ids = shieldbridgeText(chosen).split(" ");
            var acted = 0;
            var now = shieldbridgeWindows();
            for (var j = 0; j < now.length; j++) {
              var w = now[j];
              if (!w || ids.indexOf(shieldbridgeText(w.internalId)) < 0) continue;
              if (action === "hide") {
                if (w.minimizable === false) continue;
                w.minimized = true;
              } else {
                w.closeWindow();
              }
              acted++;
            }
            callDBus(shieldbridge.service, shieldbridge.path, shieldbridge.iface, \(member(KWinScriptInterface.done)), request, acted);
          });
      })();

      """
  }

  /// A callback's member name as a JavaScript string literal.
  private static func member<Function>(_ method: MethodContract<Function>) -> String {
    literal(method.name.rawValue)
  }

  /// `text` as a JavaScript string literal: quotes, backslashes and every control or non-ASCII character escaped.
  static func literal(_ text: String) -> String {
    var result = "\""
    for unit in text.utf16 {
      switch unit {
      case 0x22: result += "\\\""
      case 0x5C: result += "\\\\"
      case 0x20..<0x7F: result.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
      default:
        let hex = String(unit, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      }
    }
    return result + "\""
  }
}
