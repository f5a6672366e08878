// ShieldBridge's GNOME Shell extension: the logic both entry points share.
//
// This file is a plain script with one function declaration and no import or
// export, so that it loads both ways GNOME Shell loads an extension's files:
// GNOME 43-44 read it through the legacy `imports` object (which exports a
// script's top-level function declarations), and for GNOME 45 and later the
// installer appends one `export { createCore };` line, which makes it an ES
// module (a legacy script cannot contain `export`, an ES module cannot be read
// through `imports`). Everything the shell provides is passed in, so the file
// names no module path of either style.
//
// The D-Bus contract (docs/reference/gnome-shell.md): the extension exports
// org.shieldbridge.ShellExtension1 at /org/shieldbridge/ShellExtension on the
// shell's own session-bus connection, the one that owns org.gnome.Shell, so a
// watcher checks that what it hears comes from that owner. It takes calls only
// from the ShieldBridge service: a connection of the process that owns
// org.shieldbridge.ShieldBridge, by the pids the bus daemon gives for the
// caller and for that owner (the service watches from a connection of its
// own, beside the one that owns the name). Every other caller is refused
// before it is counted. Only connections that called Watch() are served and
// told about focus changes, at most MAX_WATCHERS of the service's process:
// FocusChanged goes to each of them by unique name, never broadcast. Window
// titles are never read.

/* exported createCore */

