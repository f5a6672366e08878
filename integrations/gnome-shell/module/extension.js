// The entry point for GNOME Shell 45 and later (an ES module); the logic is
// in core.js, which the installer turns into a module by appending
// `export { createCore };` (the legacy entry point for GNOME 43 and 44 reads
// the same file as a script).

import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import Meta from 'gi://Meta';
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

import {createCore} from './core.js';

export default class ShieldBridgeExtension extends Extension {
    enable() {
        this._core = createCore({Gio, GLib, Meta, shellGlobal: global});
        this._core.enable();
    }

    disable() {
        this._core?.disable();
        this._core = null;
    }
}
