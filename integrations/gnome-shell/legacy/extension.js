// The entry point for GNOME Shell 43 and 44 (the legacy module style); the
// logic is in core.js, which the ES-module entry point for GNOME 45 and
// later uses too.

/* exported init */

const {Gio, GLib, Meta} = imports.gi;
const Me = imports.misc.extensionUtils.getCurrentExtension();

class ShieldBridgeExtension {
    enable() {
        this._core = Me.imports.core.createCore({Gio, GLib, Meta, shellGlobal: global});
        this._core.enable();
    }

    disable() {
        this._core?.disable();
        this._core = null;
    }
}

function init() {
    return new ShieldBridgeExtension();
}