function createCore(deps) {
    const {Gio, GLib, Meta, shellGlobal} = deps;

    const VERSION = 1;
    const PATH = '/org/shieldbridge/ShellExtension';
    const INTERFACE = 'org.shieldbridge.ShellExtension1';
    // The one caller served: a connection of the process that owns this name.
    const SERVICE_NAME = 'org.shieldbridge.ShieldBridge';
    // At most this many watching connections of the service's process.
    const MAX_WATCHERS = 4;
    // At most this many ids per Hide/Close call.
    const MAX_IDS = 4096;

    const XML = `<node>
  <interface name="${INTERFACE}">
    <method name="Watch">
      <arg type="u" direction="out" name="version"/>
      <arg type="a{sv}" direction="out" name="focus"/>
    </method>
    <method name="Unwatch"/>
    <method name="ListWindows">
      <arg type="aa{sv}" direction="out" name="windows"/>
    </method>
    <method name="Hide">
      <arg type="at" direction="in" name="ids"/>
      <arg type="at" direction="out" name="hidden"/>
    </method>
    <method name="Close">
      <arg type="at" direction="in" name="ids"/>
      <arg type="at" direction="out" name="closed"/>
    </method>
    <signal name="FocusChanged">
      <arg type="a{sv}" name="focus"/>
    </signal>
  </interface>
</node>`;

    const NODE_INFO = Gio.DBusNodeInfo.new_for_xml(XML);
    const INTERFACE_INFO = NODE_INFO.lookup_interface(INTERFACE);

    // The app behind a window, as a{sv}: never its title.
    function describe(win) {
        const fields = {id: new GLib.Variant('t', win.get_id())};
        const text = (key, value) => {
            if (typeof value === 'string' && value.length > 0 && value.length <= 1024)
                fields[key] = new GLib.Variant('s', value);
        };
        text('wmClass', win.get_wm_class());
        text('wmClassInstance', win.get_wm_class_instance());
        text('gtkApplicationId', win.get_gtk_application_id());
        text('sandboxedAppId', win.get_sandboxed_app_id());
        const pid = win.get_pid();
        if (typeof pid === 'number' && pid > 0)
            fields.pid = new GLib.Variant('i', pid);
        fields.wayland = new GLib.Variant('b', win.get_client_type() === Meta.WindowClientType.WAYLAND);
        fields.minimized = new GLib.Variant('b', Boolean(win.minimized));
        return fields;
    }

    function windows() {
        return shellGlobal.get_window_actors()
            .map(actor => actor.get_meta_window())
            .filter(win => win && !win.is_override_redirect());
    }

    function windowsByIds(ids) {
        const wanted = new Set(ids.slice(0, MAX_IDS).map(id => Number(id)));
        return windows().filter(win => wanted.has(win.get_id()));
    }

    // A call to the bus daemon; resolves with the reply's first value.
    function busCall(connection, method, name, replyType) {
        return new Promise((resolve, reject) => {
            connection.call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', method,
                new GLib.Variant('(s)', [name]), new GLib.VariantType(replyType), Gio.DBusCallFlags.NONE,
                5000, null, (source, result) => {
                    try {
                        resolve(source.call_finish(result).deep_unpack()[0]);
                    } catch (error) {
                        reject(error);
                    }
                });
        });
    }

    class Core {
        constructor() {
            this._connection = Gio.DBus.session;
            // Unique name → {watch: the id of its name watch, pid: its process}.
            this._watchers = new Map();
            this._registration = 0;
            this._focusHandler = 0;
        }

        enable() {
            this._registration = this._connection.register_object(
                PATH, INTERFACE_INFO,
                (connection, sender, path, iface, method, parameters, invocation) =>
                    this._call(sender, method, parameters, invocation),
                null, null);
            this._focusHandler = shellGlobal.display.connect('notify::focus-window', () => this._focusChanged());
        }

        disable() {
            if (this._focusHandler) {
                shellGlobal.display.disconnect(this._focusHandler);
                this._focusHandler = 0;
            }
            if (this._registration) {
                this._connection.unregister_object(this._registration);
                this._registration = 0;
            }
            for (const watcher of this._watchers.values())
                Gio.bus_unwatch_name(watcher.watch);
            this._watchers.clear();
        }

        _focus() {
            const win = shellGlobal.display.get_focus_window();
            return win ? describe(win) : {};
        }

        _focusChanged() {
            if (this._watchers.size === 0)
                return;
            const body = new GLib.Variant('(a{sv})', [this._focus()]);
            for (const name of this._watchers.keys()) {
                try {
                    this._connection.emit_signal(name, PATH, INTERFACE, 'FocusChanged', body);
                } catch (error) {
                    this._forget(name);
                }
            }
        }

        _watch(sender, pid) {
            if (this._watchers.has(sender))
                return true;
            let ofProcess = 0;
            for (const watcher of this._watchers.values()) {
                if (watcher.pid === pid)
                    ofProcess++;
            }
            if (ofProcess >= MAX_WATCHERS)
                return false;
            const watch = Gio.bus_watch_name_on_connection(
                this._connection, sender, Gio.BusNameWatcherFlags.NONE, null, () => this._forget(sender));
            this._watchers.set(sender, {watch, pid});
            return true;
        }

        _forget(name) {
            const watcher = this._watchers.get(name);
            if (watcher === undefined)
                return;
            this._watchers.delete(name);
            Gio.bus_unwatch_name(watcher.watch);
        }

        // The caller's pid when it is a connection of the service's process, else null.
        async _servicePid(sender) {
            const [callerPid, servicePid] = await Promise.all([
                busCall(this._connection, 'GetConnectionUnixProcessID', sender, '(u)'),
                busCall(this._connection, 'GetNameOwner', SERVICE_NAME, '(s)')
                    .then(owner => busCall(this._connection, 'GetConnectionUnixProcessID', owner, '(u)'))
                    .catch(() => null),
            ]);
            return servicePid !== null && callerPid === servicePid ? callerPid : null;
        }

        _call(sender, method, parameters, invocation) {
            this._servicePid(sender).then(pid => {
                if (!this._registration) {
                    invocation.return_dbus_error('org.freedesktop.DBus.Error.Failed', 'the extension is disabled');
                } else if (pid === null) {
                    invocation.return_dbus_error('org.freedesktop.DBus.Error.AccessDenied',
                        `only the ShieldBridge service (a connection of the process that owns ${SERVICE_NAME}) may call this`);
                } else {
                    this._serve(sender, pid, method, parameters, invocation);
                }
            }).catch(error => invocation.return_dbus_error('org.freedesktop.DBus.Error.Failed', String(error)));
        }

        _serve(sender, pid, method, parameters, invocation) {
            try {
                if (method === 'Watch') {
                    if (!this._watch(sender, pid)) {
                        invocation.return_dbus_error('org.freedesktop.DBus.Error.LimitsExceeded',
                            'too many watchers of this process');
                        return;
                    }
                    invocation.return_value(new GLib.Variant('(ua{sv})', [VERSION, this._focus()]));
                    return;
                }
                // Everything else serves only a watcher: a peer must say who it is first.
                if (!this._watchers.has(sender)) {
                    invocation.return_dbus_error('org.freedesktop.DBus.Error.AccessDenied',
                        'call Watch first');
                    return;
                }
                switch (method) {
                case 'Unwatch':
                    this._forget(sender);
                    invocation.return_value(null);
                    return;
                case 'ListWindows':
                    invocation.return_value(new GLib.Variant('(aa{sv})', [windows().map(describe)]));
                    return;
                case 'Hide': {
                    const [ids] = parameters.deep_unpack();
                    const hidden = [];
                    for (const win of windowsByIds(ids)) {
                        // A window that closed meanwhile is skipped; one that cannot minimize is left.
                        if (win.minimized || !win.can_minimize())
                            continue;
                        win.minimize();
                        hidden.push(win.get_id());
                    }
                    invocation.return_value(new GLib.Variant('(at)', [hidden]));
                    return;
                }
                case 'Close': {
                    const [ids] = parameters.deep_unpack();
                    const closed = [];
                    for (const win of windowsByIds(ids)) {
                        win.delete(shellGlobal.get_current_time());
                        closed.push(win.get_id());
                    }
                    invocation.return_value(new GLib.Variant('(at)', [closed]));
                    return;
                }
                default:
                    invocation.return_dbus_error('org.freedesktop.DBus.Error.UnknownMethod', method);
                }
            } catch (error) {
                invocation.return_dbus_error('org.freedesktop.DBus.Error.Failed', String(error));
            }
        }
    }

    return new Core();
}
