// The keyboard and pointer of scripts/first-day's GNOME day: a session of Mutter's own
// org.gnome.Mutter.RemoteDesktop (as a remote-desktop client has one), which lives as long as
// this connection. Run with gjs in the Debian 13 tree as the person; reads one event a line from
// the FIFO ARGV[0] until its writer closes it:
//   key KEYSYM down|up        an X11 keysym (0xff09 Tab, 0xffe9 Alt_L)
//   motion DX DY              a relative pointer motion
//   button CODE down|up       an evdev button (272: the left one)
// Events come 60 ms apart, as a person's do. It only gives input: the day reads the windows as
// Xwayland's X clients see them (our shell extension serves the ShieldBridge service alone).
const { Gio, GLib } = imports.gi;
const bus = Gio.DBus.session;
const name = 'org.gnome.Mutter.RemoteDesktop';
const sessionInterface = name + '.Session';

function call(path, iface, method, parameters, type) {
  return bus.call_sync(name, path, iface, method, parameters, type ? new GLib.VariantType(type) : null,
    Gio.DBusCallFlags.NONE, 30000, null);
}

const session = call('/org/gnome/Mutter/RemoteDesktop', name, 'CreateSession', null, '(o)').deepUnpack()[0];
call(session, sessionInterface, 'Start', null, null);
const input = Gio.DataInputStream.new(Gio.File.new_for_path(ARGV[0]).read(null));
print('ready');
for (;;) {
  const [line] = input.read_line_utf8(null);
  if (line === null) break;
  const words = line.trim().split(/\s+/);
  if (words[0] === 'key')
    call(session, sessionInterface, 'NotifyKeyboardKeysym',
      new GLib.Variant('(ub)', [parseInt(words[1]), words[2] === 'down']), null);
  else if (words[0] === 'motion')
    call(session, sessionInterface, 'NotifyPointerMotionRelative',
      new GLib.Variant('(dd)', [parseFloat(words[1]), parseFloat(words[2])]), null);
  else if (words[0] === 'button')
    call(session, sessionInterface, 'NotifyPointerButton',
      new GLib.Variant('(ib)', [parseInt(words[1]), words[2] === 'down']), null);
  GLib.usleep(60000);
}
